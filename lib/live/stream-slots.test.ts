// The bounds on open live streams, with real event streams that hold and free their slots
// (small bounds given to the test's own slots; the process's are STREAMS_PER_STAFF_MEMBER/PROCESS).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { frameReader, until } from '@/test/support/live';
import { getLiveBus, publishVerificationChange } from './bus';
import { createEventStream } from './sse';
import { createStreamSlots, type StreamSlots } from './stream-slots';

beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  resetEnv();
  // Opening the database and starting the feed can take seconds on a busy machine: done here,
  // the tests' own waits are for what they test.
  await getDb();
  (await getLiveBus().subscribe(() => undefined))();
}, 120_000);

afterAll(async () => {
  await closeDatabases();
});

/** Opens a real stream for the staff member `staffId` if `slots` has room, as app/api/events does. */
function openStream(slots: StreamSlots, staffId: string) {
  const slot = slots.acquire(staffId);
  if (!slot.ok) return { refused: slot.limit };
  const abort = new AbortController();
  const frames = frameReader(createEventStream({ signal: abort.signal, onClose: slot.release }));
  return { refused: null, abort, frames };
}

describe('createStreamSlots', () => {
  it('refuses a staff member their next stream past the per-member bound, while another member opens their own', async () => {
    const slots = createStreamSlots({ perMember: 3, perProcess: 100 });
    const mine = [1, 2, 3].map(() => openStream(slots, 'member-a'));
    expect(mine.map((s) => s.refused)).toEqual([null, null, null]);
    expect(openStream(slots, 'member-a').refused).toBe('member');

    const other = openStream(slots, 'member-b');
    expect(other.refused).toBeNull();
    // The refused one held nothing; the open ones all still stream.
    for (const stream of [...mine, other]) await stream.frames!.next(); // retry: subscribed
    const event = await publishVerificationChange({ verificationId: 'v-slots', status: 'pending' });
    for (const stream of [...mine, other]) {
      expect((await stream.frames!.next()).id).toBe(String(event.id));
    }
    for (const stream of [...mine, other]) stream.abort!.abort();
  });

  it('frees the slot when a stream ends, so the refused tab gets in on its next try', () => {
    const slots = createStreamSlots({ perMember: 2, perProcess: 100 });
    const [first] = [openStream(slots, 's'), openStream(slots, 's')];
    expect(openStream(slots, 's').refused).toBe('member');
    first!.abort!.abort();
    expect(slots.open('s')).toBe(1);
    const retried = openStream(slots, 's');
    expect(retried.refused).toBeNull();
    expect(slots.open('s')).toBe(2);
    retried.abort!.abort();
  });

  it('holds the per-process bound across staff members, and frees it as streams end', async () => {
    const listeners = getLiveBus().listenerCount();
    const slots = createStreamSlots({ perMember: 10, perProcess: 5 });
    const open = ['a', 'b', 'c', 'd', 'e'].map((member) => openStream(slots, member));
    expect(open.every((s) => s.refused === null)).toBe(true);
    expect(openStream(slots, 'f').refused).toBe('process');
    expect(openStream(slots, 'a').refused).toBe('process');
    expect(slots.open()).toBe(5);
    await until(() => getLiveBus().listenerCount() === listeners + 5, 'five subscriptions');

    open[0]!.abort!.abort();
    expect(openStream(slots, 'f').refused).toBeNull();
    expect(slots.open()).toBe(5);
  });

  it('frees a slot once however many ways the stream ends', async () => {
    const slots = createStreamSlots({ perMember: 1, perProcess: 1 });
    const stream = openStream(slots, 's');
    stream.abort!.abort();
    await stream.frames!.cancel();
    expect(slots.open()).toBe(0);
    expect(slots.open('s')).toBe(0);
    const next = openStream(slots, 'other');
    expect(next.refused).toBeNull();
    expect(openStream(slots, 'third').refused).toBe('process');
    next.abort!.abort();
  });
});
