// The data-scale phase's SQL (figures/data-scale.mjs): it grows the register and the audit trail
// the way years of real use would, in the database itself (generate_series, one statement per
// chunk of rows), on the real schema the server's migrations made. Plain SQL both stores run.
//
// What real use looks like here: names with accents from many languages, a few of them common and
// most rare (a skewed pick from each list); a year of creation dates; every status with the fields
// that go with it (a pending request's link still works, a completed one has an identified name
// that sometimes differs, an expired or failed one has neither); requests spread unevenly over a
// few staff; three audit entries per request (created, viewed, then its status change or a copied
// link), ids and codes only, as lib/audit writes them. Expired requests older than six months are
// past their kept_until, so the next retention run has a large share of the register to purge.
// Staff have decided on the names that differ, all but those of the last two weeks (a team works
// its review queue; it does not let years of it pile up). A chunk's rows are written in the order
// of their creation, as a register grows, so the recent ones lie together at the chunk's end
// rather than one per page of the whole table.

/** Rows added per statement: large enough to be fast, small enough to report progress. */
export const FILL_CHUNK = 100_000;

/** The staff the rows are spread over, besides the bench's operator (ids only in the register). */
export const BENCH_STAFF_IDS = ['bench-staff-1', 'bench-staff-2', 'bench-staff-3', 'bench-staff-4'];

/** A search term that finds common names ("Dubois", "Dubost", "Dubourg"). */
export const SEARCH_WITH_HITS = 'dubo';
/** A search term no generated name contains. */
export const SEARCH_WITHOUT_HIT = 'qzxwv';

const FIRST_NAMES = [
  'Marie',
  'Jan',
  'Élodie',
  'Łukasz',
  'Sophie',
  'Pieter',
  'Zoë',
  'François',
  'Anaïs',
  'Jürgen',
  'Søren',
  'Małgorzata',
  'Thomas',
  'Inès',
  'Björn',
  'Ana',
  'José',
  'Chloé',
  'Mehmet',
  'Ayşe',
  'Nguyễn',
  'Siobhán',
  'Raphaël',
  'Noémie',
  'Ewa',
  'Grzegorz',
  'Håkon',
  'Dóra',
  'Ștefan',
  'Žofia',
  'Ingrid',
  'Lars',
  'Ömer',
  'Renée',
  'Benoît',
  'Maëlle',
];
// Common first, so the skewed pick makes the first ones frequent and the last ones rare.
const LAST_NAMES = [
  'Dubois',
  'Peeters',
  'Müller',
  'Janssens',
  'Martin',
  'Nowak',
  'Van den Bossche',
  'Maes',
  'Lefèvre',
  'García',
  'Dubost',
  'Kowalski',
  'De Smet',
  'Schröder',
  'Łukaszewicz',
  'Fernández',
  'Dubourg',
  'Øvergaard',
  'Yılmaz',
  'Ó Briain',
  'Vermeulen',
  'Brontë',
  'Dvořák',
  'Nuñez',
  'Kovačević',
  'Straßer',
  'Ängström',
  'Lindqvist',
  'Çelik',
  'Petőfi',
  'Van der Meer-Goossens',
  "D'Hondt",
  'Mäkinen',
  'Ðorđević',
  'Sørensen',
  'Wójcik-Zięba',
  'Phạm',
  'Åberg',
  'Ibáñez',
  'Œhlenschläger',
];

const literal = (text) => `'${text.replaceAll("'", "''")}'`;
const textArray = (values) => `array[${values.map(literal).join(', ')}]::text[]`;

/** The staff the generated requests are spread over (the operator signed in by the bench is one). */
export function staffSql() {
  const rows = BENCH_STAFF_IDS.map(
    (id, i) => `(${literal(id)}, ${literal(`Bench Staff ${i + 1}`)}, ${literal(`${id}@example.com`)}, 'operator')`,
  );
  return `insert into staff_users (id, name, email, role) values ${rows.join(', ')} on conflict (id) do nothing`;
}

/**
 * One statement adding the register rows numbered `from` + 1 … `to` of this run (`tag` keeps
 * their ids apart from any other run's) and three audit entries for each.
 */
