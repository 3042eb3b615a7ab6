// A burst of webhooks as a sender under stress delivers them: 500 signed deliveries, 20% of them
// copies of another (re-sent while the original is still in flight, or later, as retries are),
// spread over 150 verifications with several events each, shuffled out of order, plus forged
// ones mixed in, fired 40 at a time at the real receiver route. The database is a real (in-memory)
// PGlite, the service a real local HTTP server whose answers the test controls and whose GETs it
// counts. What must hold: every delivery is answered (2xx, duplicates too, so the sender stops;
// forgeries 4xx), each webhook-id is applied exactly once (one re-read, one "processed" answer),
// each real status change leaves one audit entry, the register ends equal to the service's truth
// and never moved backwards. The burst is generated from a fixed seed, so a failure reproduces.
import type http from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { POST } from '@/app/api/webhooks/verification-service/route';
import { getDb } from '@/lib/db';
import { auditEntries, verificationRequests, webhookReceipts } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { currentEventId, getLiveBus, type LiveEvent, subscribe } from '@/lib/live';
import { closeDatabases } from '@/lib/platform/database';
import { type FakeUpstream, startFakeUpstream } from '@/lib/verification-service/fake-upstream';
import { until } from '@/test/support/live';
import { type Delivery, delivery, nowSeconds, SECRET_A, SECRET_B, SECRET_OTHER, sign, toRequest } from '@/test/support/webhook-receiver';

const VERIFICATIONS = 150;
const UNIQUE_DELIVERIES = 400;
const DUPLICATES = 100; // 20% of the 500 genuine deliveries
const IN_FLIGHT = 40;
const TERMINAL = new Set(['completed', 'failed', 'expired']);

// ── A reproducible burst ────────────────────────────────────────────────────────────────────

/** mulberry32: a tiny seeded generator, so the shuffles are the same on every run. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = seeded(0x5eed_b0057);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

type Verification = {
  id: string;
  /** What the service finally says. */
  final: 'pending' | 'completed' | 'failed' | 'expired';
  /** In the dashboard's register (created here); the others were never ours. */
  registered: boolean;
  /** The service's answers, read by read: the status changes during the burst for some. */
  answers: string[];
  reads: number;
};

const FINALS = ['pending', 'completed', 'failed', 'expired'] as const;
const verifications: Verification[] = Array.from({ length: VERIFICATIONS }, (_, i) => ({
  id: `burst-${String(i).padStart(3, '0')}`,
  final: FINALS[i % FINALS.length]!,
  // Every tenth is not in the register: a webhook must not create its row.
  registered: i % 10 !== 9,
  answers: [],
  reads: 0,
}));
const byId = new Map(verifications.map((v) => [v.id, v]));

// Every verification gets at least one event, the rest are spread at random: 1 to ~6 each.
const eventCount = new Map(verifications.map((v) => [v.id, 1]));
for (let i = VERIFICATIONS; i < UNIQUE_DELIVERIES; i++) {
  const v = pick(verifications);
  eventCount.set(v.id, eventCount.get(v.id)! + 1);
}

for (const v of verifications) {
  const n = eventCount.get(v.id)!;
  if (v.final === 'pending' || n === 1) v.answers = [v.final];
  // It finishes while its events are arriving: the first re-read still sees pending.
  else if (n === 2 || Number(v.id.slice(-3)) % 3 !== 0) v.answers = ['pending', v.final];
  // A confused (or lagging) replica: a later re-read answers pending again after the terminal
  // status; the register must keep the terminal one.
  else v.answers = [v.final, 'pending', v.final];
}

/** The signed event for one change: thin, the receiver re-reads the record anyway. */
function eventFor(v: Verification, index: number): Delivery {
  const type = index === 0 || v.final === 'pending' ? 'verification.created' : `verification.${v.final}`;
  const body = { type, timestamp: new Date().toISOString(), data: { verificationId: v.id, status: index === 0 ? 'pending' : v.final } };
  // Half signed with each secret: a rotation is under way during the burst.
  return delivery(body, { id: `msg_${v.id}_${index}`, secret: index % 2 === 0 ? SECRET_A : SECRET_B });
}

