// How the register's search ignores case and accents: one SQL expression folds both the stored
// names (a generated column, register-tables.ts) and the search term (the register's queries), so the
// two sides can never be folded differently. It is plain SQL that both stores have (PostgreSQL
// 13+ and PGlite): no unaccent or pg_trgm extension.
//
// Why decomposition rather than a translate() table of accented letters: Unicode's compatibility
// decomposition (NFKD) splits every precomposed Latin letter into its base letter and combining
// marks, whatever the language (é, ő, ș, ų, ỹ, the Vietnamese stacks), and also undoes full-width
// letters and ligatures such as ﬁ; removing the combining marks then leaves the bare letters.
// A hand-written table would miss letters nobody thought of. A few Latin letters are letters of
// their own rather than a letter with a mark (ø, ł, đ, ß, æ…) and do not decompose: staff still
// type them as their plain look-alikes, so they are mapped explicitly. Both cases are mapped
// before lower(), which a database in the C locale applies to ASCII letters only.
import { type SQL, sql } from 'drizzle-orm';

/** Letters that do not decompose, each to the plain letter staff type for it (same length). */
const STANDALONE_LETTERS = { from: 'ØøŁłĐđÐðĦħŦŧı', to: 'OoLlDdDdHhTti' } as const;

/** Letters that stand for two (a translate() cannot lengthen). */
const DIGRAPHS: ReadonlyArray<readonly [string, string]> = [
  ['ß', 'ss'],
  ['ẞ', 'SS'],
  ['Æ', 'AE'],
  ['æ', 'ae'],
  ['Œ', 'OE'],
  ['œ', 'oe'],
  ['Þ', 'TH'],
  ['þ', 'th'],
];

// The combining diacritical marks block: every mark that decomposing a Latin letter leaves.
const COMBINING_MARKS = '[\\u0300-\\u036f]';

/**
 * `value` in lowercase without accents: "Élodie Łukasz-Øster" → "elodie lukasz-oster". Every
 * function used is immutable, as a generated column requires.
 */
export function foldForSearch(value: SQL): SQL {
  let folded = sql`translate(regexp_replace(normalize(${value}, NFKD), '${sql.raw(COMBINING_MARKS)}', '', 'g'), '${sql.raw(STANDALONE_LETTERS.from)}', '${sql.raw(STANDALONE_LETTERS.to)}')`;
  for (const [letter, spelled] of DIGRAPHS) folded = sql`replace(${folded}, '${sql.raw(letter)}', '${sql.raw(spelled)}')`;
  return sql`lower(${folded})`;
}

/**
 * `value` with LIKE's own characters (`\`, `%`, `_`) taken literally. Applied after folding, as
 * decomposition can turn a full-width ％ or ＿ into the ASCII one.
 */
export function escapedForLike(value: SQL): SQL {
  return sql`replace(replace(replace(${value}, '\\', '\\\\'), '%', '\\%'), '_', '\\_')`;
}

// What a Belgian team leaves out or puts in when typing a name: "desmet" for "De Smet",
// "vandenbroucke" for "Vanden Broucke", "dhondt" for "D’Hondt", "marie claire" for "Marie-Claire".
// Spaces, hyphens (and the dashes a word processor makes of them) and apostrophes (straight,
// typographic, the modifier letter) are dropped on both sides, so none of them tells two names
// apart. Decomposition has already turned the no-break and full-width spaces into plain ones. A
// line break is kept: it separates the requested from the identified name.
const SEPARATORS = " -\u2010\u2011\u2012\u2013\u2014'\u2018\u2019\u02bc`";

/** `value` without the separators above, after folding: "d’hondt-de smet" → "dhondtdesmet". */
export function compactForSearch(value: SQL): SQL {
  // The straight apostrophe doubled, as an SQL string literal writes it.
  return sql`translate(${value}, '${sql.raw(SEPARATORS.replaceAll("'", "''"))}', '')`;
}

/**
 * The register's searchable names, for its generated column: the requested and the identified
 * name, folded and compacted, one per line. A search term never holds a line break (the register
 * filter turns control characters into spaces), so no word of a term can match across the two names.
 */
export function foldedRegisterNames(name: SQL, identifiedName: SQL): SQL {
  return compactForSearch(foldForSearch(sql`${name} || chr(10) || coalesce(${identifiedName}, '')`));
}
