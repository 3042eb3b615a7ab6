// The audit trail's hash chain on a real database (PGlite, and PostgreSQL in the postgres
// project): what the database writes, the server's check, the JSON Lines export read back by the
// offline verifier and its command, each kind of tampering made with SQL, retention, key rotation,
// and two instances appending at once.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asc, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { purgeExpiredAudit, recordAudit, recordAudits } from '@/lib/audit/audit';
import { runAuditCli } from '@/lib/audit/cli';
import { getDb } from '@/lib/db';
import * as schema from '@/lib/db/schema';
import { auditEntries, auditSigningKeys } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { chainExportText, resetAuditChain } from '@/test/support/audit-chain';
import { openOtherInstanceDb } from '@/test/support/second-instance';
import { canonicalJson, canonicalTime } from './canonical';
import { checkAuditChain, lastChainCheck } from './chain-check.server';
import { chainEntryColumns, readChainHead } from './chain-rows.server';
import { signCheckpointAtHead, signCheckpointIfDue } from './checkpoints.server';
import { type ChainEntry, entryHash, GENESIS_HASH } from './entry';
import { publicKeyFingerprint, publicKeysFromPem } from './keys';
import { getAuditSigningKey } from './signing-key.server';
import { verifyExportLines } from './verify-export';

const savedKey = process.env.AUDIT_SIGNING_KEY;
let dir: string;

beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  resetEnv();
  dir = await mkdtemp(path.join(tmpdir(), 'audit-chain-'));
});

beforeEach(async () => {
  await resetAuditChain(await getDb());
});

afterEach(() => {
  if (savedKey === undefined) delete process.env.AUDIT_SIGNING_KEY;
  else process.env.AUDIT_SIGNING_KEY = savedKey;
  resetEnv();
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await closeDatabases();
});

async function chainRows(): Promise<ChainEntry[]> {
  return (await getDb()).select(chainEntryColumns).from(auditEntries).orderBy(asc(auditEntries.seq));
}

async function writeEntries(count: number): Promise<void> {
  for (let i = 0; i < count; i++)
    await recordAudit({ actorId: `staff-${i}`, action: 'verification.viewed', target: { type: 'verification', id: `v-${i}` } });
}

/** The current key's PEM, and the keys map an auditor would build from it. */
async function currentKeys(): Promise<{ pem: string; keys: Map<string, KeyObject> }> {
  const { publicKeyPem } = await getAuditSigningKey();
  return { pem: publicKeyPem, keys: publicKeysFromPem(publicKeyPem) };
}

async function* linesOf(text: string) {
  for (const line of text.split('\n')) yield line;
}

async function offlineVerdict(keys?: Map<string, KeyObject>) {
  return verifyExportLines(linesOf(await chainExportText()), keys ?? (await currentKeys()).keys);
}