export function fillChunkSql({ tag, from, to }) {
  return `
with lists as (
  select ${textArray(FIRST_NAMES)} as firsts, ${textArray(LAST_NAMES)} as lasts,
    (select array_agg(id order by id) from staff_users) as staff
),
drawn as (
  select g, random() as age, random() as fate, random() as mismatch, random() as who, random() as fa, random() as la,
    random() as channel, random() as kept, random() as took, random() as pick
  from generate_series(${from + 1}, ${to}) as g
),
shaped as (
  select d.*,
    -- A skewed pick: powers of a uniform draw make the head of each list common and its tail rare.
    -- A quarter of the people have two family names, which makes most of those combinations rare.
    l.firsts[1 + floor(power(d.fa, 2) * cardinality(l.firsts))::int] || ' ' ||
      l.lasts[1 + floor(power(d.la, 1.6) * cardinality(l.lasts))::int] ||
      case when d.kept < 0.25 then '-' || l.lasts[1 + floor(d.mismatch * cardinality(l.lasts))::int] else '' end as person,
    l.staff[1 + floor(power(d.who, 1.5) * cardinality(l.staff))::int] as creator,
    now() - d.age * interval '365 days' as created,
    case
      when d.age * 365 < 7 then case when d.fate < 0.85 then 'pending' when d.fate < 0.95 then 'completed' else 'failed' end
      else case when d.fate < 0.62 then 'completed' when d.fate < 0.92 then 'expired' else 'failed' end
    end as state
  from drawn d cross join lists l
),
registered as (
  insert into verification_requests (verification_id, name, purpose, language, shareable_link, email_notification,
    sms_notification, link, status, identified_name, name_mismatch, access_expires_at, kept_until, created_by, created_at, refreshed_at,
    completed_at, method, failure_reason, assigned_to, assigned_at, contact_digests)
  select md5(${literal(tag)} || g)::uuid::text, person,
    (array['legal_obligations', 'processing_gdpr_request', 'ensuring_compliance', 'Customer due diligence'])[1 + floor(fate * 97)::int % 4],
    (array['en', 'fr', 'nl', 'en', 'de'])[1 + floor(channel * 5)::int],
    channel < 0.6, channel >= 0.3, channel < 0.15,
    case when state = 'pending' and channel < 0.6 then 'https://verify.example.com/v/' || md5('link' || g) end,
    state,
    case when state = 'completed' then case when mismatch < 0.04 then person || 'a' else person end end,
    case when state = 'completed' then mismatch < 0.04 end,
    created + interval '7 days',
    case
      when state = 'expired' and age > 0.5 then now() - interval '1 hour' - kept * interval '30 days'
      else created + interval '400 days'
    end,
    creator, created,
    case when state <> 'pending' then created + fate * interval '7 days' end,
    -- Most people verify within hours, some take days: a long tail for the overview's p90.
    case when state = 'completed' then created + power(took, 3) * interval '6 days' end,
    case when state = 'completed' then (array['id_card', 'id_card', 'passport', 'drivers_license'])[1 + floor(pick * 4)::int] end,
    case when state = 'failed' then
      (array['Document expired', 'Person declined', 'Document unreadable', 'Name mismatch', 'Other reason'])[1 + floor(power(pick, 1.5) * 5)::int]
    end,
    -- Someone is on a third of what is still open or went wrong this month; older items lie unclaimed.
    case when (state = 'pending' or (state = 'failed' and age * 365 < 30)) and took < 0.33 then creator end,
    case when (state = 'pending' or (state = 'failed' and age * 365 < 30)) and took < 0.33 then created + interval '1 hour' end,
    -- The keyed hashes of an e-mail address (and of a phone number when texted): their size, not their value.
    case when channel >= 0.3 then array[encode(sha256(('mail' || g)::bytea), 'base64')] else '{}'::text[] end
      || case when channel < 0.15 then array[encode(sha256(('tel' || g)::bytea), 'base64')] else '{}'::text[] end
  from shaped
  order by created
  returning verification_id, created_at, created_by, status, access_expires_at, name_mismatch
),
reviewed as (
  insert into name_reviews (verification_id, decision, note, decided_by, decided_at)
  select verification_id, case when random() < 0.9 then 'same_person' else 'different_person' end,
    'Checked against the identity document.', created_by, created_at + interval '2 days'
  from registered
  where name_mismatch and created_at < now() - interval '14 days'
)
insert into audit_entries (at, actor_id, action, target_type, target_id, details)
select
  case k
    when 1 then r.created_at
    when 2 then r.created_at + random() * interval '2 hours'
    else case when r.status = 'expired' then r.access_expires_at
      when r.status = 'pending' then r.created_at + random() * interval '1 hour'
      else r.created_at + random() * interval '6 days' end
  end,
  case when k = 3 and r.status <> 'pending' then null else r.created_by end,
  case k when 1 then 'verification.created' when 2 then 'verification.viewed'
    else case when r.status = 'pending' then 'link.copied' else 'verification.status_changed' end end,
  'verification', r.verification_id,
  case when k = 3 and r.status <> 'pending' then jsonb_build_object('status', r.status, 'previous', 'pending') end
from registered r cross join generate_series(1, 3) as k`;
}