const originals: Delivery[] = shuffle(
  verifications.flatMap((v) => Array.from({ length: eventCount.get(v.id)! }, (_, i) => eventFor(v, i))),
);

/** A later copy as a retrying sender makes it: same id and body, a fresh timestamp and signature. */
function resigned(d: Delivery): Delivery {
  const timestamp = nowSeconds();
  return {
    ...d,
    timestamp,
    headers: { ...d.headers, 'webhook-timestamp': String(timestamp), 'webhook-signature': sign(SECRET_A, d.id, timestamp, d.body) },
  };
}

type Planned = { delivery: Delivery; kind: 'original' | 'concurrent copy' | 'late copy' | 'forgery' };

// Wave 1: the originals in shuffled order; 40 copies right behind their original (in flight
// together), 30 copies further down the queue (the original is done by then), and forgeries.
// Wave 2, after wave 1 has been answered: 30 retries long after the fact.
const copied = shuffle([...originals]).slice(0, DUPLICATES);
const wave1: Planned[] = originals.map((d) => ({ delivery: d, kind: 'original' }));
for (const d of copied.slice(0, 40)) {
  const at = wave1.findIndex((p) => p.delivery === d);
  wave1.splice(at + 1, 0, { delivery: { ...d }, kind: 'concurrent copy' });
}
for (const d of copied.slice(40, 70)) {
  const at = wave1.findIndex((p) => p.delivery === d);
  const later = at + IN_FLIGHT * 2 + Math.floor(random() * (wave1.length - at));
  wave1.splice(Math.min(later, wave1.length), 0, { delivery: resigned(d), kind: 'late copy' });
}
const wave2: Planned[] = copied.slice(70).map((d) => ({ delivery: d, kind: 'late copy' }));

// Forgeries: a new id signed with a secret we do not hold, and genuine ids with one changed byte
// in the body (an attacker racing the real delivery must not use up its receipt), and a capture
// replayed outside the five-minute window.
const targets = verifications.filter((v) => v.registered && v.final === 'pending');
const forgeries: Delivery[] = [
  ...Array.from({ length: 4 }, (_, i) =>
    delivery(
      { type: 'verification.completed', data: { verificationId: targets[i]!.id, status: 'completed' } },
      { id: `msg_forged_${i}`, secret: SECRET_OTHER },
    ),
  ),
  ...originals.slice(0, 5).map((d) => ({ ...d, body: d.body.replace('"type":"verification.', '"type":"verificatioN.') })),
  delivery(
    { type: 'verification.completed', data: { verificationId: targets[5]!.id } },
    { id: 'msg_forged_stale', timestamp: nowSeconds() - 600 },
  ),
];
for (const d of forgeries) wave1.splice(Math.floor(random() * wave1.length), 0, { delivery: d, kind: 'forgery' });

// ── The stand-in service ────────────────────────────────────────────────────────────────────

function record(status: string) {
  return {
    inputted_name: 'Burst Person',
    status,
    purpose: 'ensuring_compliance',
    access_expires_at: '2030-01-08T00:00:00.000Z',
    identified_name: status === 'completed' ? 'BURST PERSON' : null,
    identified_date: status === 'completed' ? '2030-01-02T10:00:00.000Z' : null,
    verification_method: status === 'completed' ? 'id_card' : null,
    failed_reason: status === 'failed' ? 'document_expired' : null,
    kept_until: '2030-02-01T00:00:00.000Z',
  };
}

function service(req: http.IncomingMessage, res: http.ServerResponse) {
  const v = byId.get(decodeURIComponent((req.url ?? '').replace(/^\/v1\/verifications\//, '')));
  if (!v) {
    res.writeHead(404, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ error: 'Verification not found' }));
    return;
  }
  const status = v.answers[Math.min(v.reads, v.answers.length - 1)]!;
  v.reads += 1;
  // A few milliseconds of latency, so that copies of one delivery really overlap its re-read.
  setTimeout(
    () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(record(status)));
    },
    1 + Math.floor(random() * 8),
  );
}

