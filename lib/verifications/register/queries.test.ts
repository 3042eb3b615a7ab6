// The register's list on a real (in-memory) PGlite database: every filter alone and combined,
// search escaping, the "expiring soon" and "stuck" boundaries against a fixed clock (and the
// UI's predicates agreeing with the SQL), mine versus everyone's, the view counts (paging:
// pages.test.ts; the search's indexes: search-index.test.ts).
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { verificationRequests } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { rowsOf } from '@/lib/platform/database';
import { ADA, at, DAY, HOUR, insert, NOW, OTTO, row, setUpRegisterDatabase } from '@/test/support/register';
import { contactDigest, contactDigestsOfRequest, contactKeyFrom, contactsOfRequest, getContactKey } from './contact-digest.server';
import { isExpiringSoon, isStuck, type RegisterFilter, registerFilterSchema } from './filter';
import { countRegisterViews, escapeLike, listRegister, type RegisterEntry } from './queries.server';

type ListOptions = { limit?: number; staffId?: string; timeZone?: string };
const list = (filter: RegisterFilter, options: ListOptions = {}) => listRegister(filter, { now: NOW, staffId: ADA, ...options });
const ids = (entries: RegisterEntry[]) => entries.map((e) => e.verificationId);
const listIds = async (filter: RegisterFilter, options?: ListOptions) => ids(await list(filter, options));

setUpRegisterDatabase();