/** Runs `npm run audit -- verify` in this process on the export, with the given PEM text. */
async function verifyCommand(pem: string) {
  const file = path.join(dir, `export-${Date.now()}-${Math.random()}.jsonl`);
  const keyFile = path.join(dir, `keys-${Date.now()}-${Math.random()}.pem`);
  await writeFile(file, await chainExportText(), { mode: 0o600 });
  await writeFile(keyFile, pem, { mode: 0o600 });
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAuditCli(['verify', file, '--public-key', keyFile], { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('the chain the database writes', () => {
  it('links every entry, however written, to the one before, with a hash TypeScript recomputes from its content', async () => {
    const db = await getDb();
    await recordAudit({ actorId: null, action: 'sign_in.failed' });
    // Details that test the encoding: quotes, a backslash, control characters, accents, an emoji,
    // a key order jsonb would change, integers and booleans.
    await recordAudit({
      actorId: 'staff-1',
      action: 'staff.role_changed',
      target: { type: 'staff', id: 'Søren "the ß" \\ Dvořák' },
      details: { zeta: 'é\u0001\n\t\u007f😀', a: -42, bb: true, B: 9_007_199_254_740_991, ' ': '' },
    });
    await recordAudits([
      { actorId: 'staff-2', action: 'verification.removed', target: { type: 'verification', id: 'v-1' } },
      { actorId: 'staff-2', action: 'verification.removed', target: { type: 'verification', id: 'v-2' } },
    ]);
    await db.transaction(async (tx) => {
      await recordAudit({ actorId: 'staff-3', action: 'link.copied', target: { type: 'verification', id: 'v-3' } }, tx);
    });
    // A rolled-back writer gives its place back.
    await expect(
      db.transaction(async (tx) => {
        await recordAudit({ actorId: 'staff-4', action: 'link.copied' }, tx);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');

    const rows = await chainRows();
    expect(rows.map((row) => row.seq)).toEqual([1, 2, 3, 4, 5]);
    let previous = GENESIS_HASH;
    for (const row of rows) {
      expect(row.prev).toBe(previous);
      expect(row.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
      expect(entryHash(row)).toBe(row.hash);
      previous = row.hash;
    }
    expect(await readChainHead(db)).toMatchObject({ seq: 5, hash: previous });
  });

  it('refuses a detail that is not a whole number, which the encoding cannot hold exactly', async () => {
    await expect(recordAudit({ actorId: null, action: 'sign_out', details: { share: 0.5 } })).rejects.toThrow(
      /share must be a whole number/,
    );
    expect(() => canonicalJson(1e21)).toThrow(/not a whole number/);
  });
});

describe('checkpoints', () => {
  it('are signed every N entries or M minutes, whichever comes first, over the head as it stands', async () => {
    process.env.AUDIT_CHECKPOINT_ENTRIES = '3';
    process.env.AUDIT_CHECKPOINT_MINUTES = '10';
    resetEnv();
    try {
      await writeEntries(2);
      expect(await signCheckpointIfDue()).toBeNull();
      const later = new Date(Date.now() + 11 * 60_000);
      expect(await signCheckpointIfDue(later)).toMatchObject({ seq: 2, at: canonicalTime(later) });
      await writeEntries(3);
      const checkpoint = await signCheckpointIfDue();
      const head = await readChainHead(await getDb());
      expect(checkpoint).toMatchObject({ seq: 5, hash: head.hash, keyFingerprint: (await getAuditSigningKey()).fingerprint });
      expect(await signCheckpointIfDue()).toBeNull();
    } finally {
      delete process.env.AUDIT_CHECKPOINT_ENTRIES;
      delete process.env.AUDIT_CHECKPOINT_MINUTES;
    }
  });
});

describe('the server check and the offline verifier', () => {
  it('find an untouched chain intact, up to its last checkpoint, and say so', async () => {
    await writeEntries(4);
    await signCheckpointAtHead();
    await writeEntries(2);
    const verdict = await checkAuditChain();
    expect(verdict).toMatchObject({ intact: true, verifiedSeq: 6, unsignedEntries: 2, break: null });
    expect(verdict.lastCheckpoint?.seq).toBe(4);
    expect(await lastChainCheck()).toMatchObject({ intact: 'yes', verifiedSeq: 6, verifiedCheckpointSeq: 4, breakSeq: null });

    const { pem } = await currentKeys();
    const run = await verifyCommand(pem);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain('Chain intact: entries 1 to 6 (6), up to checkpoint at entry 4');
    expect(run.out).toContain('2 entries after the last checkpoint are linked but not yet signed.');
  });

  // Each tampering is made with SQL on entry 4 of 6, after a checkpoint at 6.
  const TAMPERING: Record<string, { sql: string[]; kind: string; says: string }> = {
    'an update': {
      sql: [`update audit_entries set details = '{"role":"admin"}' where seq = 4`],
      kind: 'changed',
      says: 'entry 4 was changed',
    },
    'a delete': { sql: ['delete from audit_entries where seq = 4'], kind: 'deleted', says: 'an entry was deleted at 4' },
    'an insert': {
      sql: [
        'alter table audit_entries disable trigger audit_entries_chain',
        'update audit_entries set seq = -seq - 1 where seq >= 4',
        'update audit_entries set seq = -seq where seq < 0',
        // A forged entry that is consistent in itself and follows entry 3.
        `insert into audit_entries (id, at, actor_id, action, seq, prev_hash, hash)
           select forged.id, now(), 'forger', 'sign_out', 4, hash,
                  audit_entry_hash(forged.id, now(), 'forger', 'sign_out', null, null, null, hash)
             from audit_entries, (select gen_random_uuid() as id) as forged where seq = 3`,
        'alter table audit_entries enable trigger audit_entries_chain',
      ],
      kind: 'inserted',
      says: 'an entry was inserted at 4',
    },
    'a swap': {
      sql: [
        'update audit_entries set seq = -4 where seq = 4',
        'update audit_entries set seq = 4 where seq = 5',
        'update audit_entries set seq = 5 where seq = -4',
      ],
      kind: 'reordered',
      says: 'entries were reordered at 4',
    },
  };

  it.each(Object.entries(TAMPERING))('catch %s made with SQL, naming the entry, on the server and offline', async (_, tampering) => {
    await writeEntries(6);
    await signCheckpointAtHead();
    const db = await getDb();
    for (const statement of tampering.sql) await db.execute(sql.raw(statement));

    const verdict = await checkAuditChain();
    expect(verdict.break).toMatchObject({ kind: tampering.kind, seq: 4 });
    expect(verdict.verifiedSeq).toBe(3);
    expect(await lastChainCheck()).toMatchObject({ intact: 'no', breakSeq: 4, breakKind: tampering.kind, verifiedSeq: 3 });

    const offline = await offlineVerdict();
    expect(offline.break).toMatchObject({ kind: tampering.kind, seq: 4 });
    const run = await verifyCommand((await currentKeys()).pem);
    expect(run.code).toBe(1);
    expect(run.err).toContain(`Chain NOT intact: ${tampering.says}`);
    expect(run.err).toContain('Intact up to entry 3');
  });

  it('catch a chain rewritten after its checkpoint was signed, and entries missing at its end', async () => {
    await writeEntries(5);
    await signCheckpointAtHead();
    const db = await getDb();
    // Rewritten with every hash recomputed: only the signed checkpoint can tell.
    await db.execute(sql`update audit_entries set action = 'sign_out' where seq = 5`);
    await db.execute(
      sql`update audit_entries set hash = audit_entry_hash(id, at, actor_id, action, target_type, target_id, details, prev_hash) where seq = 5`,
    );
    await db.execute(sql`update audit_chain_head set hash = (select hash from audit_entries where seq = 5)`);
    expect((await checkAuditChain()).break).toMatchObject({ kind: 'checkpoint-mismatch', seq: 5 });

    await resetAuditChain(db);
    await writeEntries(5);
    await signCheckpointAtHead();
    await db.execute(sql`delete from audit_entries where seq = 5`);
    expect((await checkAuditChain()).break).toMatchObject({ kind: 'deleted', seq: 5 });
    expect((await offlineVerdict()).break).toMatchObject({ kind: 'deleted', seq: 5 });
  });

  it('refuse a file that is not an export, and keys that are not the Desk’s', async () => {
    await writeEntries(2);
    await signCheckpointAtHead();
    const stranger = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const run = await verifyCommand(stranger);
    expect(run.code).toBe(1);
    expect(run.err).toContain('the checkpoint at entry 2 is not signed by any of the public keys given');

    const notAnExport = path.join(dir, 'not-an-export.jsonl');
    await writeFile(notAnExport, '{"hello":"world"}\n');
    const keyFile = path.join(dir, 'key.pem');
    await writeFile(keyFile, (await currentKeys()).pem);
    const err: string[] = [];
    expect(await runAuditCli(['verify', notAnExport, '--public-key', keyFile], { out: () => {}, err: (l) => err.push(l) })).toBe(2);
    expect(err.join('\n')).toMatch(/line 1: /);
    expect(await runAuditCli(['verify', notAnExport], { out: () => {}, err: () => {} })).toBe(2);
  });
});

describe('retention', () => {
  it('purges a prefix, keeps the checkpoint that attests where the rest begins, and the chain stays verifiable', async () => {
    const db = await getDb();
    const now = new Date();
    const old = new Date(now.getTime() - 40 * 24 * 60 * 60 * 1000);
    // Written with their own time, so the database hashes that time.
    for (let i = 0; i < 3; i++) await db.insert(auditEntries).values({ actorId: 'x', action: 'sign_out', at: old });
    await writeEntries(2);
    expect(await purgeExpiredAudit(30, now)).toBe(3);

    const head = await readChainHead(db);
    expect(head.anchor.seq).toBe(3);
    expect((await chainRows()).map((row) => row.seq)).toEqual([4, 5]);
    const verdict = await checkAuditChain();
    expect(verdict).toMatchObject({ intact: true, verifiedSeq: 5, anchor: { seq: 3 } });
    const run = await verifyCommand((await currentKeys()).pem);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain('Entries 1 to 3 were purged under the retention policy');

    // The anchor is part of what is checked.
    await db.execute(sql`update audit_chain_head set anchor_hash = repeat('a', 64)`);
    expect((await checkAuditChain()).break).toMatchObject({ kind: 'deleted', seq: 4 });
  });
});

describe('key rotation', () => {
  it('keeps checkpoints signed before it verifiable, with the old public key kept beside the new', async () => {
    const der = (key: KeyObject) => key.export({ type: 'pkcs8', format: 'der' }).toString('base64');
    const first = generateKeyPairSync('ed25519');
    const second = generateKeyPairSync('ed25519');
    const pem = (key: KeyObject) => key.export({ type: 'spki', format: 'pem' }).toString();
    const signWith = (key: KeyObject) => {
      process.env.AUDIT_SIGNING_KEY = der(key);
      resetEnv();
    };
    signWith(first.privateKey);
    await writeEntries(2);
    await signCheckpointAtHead();
    signWith(second.privateKey);
    await writeEntries(2);
    await signCheckpointAtHead();

    const listed = await (await getDb()).select().from(auditSigningKeys);
    expect(listed.map((key) => key.fingerprint)).toEqual(
      expect.arrayContaining([publicKeyFingerprint(first.publicKey), publicKeyFingerprint(second.publicKey)]),
    );
    expect((await checkAuditChain()).intact).toBe(true);
    expect((await verifyCommand(pem(first.publicKey) + pem(second.publicKey))).code).toBe(0);
    const onlyNew = await verifyCommand(pem(second.publicKey));
    expect(onlyNew.code).toBe(1);
    expect(onlyNew.err).toContain('the checkpoint at entry 2 is not signed');
  });
});

describe('two instances appending at once', () => {
  it('form one chain: every place taken once, each entry following the one before', async () => {
    const other = openOtherInstanceDb(schema, await getDb());
    try {
      const write = (db: typeof other.db, who: string) =>
        Promise.all(Array.from({ length: 40 }, (_, i) => recordAudit({ actorId: `${who}-${i}`, action: 'verification.viewed' }, db)));
      await Promise.all([write(await getDb(), 'a'), write(other.db, 'b')]);
      const rows = await chainRows();
      expect(rows.map((row) => row.seq)).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
      expect((await checkAuditChain()).intact).toBe(true);
      if (other.independent) expect(new Set(rows.map((row) => row.actorId?.[0]))).toEqual(new Set(['a', 'b']));
    } finally {
      await other.close();
    }
  });
});