// ── The run ─────────────────────────────────────────────────────────────────────────────────

let upstream: FakeUpstream;
let unsubscribe: () => void;
const published: LiveEvent[] = [];
const logged: string[] = [];

type Answer = Planned & { status: number; body: Record<string, unknown> };

/** Sends the planned deliveries with `IN_FLIGHT` of them outstanding at any time. */
async function fire(plan: Planned[]): Promise<Answer[]> {
  const answers: Answer[] = new Array(plan.length);
  let next = 0;
  const worker = async () => {
    while (next < plan.length) {
      const index = next++;
      const planned = plan[index]!;
      const response = await POST(toRequest(planned.delivery));
      answers[index] = { ...planned, status: response.status, body: (await response.json()) as Record<string, unknown> };
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return answers;
}

let answers: Answer[];

beforeAll(async () => {
  upstream = await startFakeUpstream();
  upstream.program(service);
  process.env.DATA_DIR = 'memory://';
  process.env.VERIFICATION_API_URL = upstream.baseUrl;
  process.env.VERIFICATION_API_KEY = 'test-key';
  // Generous: the service, the receiver and PGlite share this one thread, and on a busy machine a
  // re-read can wait seconds for it. A timed-out read would be retried (a second GET for the same
  // id), which is correct behaviour but not what this test counts; latency is the load test's job.
  process.env.VERIFICATION_API_TIMEOUT_MS = '60000';
  process.env.WEBHOOK_SECRET = `${SECRET_A} ${SECRET_B}`;
  resetEnv();
  const db = await getDb();
  await db.insert(verificationRequests).values(
    verifications
      .filter((v) => v.registered)
      .map((v) => ({
        verificationId: v.id,
        name: 'Burst Person',
        purpose: 'ensuring_compliance',
        language: 'en',
        shareableLink: true,
        emailNotification: false,
        smsNotification: false,
        link: `https://svc.example/v/${v.id}`,
      })),
  );
  unsubscribe = await subscribe((e) => published.push(e));
  for (const level of ['log', 'info', 'warn', 'error'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
  }

  answers = [...(await fire(wave1)), ...(await fire(wave2))];
  // Every applied delivery's event is in the log; the feed hands them out a moment later.
  const newest = await currentEventId();
  await until(() => getLiveBus().deliveredUpTo() >= newest, 'the live feed to catch up', 30_000);
  // The timeout is far above what the burst needs: the margin is for a machine busy with other
  // work, not for this test.
}, 120_000);

afterAll(async () => {
  vi.restoreAllMocks();
  unsubscribe?.();
  await upstream?.close();
  await closeDatabases();
});

describe('a burst of 500 webhooks with 20% duplicates, 40 in flight', () => {
  it('was built as described: 400 unique deliveries, 100 copies, over 150 verifications, plus forgeries', () => {
    const genuine = answers.filter((a) => a.kind !== 'forgery');
    expect(genuine).toHaveLength(UNIQUE_DELIVERIES + DUPLICATES);
    expect(new Set(genuine.map((a) => a.delivery.id)).size).toBe(UNIQUE_DELIVERIES);
    expect(answers.filter((a) => a.kind === 'concurrent copy')).toHaveLength(40);
    expect(answers.filter((a) => a.kind === 'late copy')).toHaveLength(60);
    expect(answers.filter((a) => a.kind === 'forgery')).toHaveLength(forgeries.length);
    // Out of order: for some verifications a terminal event comes before its "created".
    const firstTypes = new Map<string, string>();
    for (const a of answers) {
      if (a.kind !== 'original') continue;
      const { type, data } = JSON.parse(a.delivery.body) as { type: string; data: { verificationId: string } };
      if (!firstTypes.has(data.verificationId)) firstTypes.set(data.verificationId, type);
    }
    expect([...firstTypes.values()].filter((t) => t !== 'verification.created').length).toBeGreaterThan(10);
  });

  it('answers every genuine delivery 200, and each webhook-id "processed" exactly once, its copies "duplicate"', () => {
    const genuine = answers.filter((a) => a.kind !== 'forgery');
    expect(genuine.filter((a) => a.status !== 200).map((a) => `${a.delivery.id}: ${a.status} ${JSON.stringify(a.body)}`)).toEqual([]);
    const processed = new Map<string, number>();
    for (const a of genuine) {
      expect(['processed', 'duplicate']).toContain(a.body.status);
      if (a.body.status === 'processed') processed.set(a.delivery.id, (processed.get(a.delivery.id) ?? 0) + 1);
    }
    expect(processed.size).toBe(UNIQUE_DELIVERIES);
    expect([...processed.values()].every((n) => n === 1)).toBe(true);
    expect(genuine.filter((a) => a.body.status === 'duplicate')).toHaveLength(DUPLICATES);
  });

  it('refuses every forgery with a 4xx, and they leave no receipt', async () => {
    const refused = answers.filter((a) => a.kind === 'forgery');
    expect(refused.map((a) => a.status)).toEqual(refused.map(() => 401));
    const ids = new Set((await (await getDb()).select({ id: webhookReceipts.webhookId }).from(webhookReceipts)).map((r) => r.id));
    expect(ids.size).toBe(UNIQUE_DELIVERIES);
    expect(ids).toEqual(new Set(originals.map((d) => d.id)));
    expect([...ids].some((id) => id.startsWith('msg_forged'))).toBe(false);
  });

  it('re-reads each verification once per unique webhook-id: no copy and no forgery reaches the service', () => {
    const gets = upstream.requests.filter((r) => r.method === 'GET');
    expect(gets).toHaveLength(UNIQUE_DELIVERIES);
    for (const v of verifications) expect(v.reads, v.id).toBe(eventCount.get(v.id));
  });

  it('ends with the register equal to the service, one row per request, none created by a webhook', async () => {
    const rows = await (await getDb()).select().from(verificationRequests);
    const registered = verifications.filter((v) => v.registered);
    expect(rows).toHaveLength(registered.length);
    expect(Object.fromEntries(rows.map((r) => [r.verificationId, r.status]))).toEqual(
      Object.fromEntries(registered.map((v) => [v.id, v.final])),
    );
    for (const row of rows.filter((r) => r.status === 'completed')) expect(row.identifiedName).toBe('BURST PERSON');
  });

  it('records one audit entry per real status change, always from pending, never backwards', async () => {
    const entries = await (await getDb()).select().from(auditEntries).where(eq(auditEntries.action, 'verification.status_changed'));
    const expected = verifications.filter((v) => v.registered && v.final !== 'pending');
    expect(entries).toHaveLength(expected.length);
    expect(new Set(entries.map((e) => e.targetId))).toEqual(new Set(expected.map((v) => v.id)));
    for (const e of entries) expect(e.details).toEqual({ status: byId.get(e.targetId!)!.final, previous: 'pending' });
  });

  it('tells browsers once per applied delivery, and what it tells never moves a verification backwards', () => {
    expect(published).toHaveLength(UNIQUE_DELIVERIES);
    const seen = new Map<string, string>();
    for (const { verificationId, status } of published) {
      const before = seen.get(verificationId);
      if (before && TERMINAL.has(before) && byId.get(verificationId)!.registered) expect(status, verificationId).toBe(before);
      seen.set(verificationId, status);
    }
  });

  it('logs no secret and no personal data', () => {
    for (const line of logged) {
      for (const secret of [SECRET_A, SECRET_B, SECRET_A.slice(6), SECRET_B.slice(6)]) expect(line).not.toContain(secret);
      expect(line).not.toMatch(/Burst Person|BURST PERSON/i);
    }
  });
});