describe('listRegister', () => {
  it('lists everything newest first, ties in a stable order', async () => {
    await insert(
      row({ verificationId: 'a', createdAt: at(-3 * HOUR) }),
      row({ verificationId: 'b', createdAt: at(-HOUR) }),
      row({ verificationId: 'c', createdAt: at(-HOUR) }),
      row({ verificationId: 'd', createdAt: at(-2 * HOUR) }),
    );
    expect(await listIds({})).toEqual(['c', 'b', 'd', 'a']);
  });

  it('filters by status', async () => {
    await insert(
      row({ verificationId: 'p', status: 'pending' }),
      row({ verificationId: 'c', status: 'completed', identifiedName: 'X' }),
      row({ verificationId: 'f', status: 'failed' }),
      row({ verificationId: 'e', status: 'expired' }),
    );
    expect(await listIds({ status: 'pending' })).toEqual(['p']);
    expect(await listIds({ status: 'completed' })).toEqual(['c']);
    expect(await listIds({ status: 'failed' })).toEqual(['f']);
    expect(await listIds({ status: 'expired' })).toEqual(['e']);
  });

  it('filters by a predefined purpose, or by any purpose typed by hand', async () => {
    await insert(
      row({ verificationId: 'legal', purpose: 'legal_obligations', createdAt: at(-1) }),
      row({ verificationId: 'gdpr', purpose: 'processing_gdpr_request', createdAt: at(-2) }),
      row({ verificationId: 'compliance', purpose: 'ensuring_compliance', createdAt: at(-3) }),
      row({ verificationId: 'supplier', purpose: 'Onboarding of a new supplier', createdAt: at(-4) }),
      row({ verificationId: 'custom', purpose: 'custom', createdAt: at(-5) }),
    );
    expect(await listIds({ purpose: 'legal_obligations' })).toEqual(['legal']);
    expect(await listIds({ purpose: 'processing_gdpr_request' })).toEqual(['gdpr']);
    expect(await listIds({ purpose: 'ensuring_compliance' })).toEqual(['compliance']);
    // A request whose typed purpose happens to be the word "custom" is one of them, too.
    expect(await listIds({ purpose: 'custom' })).toEqual(['supplier', 'custom']);
  });

  it("filters by creator: mine, a given staff member's, or everyone's", async () => {
    await insert(
      row({ verificationId: 'ada-1', createdBy: ADA, createdAt: at(-1) }),
      row({ verificationId: 'otto-1', createdBy: OTTO, createdAt: at(-2) }),
      row({ verificationId: 'nobody', createdBy: null, createdAt: at(-3) }),
      row({ verificationId: 'ada-2', createdBy: ADA, createdAt: at(-4) }),
    );
    expect(await listIds({})).toEqual(['ada-1', 'otto-1', 'nobody', 'ada-2']);
    expect(await listIds({ createdBy: 'mine' }, { staffId: ADA })).toEqual(['ada-1', 'ada-2']);
    expect(await listIds({ createdBy: 'mine' }, { staffId: OTTO })).toEqual(['otto-1']);
    expect(await listIds({ createdBy: OTTO }, { staffId: ADA })).toEqual(['otto-1']);
    expect(await listIds({ createdBy: 'no-such-staff' })).toEqual([]);
    await expect(listRegister({ createdBy: 'mine' }, { now: NOW })).rejects.toThrow(/staff id/);
  });

  it("filters by assignee: mine, nobody's, a given colleague's, or everyone's", async () => {
    await insert(
      row({ verificationId: 'to-ada', assignedTo: ADA, assignedAt: at(-1), createdBy: OTTO, createdAt: at(-1) }),
      row({ verificationId: 'to-otto', assignedTo: OTTO, assignedAt: at(-2), createdAt: at(-2) }),
      row({ verificationId: 'free', createdAt: at(-3) }),
      row({ verificationId: 'to-ada-2', assignedTo: ADA, assignedAt: at(-4), createdAt: at(-4) }),
    );
    expect(await listIds({})).toEqual(['to-ada', 'to-otto', 'free', 'to-ada-2']);
    expect(await listIds({ assignee: 'mine' }, { staffId: ADA })).toEqual(['to-ada', 'to-ada-2']);
    expect(await listIds({ assignee: 'mine' }, { staffId: OTTO })).toEqual(['to-otto']);
    expect(await listIds({ assignee: 'unassigned' })).toEqual(['free']);
    expect(await listIds({ assignee: OTTO })).toEqual(['to-otto']);
    expect(await listIds({ assignee: 'no-such-staff' })).toEqual([]);
    // The assignee and the creator are two filters: Ada's requests that Otto created.
    expect(await listIds({ assignee: 'mine', createdBy: OTTO })).toEqual(['to-ada']);
    // The quick views' counts honour it too.
    await insert(row({ verificationId: 'soon-free', accessExpiresAt: at(2 * HOUR) }));
    expect(await countRegisterViews({ assignee: 'unassigned' }, { now: NOW, staffId: ADA })).toEqual({ expiring: 1, stuck: 0 });
    expect(await countRegisterViews({ assignee: 'mine' }, { now: NOW, staffId: ADA })).toEqual({ expiring: 0, stuck: 0 });
    await expect(listRegister({ assignee: 'mine' }, { now: NOW })).rejects.toThrow(/staff id/);
  });

  it('filters by UTC creation day, both ends inclusive to the microsecond', async () => {
    await insert(
      row({ verificationId: 'before', createdAt: new Date('2030-01-09T23:59:59.999Z') }),
      row({ verificationId: 'first', createdAt: new Date('2030-01-10T00:00:00.000Z') }),
      row({ verificationId: 'middle', createdAt: new Date('2030-01-11T12:00:00.000Z') }),
      row({ verificationId: 'last', createdAt: new Date('2030-01-12T23:59:59.999Z') }),
      row({ verificationId: 'after', createdAt: new Date('2030-01-13T00:00:00.000Z') }),
    );
    // Postgres keeps microseconds (defaultNow() writes them); JavaScript dates stop at milliseconds.
    await (await getDb()).execute(
      sql`UPDATE verification_requests SET created_at = '2030-01-12T23:59:59.999999Z' WHERE verification_id = 'last'`,
    );

    expect(await listIds({ from: '2030-01-10', to: '2030-01-12' })).toEqual(['last', 'middle', 'first']);
    expect(await listIds({ from: '2030-01-12' })).toEqual(['after', 'last']);
    expect(await listIds({ to: '2030-01-10' })).toEqual(['first', 'before']);
    expect(await listIds({ from: '2030-01-11', to: '2030-01-11' })).toEqual(['middle']);
  });

  it('filters by creation day in the display zone: the day starts at that zone’s midnight', async () => {
    await insert(
      // Brussels is UTC+1 in January: its 10 January runs from 09 Jan 23:00 to 10 Jan 23:00 UTC.
      row({ verificationId: 'late-9th', createdAt: new Date('2030-01-09T22:59:59.999Z') }),
      row({ verificationId: 'brussels-10th-start', createdAt: new Date('2030-01-09T23:00:00.000Z') }),
      row({ verificationId: 'brussels-10th-end', createdAt: new Date('2030-01-10T22:59:59.999Z') }),
      row({ verificationId: 'brussels-11th', createdAt: new Date('2030-01-10T23:00:00.000Z') }),
    );
    const brussels = { timeZone: 'Europe/Brussels' };
    expect(await listIds({ from: '2030-01-10', to: '2030-01-10' }, brussels)).toEqual(['brussels-10th-end', 'brussels-10th-start']);
    expect(await listIds({ from: '2030-01-11' }, brussels)).toEqual(['brussels-11th']);
    // The same days in UTC select other rows.
    expect(await listIds({ from: '2030-01-10', to: '2030-01-10' })).toEqual(['brussels-11th', 'brussels-10th-end']);
  });

  describe('search', () => {
    beforeEach(async () => {
      await insert(
        row({ verificationId: '3f1c0a52-aaaa-4bbb-8ccc-000000000001', name: 'Chloé Dubois', createdAt: at(-1) }),
        row({ verificationId: '3f1c0a52-aaaa-4bbb-8ccc-000000000002', name: 'Alice Martin', createdAt: at(-2) }),
        row({ verificationId: '9e00ffff-0000-4000-8000-0000000000ab', name: 'Bram Peeters', createdAt: at(-3) }),
        row({ verificationId: 'pct', name: '100% Real Person', createdAt: at(-4) }),
        row({ verificationId: 'under', name: 'Ann_Marie Smith', createdAt: at(-5) }),
        row({ verificationId: 'plain', name: 'AnnXMarie 100 Smith', createdAt: at(-6) }),
        row({ verificationId: 'slash', name: 'Back\\slash Name', createdAt: at(-7) }),
      );
    });

    it('finds a name anywhere inside it, in any case', async () => {
      expect(await listIds({ q: 'martin' })).toEqual(['3f1c0a52-aaaa-4bbb-8ccc-000000000002']);
      expect(await listIds({ q: 'BRAM PEE' })).toEqual(['9e00ffff-0000-4000-8000-0000000000ab']);
      expect(await listIds({ q: 'chloé' })).toEqual(['3f1c0a52-aaaa-4bbb-8ccc-000000000001']);
      expect(await listIds({ q: 'CHLOÉ DU' })).toEqual(['3f1c0a52-aaaa-4bbb-8ccc-000000000001']);
      expect(await listIds({ q: 'smith' })).toEqual(['under', 'plain']);
      expect(await listIds({ q: 'nobody by that name' })).toEqual([]);
    });

    it('finds an id by its exact value or its start', async () => {
      expect(await listIds({ q: '9e00ffff-0000-4000-8000-0000000000ab' })).toEqual(['9e00ffff-0000-4000-8000-0000000000ab']);
      expect(await listIds({ q: '3f1c0a52' })).toEqual(['3f1c0a52-aaaa-4bbb-8ccc-000000000001', '3f1c0a52-aaaa-4bbb-8ccc-000000000002']);
      // Not from the middle of an id.
      expect(await listIds({ q: '0000-4000' })).toEqual([]);
    });

    it('finds the start of a UUID typed in capitals (UUIDs are kept in lowercase), but matches an opaque id as written', async () => {
      expect(await listIds({ q: '9E00FFFF' })).toEqual(['9e00ffff-0000-4000-8000-0000000000ab']);
      expect(await listIds({ q: '3F1C0A52-AAAA' })).toEqual([
        '3f1c0a52-aaaa-4bbb-8ccc-000000000001',
        '3f1c0a52-aaaa-4bbb-8ccc-000000000002',
      ]);
      await insert(row({ verificationId: 'Ver_AbC-1', name: 'Opaque Person' }));
      expect(await listIds({ q: 'Ver_AbC' })).toEqual(['Ver_AbC-1']);
      // Their case may tell two requests apart at another service.
      expect(await listIds({ q: 'VER_ABC' })).toEqual([]);
    });

    it('ignores case and accents on both sides: "elodie" finds "Élodie Martin", "ÉLODIE" finds "Elodie"', async () => {
      await insert(
        row({ verificationId: 'elodie-accented', name: 'Élodie Martin', createdAt: at(-8) }),
        row({ verificationId: 'elodie-plain', name: 'ELODIE ROUX', createdAt: at(-9) }),
        // Typed with a combining accent (e + U+0301), as some keyboards and pastes produce it.
        row({ verificationId: 'elodie-combining', name: 'E\u0301lodie Faure', createdAt: at(-10) }),
      );
      const everyElodie = ['elodie-accented', 'elodie-plain', 'elodie-combining'];
      expect(await listIds({ q: 'elodie' })).toEqual(everyElodie);
      expect(await listIds({ q: 'Élodie' })).toEqual(everyElodie);
      expect(await listIds({ q: 'ÉLODIE M' })).toEqual(['elodie-accented']);
      expect(await listIds({ q: 'chloe' })).toEqual(['3f1c0a52-aaaa-4bbb-8ccc-000000000001']);
    });

    it.each([
      ['Łukasz Wąsowski', 'lukasz wasowski'],
      ['Søren Ørsted', 'soren orsted'],
      ['Đorđe Hadžić', 'dorde hadzic'],
      ['Jürgen Weiß', 'jurgen weiss'],
      ['Ægir Þórsson', 'aegir thorsson'],
      ['Nguyễn Thị Ánh', 'nguyen thi anh'],
      ['İlkay Gündoğan', 'ilkay gundogan'],
      ['Ｆｕｌｌ Ｗｉｄｔｈ', 'full width'],
    ])('folds %j so that %j finds it', async (name, term) => {
      await insert(row({ verificationId: 'folded', name }));
      expect(await listIds({ q: term })).toEqual(['folded']);
      expect(await listIds({ q: name })).toEqual(['folded']);
    });

    it('matches the identified name too, and no word across the two names', async () => {
      await insert(
        row({ verificationId: 'identified', name: 'J. Dupont', identifiedName: 'Jérôme Dupont', status: 'completed', createdAt: at(-8) }),
      );
      expect(await listIds({ q: 'jerome' })).toEqual(['identified']);
      expect(await listIds({ q: 'j. dupont' })).toEqual(['identified']);
      // Two words, each inside a name.
      expect(await listIds({ q: 'dupont jerome' })).toEqual(['identified']);
      // One word, the end of one name and the start of the other: no such name.
      expect(await listIds({ q: 'dupontjerome' })).toEqual([]);
      // The control characters a term may hold become spaces, which separate words: none reaches from one name into the other.
      expect(await listIds(registerFilterSchema.parse({ q: 'dupont\njérôme' }))).toEqual(['identified']);
      expect(await listIds(registerFilterSchema.parse({ q: 'pont\njérô' }))).toEqual(['identified']);
    });

    it('ignores spaces, hyphens and apostrophes: "desmet" finds "De Smet", "dhondt" finds "D’Hondt"', async () => {
      await insert(
        row({ verificationId: 'de-smet', name: 'Pieter De Smet', createdAt: at(-8) }),
        row({ verificationId: 'dhondt', name: 'Lies D’Hondt', createdAt: at(-9) }),
        row({ verificationId: 'obrien', name: "Sean O'Brien", createdAt: at(-10) }),
        row({ verificationId: 'marie-claire', name: 'Marie-Claire Vanden Broucke', createdAt: at(-11) }),
      );
      for (const q of ['desmet', 'De Smet', 'de-smet', 'DESMET', 'pieter desmet']) expect(await listIds({ q }), q).toEqual(['de-smet']);
      for (const q of ['dhondt', "d'hondt", 'D’Hondt', 'd hondt', 'lies dhondt']) expect(await listIds({ q }), q).toEqual(['dhondt']);
      for (const q of ['obrien', 'o’brien', "O'Brien"]) expect(await listIds({ q }), q).toEqual(['obrien']);
      for (const q of ['marieclaire', 'marie claire', 'Marie–Claire', 'vandenbroucke', 'vanden-broucke', 'broucke marie']) {
        expect(await listIds({ q }), q).toEqual(['marie-claire']);
      }
      expect(await listIds({ q: 'desmit' })).toEqual([]);
    });

    it('ignores word order: "verhaeghe joelle" finds "Joëlle Verhaeghe", and every word must match', async () => {
      await insert(
        row({ verificationId: 'joelle', name: 'Joëlle Verhaeghe', createdAt: at(-8) }),
        row({ verificationId: 'anna', name: 'Anna Verhaeghe', createdAt: at(-9) }),
      );
      expect(await listIds({ q: 'verhaeghe joelle' })).toEqual(['joelle']);
      expect(await listIds({ q: 'VERHAEGHE,  Joëlle' })).toEqual(['joelle']);
      expect(await listIds({ q: 'verhaeghe' })).toEqual(['joelle', 'anna']);
      expect(await listIds({ q: 'verhaeghe marie' })).toEqual([]);
      // A word's wildcard characters are still literal.
      expect(await listIds({ q: 'verhaeghe %' })).toEqual([]);
    });

    it('keeps the folded names current when the identified name arrives', async () => {
      await insert(row({ verificationId: 'later', name: 'Requested Only' }));
      expect(await listIds({ q: 'zoë' })).toEqual([]);
      const db = await getDb();
      await db
        .update(verificationRequests)
        .set({ identifiedName: 'Zoë Requested' })
        .where(eq(verificationRequests.verificationId, 'later'));
      expect(await listIds({ q: 'zoe' })).toEqual(['later']);
    });

    it('takes %, _ and \\ literally', async () => {
      expect(await listIds({ q: '%' })).toEqual(['pct']);
      expect(await listIds({ q: '100%' })).toEqual(['pct']);
      expect(await listIds({ q: '_' })).toEqual(['under']);
      expect(await listIds({ q: 'Ann_Marie' })).toEqual(['under']);
      expect(await listIds({ q: '\\' })).toEqual(['slash']);
      expect(await listIds({ q: 'k\\s' })).toEqual(['slash']);
      expect(escapeLike('a%b_c\\d')).toBe('a\\%b\\_c\\\\d');
    });

    it('takes LIKE characters literally after folding too: a full-width ％ or ＿ is not a wildcard', async () => {
      // Decomposition turns ％ into % and ＿ into _: folded first, they are escaped afterwards.
      expect(await listIds({ q: '％' })).toEqual(['pct']);
      expect(await listIds({ q: 'Ann＿Marie' })).toEqual(['under']);
      expect(await listIds({ q: 'Ánn_Märie' })).toEqual(['under']);
    });
  });

  describe('search by e-mail address or phone number, through their keyed hashes', () => {
    const joelle = { email: 'Joelle.Verhaeghe@Example.be', phonenumber: '+32470123456' };
    let region: string | undefined;

    beforeEach(async () => {
      // Numbers typed the Belgian way are read as Belgian ones; put back after each test.
      region = process.env.DEFAULT_PHONE_REGION;
      process.env.DEFAULT_PHONE_REGION = 'BE';
      resetEnv();
      await insert(
        row({
          verificationId: 'joelle',
          name: 'Joëlle Verhaeghe',
          contactDigests: await contactDigestsOfRequest(joelle),
          createdAt: at(-1),
        }),
        row({
          verificationId: 'joelle-again',
          name: 'J. Verhaeghe',
          contactDigests: await contactDigestsOfRequest({ email: 'joelle.verhaeghe@example.be' }),
          createdAt: at(-2),
        }),
        row({
          verificationId: 'other',
          name: 'Bram Peeters',
          contactDigests: await contactDigestsOfRequest({ email: 'bram@example.be', phonenumber: '+32470999999' }),
          createdAt: at(-3),
        }),
        // Whose name holds the address as text: a hash is looked up, not the names.
        row({ verificationId: 'named-like-it', name: 'joelle.verhaeghe@example.be', createdAt: at(-4) }),
      );
    });

    afterEach(() => {
      if (region === undefined) delete process.env.DEFAULT_PHONE_REGION;
      else process.env.DEFAULT_PHONE_REGION = region;
      resetEnv();
    });

    it('finds the requests made for an exact address, whatever its case', async () => {
      for (const q of ['joelle.verhaeghe@example.be', 'JOELLE.VERHAEGHE@EXAMPLE.BE', ' Joelle.Verhaeghe@example.BE ']) {
        expect(await listIds({ q }), q).toEqual(['joelle', 'joelle-again']);
      }
      // Not a part of it, nor another address.
      expect(await listIds({ q: 'joelle.verhaeghe@example.b' })).toEqual([]);
      expect(await listIds({ q: 'verhaeghe@example.be' })).toEqual([]);
    });

    it('finds the requests made for a number, typed nationally or in E.164', async () => {
      for (const q of ['0470 12 34 56', '0470/12.34.56', '+32470123456', '+32 470 12 34 56', '0032 470 12 34 56']) {
        expect(await listIds({ q }), q).toEqual(['joelle']);
      }
      expect(await listIds({ q: '0470 12 34 57' })).toEqual([]);
    });

    it('counts the quick views under an address search as the list finds it', async () => {
      expect(await countRegisterViews({ q: 'JOELLE.VERHAEGHE@example.be' }, { now: NOW })).toEqual({ expiring: 0, stuck: 0 });
      await (await getDb())
        .update(verificationRequests)
        .set({ accessExpiresAt: at(HOUR) })
        .where(eq(verificationRequests.verificationId, 'joelle'));
      expect(await countRegisterViews({ q: 'JOELLE.VERHAEGHE@example.be' }, { now: NOW })).toEqual({ expiring: 1, stuck: 0 });
    });

    it('finds nothing by hashes made with another secret', async () => {
      const otherKey = contactKeyFrom('another server’s secret, at least 32 characters long');
      await insert(
        row({
          verificationId: 'other-secret',
          name: 'Someone Else',
          contactDigests: contactsOfRequest(joelle, 'BE').map((contact) => contactDigest(otherKey, contact)),
        }),
      );
      expect(await listIds({ q: 'joelle.verhaeghe@example.be' })).toEqual(['joelle', 'joelle-again']);
      expect(await listIds({ q: '+32470123456' })).toEqual(['joelle']);
    });

    it('stores neither the address nor the number, only their keyed hashes', async () => {
      const [stored] = rowsOf<Record<string, unknown>>(
        await (await getDb()).execute(sql`select * from verification_requests where verification_id = 'joelle'`),
      );
      const text = JSON.stringify(stored).toLowerCase();
      for (const value of ['joelle.verhaeghe@example.be', 'example.be', '+32470123456', '32470123456', '470123456']) {
        expect(text).not.toContain(value);
      }
      const key = await getContactKey();
      expect(stored!.contact_digests).toEqual([
        contactDigest(key, { kind: 'email', value: 'joelle.verhaeghe@example.be' }),
        contactDigest(key, { kind: 'phone', value: '+32470123456' }),
      ]);
      // And a list never carries them to a page.
      expect(Object.keys((await list({ q: 'joelle' }))[0]!)).not.toContain('contactDigests');
    });
  });

  describe('views, against a fixed clock', () => {
    // Each row's fate: [id, status, created, expires, expiring?, stuck?]
    const cases: [string, string, Date, Date | null, boolean, boolean][] = [
      ['fresh', 'pending', at(-HOUR), at(7 * DAY - HOUR), false, false],
      ['expires-in-exactly-24h', 'pending', at(-6 * DAY), at(DAY), true, true],
      ['expires-in-24h-and-1ms', 'pending', at(-6 * DAY), at(DAY + 1), false, true],
      ['expires-in-1ms', 'pending', at(-7 * DAY), at(1), true, true],
      ['expires-exactly-now', 'pending', at(-7 * DAY), at(0), false, false],
      ['expired-1ms-ago', 'pending', at(-7 * DAY), at(-1), false, false],
      ['completed-expiring', 'completed', at(-6 * DAY), at(HOUR), false, false],
      ['failed-stuck-age', 'failed', at(-5 * DAY), at(2 * DAY), false, false],
      ['no-expiry-yet', 'pending', at(-5 * DAY), null, false, false],
      ['exactly-half', 'pending', at(-3 * DAY), at(3 * DAY), false, false],
      ['just-past-half', 'pending', at(-3 * DAY - 1), at(3 * DAY), false, true],
      ['just-before-half', 'pending', at(-3 * DAY + 1), at(3 * DAY), false, false],
      ['short-validity-stuck', 'pending', at(-2 * HOUR), at(HOUR), true, true],
    ];

    beforeEach(async () => {
      await insert(
        ...cases.map(([verificationId, status, createdAt, accessExpiresAt]) => row({ verificationId, status, createdAt, accessExpiresAt })),
      );
    });

    it('"expiring soon": pending, expiring within 24 hours and not yet, soonest first', async () => {
      expect(await listIds({ view: 'expiring' })).toEqual(['expires-in-1ms', 'short-validity-stuck', 'expires-in-exactly-24h']);
    });

    it('"stuck": pending past half its validity, not yet expired, newest first', async () => {
      expect(await listIds({ view: 'stuck' })).toEqual([
        'short-validity-stuck',
        'just-past-half',
        'expires-in-exactly-24h',
        'expires-in-24h-and-1ms',
        'expires-in-1ms',
      ]);
    });

    it('"all" shows every row', async () => {
      expect((await listIds({ view: 'all' })).sort()).toEqual(cases.map(([id]) => id).sort());
    });

    it('the UI predicates agree with the SQL on every boundary', async () => {
      const entries = await list({});
      expect(entries).toHaveLength(cases.length);
      for (const entry of entries) {
        const [, , , , expiring, stuck] = cases.find(([id]) => id === entry.verificationId)!;
        expect({ id: entry.verificationId, expiring: isExpiringSoon(entry, NOW), stuck: isStuck(entry, NOW) }).toEqual({
          id: entry.verificationId,
          expiring,
          stuck,
        });
      }
    });

    it('counts both views in one query, with the other filters applied', async () => {
      expect(await countRegisterViews({}, { now: NOW, staffId: ADA })).toEqual({ expiring: 3, stuck: 5 });
      expect(await countRegisterViews({ status: 'pending' }, { now: NOW })).toEqual({ expiring: 3, stuck: 5 });
      expect(await countRegisterViews({ status: 'completed' }, { now: NOW })).toEqual({ expiring: 0, stuck: 0 });
      expect(await countRegisterViews({ q: 'just' }, { now: NOW })).toEqual({ expiring: 0, stuck: 1 });
      expect(await countRegisterViews({ createdBy: 'mine' }, { now: NOW, staffId: OTTO })).toEqual({ expiring: 0, stuck: 0 });
      // The view itself does not narrow its own count.
      expect(await countRegisterViews({ view: 'expiring' }, { now: NOW })).toEqual({ expiring: 3, stuck: 5 });
    });

    it('moves with the clock', async () => {
      const later = new Date(NOW.getTime() + 2 * DAY);
      const expiring = ids(await listRegister({ view: 'expiring' }, { now: later }));
      // All three expire at the same instant: the newest comes first.
      expect(expiring).toEqual(['just-before-half', 'exactly-half', 'just-past-half']);
    });
  });

  it('combines filters', async () => {
    await insert(
      row({
        verificationId: 'match',
        name: 'Alice Martin',
        createdBy: ADA,
        purpose: 'Supplier check',
        createdAt: at(-6 * DAY),
        accessExpiresAt: at(HOUR),
      }),
      row({
        verificationId: 'other-creator',
        name: 'Alice Martin',
        createdBy: OTTO,
        purpose: 'Supplier check',
        createdAt: at(-6 * DAY),
        accessExpiresAt: at(HOUR),
      }),
      row({
        verificationId: 'other-name',
        name: 'Bob Martin',
        createdBy: ADA,
        purpose: 'Supplier check',
        createdAt: at(-6 * DAY),
        accessExpiresAt: at(HOUR),
      }),
      row({
        verificationId: 'predefined',
        name: 'Alice Martin',
        createdBy: ADA,
        purpose: 'legal_obligations',
        createdAt: at(-6 * DAY),
        accessExpiresAt: at(HOUR),
      }),
      row({
        verificationId: 'not-expiring',
        name: 'Alice Martin',
        createdBy: ADA,
        purpose: 'Supplier check',
        createdAt: at(-HOUR),
        accessExpiresAt: at(7 * DAY),
      }),
      row({
        verificationId: 'completed',
        name: 'Alice Martin',
        createdBy: ADA,
        purpose: 'Supplier check',
        status: 'completed',
        createdAt: at(-6 * DAY),
        accessExpiresAt: at(HOUR),
      }),
    );
    const base: RegisterFilter = { q: 'alice', createdBy: 'mine', purpose: 'custom' };
    expect(await listIds({ ...base, view: 'expiring' })).toEqual(['match']);
    expect(await listIds({ ...base, view: 'stuck' })).toEqual(['match']);
    expect((await listIds(base)).sort()).toEqual(['completed', 'match', 'not-expiring']);
    expect(await listIds({ ...base, status: 'completed' })).toEqual(['completed']);
    expect(await listIds({ ...base, status: 'completed', view: 'expiring' })).toEqual([]);
    const sixDaysAgo = at(-6 * DAY)
      .toISOString()
      .slice(0, 10);
    expect((await listIds({ ...base, from: sixDaysAgo, to: sixDaysAgo })).sort()).toEqual(['completed', 'match']);
    expect(await listIds({ ...base, status: 'pending', from: NOW.toISOString().slice(0, 10) })).toEqual(['not-expiring']);
    expect(await listIds({ q: 'martin', createdBy: OTTO, view: 'expiring' })).toEqual(['other-creator']);
  });

  it('refuses a filter that did not come through the schema', async () => {
    await expect(list({ status: 'approved' } as unknown as RegisterFilter)).rejects.toThrow();
  });
});
