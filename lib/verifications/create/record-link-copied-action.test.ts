// The "link copied" server action as a caller reaches it, on a real (in-memory) PGlite database:
// what a forged argument writes (nothing) and what a real copy writes (one entry). The session
// is stood in for: outside a Next.js request there is no cookie to read.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Staff } from '@/lib/auth/session';
import { getDb } from '@/lib/db';
import { auditEntries } from '@/lib/db/schema';
import { insert, OTTO, row, setUpRegisterDatabase } from '@/test/support/register';
import { recordLinkCopiedAction } from './actions';

const session = vi.hoisted(() => ({ staff: null as Staff | null }));
vi.mock('@/lib/auth/session', () => ({
  getCurrentStaff: async () => session.staff,
  staffFromHeaders: async () => session.staff,
}));

setUpRegisterDatabase();

async function copiedTargets() {
  const rows = await (await getDb()).select().from(auditEntries);
  return rows.filter((entry) => entry.action === 'link.copied').map((entry) => entry.targetId);
}

beforeEach(async () => {
  session.staff = { id: OTTO, name: 'Otto Operator', email: 'otto@example.com', role: 'operator', sessionId: 's-otto' };
  await (await getDb()).delete(auditEntries);
});

describe('recordLinkCopiedAction', () => {
  it('writes no entry for a forged id, and says why', async () => {
    const answer = await recordLinkCopiedAction('arbitrary-forged-id-<b>x</b>');
    expect(answer).toEqual({ ok: false, error: expect.stringContaining('no shareable link for that verification id') });
    expect(await copiedTargets()).toEqual([]);
  });

  it('writes one entry for a register entry with a link', async () => {
    await insert(row({ verificationId: 'real-with-link' }));
    expect(await recordLinkCopiedAction('real-with-link')).toEqual({ ok: true });
    expect(await copiedTargets()).toEqual(['real-with-link']);
  });

  it('is limited per staff member: the 31st report in a minute writes nothing', async () => {
    await insert(row({ verificationId: 'copied-often' }));
    session.staff = { id: 'staff-busy', name: 'Busy Operator', email: 'busy@example.com', role: 'operator', sessionId: 's-busy' };
    const answers = [];
    for (let i = 0; i < 31; i += 1) answers.push(await recordLinkCopiedAction('copied-often'));
    expect(answers.slice(0, 30).every((answer) => answer.ok)).toBe(true);
    expect(answers[30]).toEqual({ ok: false, error: expect.stringContaining('Too many copied links reported') });
    expect(await copiedTargets()).toHaveLength(30);
  });
});