/** `count` entries in one request's history (its detail page's timeline): views and copied links. */
export function timelineSql(verificationId, count) {
  return `
insert into audit_entries (at, actor_id, action, target_type, target_id)
select now() - g * interval '1 minute',
  (select array_agg(id order by id) from staff_users)[1 + g % (select count(*)::int from staff_users)],
  case when g % 10 = 0 then 'link.copied' else 'verification.viewed' end,
  'verification', ${literal(verificationId)}
from generate_series(1, ${count}) as g`;
}

/**
 * What the planner and the visibility map would know on a database that grew over years (one
 * statement each: VACUUM cannot share a transaction).
 */
export const SETTLE_STATEMENTS = [{ sql: 'vacuum analyze verification_requests' }, { sql: 'vacuum analyze audit_entries' }];

export const COUNT_SQL =
  'select (select count(*)::int from verification_requests) as requests, (select count(*)::int from audit_entries) as audit';

/** The register's and the audit trail's page size (REGISTER_PAGE_SIZE, listAuditPage's default). */
const LIST_PAGE_SIZE = 100;

const CURSOR_TIME = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

/**
 * The probes' parameters: the deep pages' keyset cursors, and a request id for the audit filter.
 * A deep page is the list's last full page: the cursor is the row LIST_PAGE_SIZE + 1 from the end
 * of each list's order (`<time>~<id>`, times in UTC with microseconds), so the page after it holds
 * a whole page at every size. (A cursor at a fixed share of the list, say 99%, left 10 rows at 1k
 * and 100 at 20k: the ratio then measured rendering ten times the rows, not reaching them.)
 */
export const PROBE_PARAMS_SQL = `
select
  (select to_char(created_at at time zone 'UTC', ${CURSOR_TIME}) || '~' || verification_id from verification_requests
    order by created_at desc, verification_id desc
    offset (select greatest(count(*) - ${LIST_PAGE_SIZE + 1}, 0)::int from verification_requests) limit 1) as register_cursor,
  (select to_char(at at time zone 'UTC', ${CURSOR_TIME}) || '~' || id from audit_entries
    order by at desc, id desc
    offset (select greatest(count(*) - ${LIST_PAGE_SIZE + 1}, 0)::int from audit_entries) limit 1) as audit_cursor,
  (select verification_id from verification_requests order by created_at desc, verification_id desc
    offset (select floor(count(*) / 2)::int from verification_requests) limit 1) as middle_id,
  (select count(*)::int from verification_requests where kept_until <= now()) as due_for_purge`;

export const RETENTION_JOB = 'retention purge';

/** Makes the retention job due `inSeconds` from now (0: now), for whichever instance looks next. */
export const scheduleRetentionSql = (inSeconds) =>
  `update job_leases set next_run_at = now() + interval '${Number(inSeconds)} seconds' where name = ${literal(RETENTION_JOB)}`;

/** The retention job's last run, as epoch milliseconds. */
export const RETENTION_RUN_SQL = `
select extract(epoch from last_started_at) * 1000 as started_ms, extract(epoch from last_finished_at) * 1000 as finished_ms,
  leased_until is not null as running
from job_leases where name = ${literal(RETENTION_JOB)}`;
