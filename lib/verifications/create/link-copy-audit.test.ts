// "Link copied" entries on a real (in-memory) PGlite database: written for a register entry with
// a shareable link, refused (nothing written) for anything else, and limited per staff member.
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEntries } from '@/lib/db/schema';
import { ADA, insert, OTTO, row, setUpRegisterDatabase } from '@/test/support/register';
import { LINK_COPY_RATE_LIMIT_PER_MINUTE, NO_SHAREABLE_LINK, recordLinkCopy } from './link-copy-audit.server';

setUpRegisterDatabase();

/** Every link.copied entry, as actor → target. */
async function copiedEntries() {
  const rows = await (await getDb()).select().from(auditEntries);
  return rows.filter((entry) => entry.action === 'link.copied').map((entry) => `${entry.actorId} → ${entry.targetId}`);
}

// Each test reports its copies in its own minute, far from the others', so the process's one
// limiter starts empty for it.
let minute = Date.UTC(2030, 0, 1);
beforeEach(async () => {
  minute += 10 * 60_000;
  await (await getDb()).delete(auditEntries);
});

describe('recordLinkCopy', () => {
  it('records a copy of a link the register holds', async () => {
    await insert(row({ verificationId: 'with-link' }));
    expect(await recordLinkCopy(OTTO, 'with-link', minute)).toEqual({ ok: true });
    expect(await copiedEntries()).toEqual([`${OTTO} → with-link`]);
  });

  it('refuses, and records nothing for, an id the register does not hold or that has no link', async () => {
    await insert(row({ verificationId: 'no-link', shareableLink: false, link: null }));
    for (const id of ['arbitrary-forged-id-<b>x</b>', '7f0c1d7e-8a55-4f5c-9d71-0d1f3a3f6c11', 'no-link']) {
      expect(await recordLinkCopy(OTTO, id, minute), id).toEqual({ ok: false, error: NO_SHAREABLE_LINK });
    }
    expect(await copiedEntries()).toEqual([]);
  });

  it(`allows ${LINK_COPY_RATE_LIMIT_PER_MINUTE} reports a minute per staff member; the next is refused and not recorded`, async () => {
    await insert(row({ verificationId: 'busy-link' }));
    for (let i = 0; i < LINK_COPY_RATE_LIMIT_PER_MINUTE; i += 1) {
      expect(await recordLinkCopy(OTTO, 'busy-link', minute + i)).toEqual({ ok: true });
    }
    const refused = await recordLinkCopy(OTTO, 'busy-link', minute + 1_000);
    expect(refused).toEqual({ ok: false, error: expect.stringContaining('Too many copied links reported') });
    expect(refused.ok === false && refused.error).toContain('Wait 59 seconds; nothing was recorded.');
    expect(await copiedEntries()).toHaveLength(LINK_COPY_RATE_LIMIT_PER_MINUTE);

    // Someone else is not held up; and after the minute, Otto may report again.
    expect(await recordLinkCopy(ADA, 'busy-link', minute + 1_000)).toEqual({ ok: true });
    expect(await recordLinkCopy(OTTO, 'busy-link', minute + 60_000)).toEqual({ ok: true });
    expect(await copiedEntries()).toHaveLength(LINK_COPY_RATE_LIMIT_PER_MINUTE + 2);
  });

  it('counts made-up ids against the limit too, so guessing is no faster than copying', async () => {
    for (let i = 0; i < LINK_COPY_RATE_LIMIT_PER_MINUTE; i += 1) await recordLinkCopy(ADA, `guess-${i}`, minute);
    expect(await recordLinkCopy(ADA, 'guess-next', minute)).toMatchObject({ ok: false, error: expect.stringContaining('Too many') });
  });
});
