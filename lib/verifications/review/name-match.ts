// Does the name read from the identity document fit the name the request was made for? Staff
// type names the way people say them ("Jose Garcia", "J. Smith", "Jean Pierre"); documents
// print them the official way ("JOSÉ GARCÍA", "John Smith", "Jean-Pierre"). This tells those
// harmless differences apart from a different person, and says why in a few words for the UI.
//
// Decisions, each erring towards "mismatch" (a flag only asks a human to look; a wrong "match"
// hides a problem):
// - Case, accents on Latin letters, hyphens, apostrophes, dots and extra spaces are ignored.
// - Word order is ignored ("Smith John" = "John Smith"): documents and forms disagree on it.
// - A one-letter part is an initial and matches any part starting with that letter, as long as
//   at least one full part is the same on both sides ("J. Smith" = "John Smith", but
//   "J. S." ≠ "John Smith", and "Jane Smith" ≠ "John Smith").
// - Every part must be accounted for: a middle name present on one side only is a mismatch.
// - Marks are stripped only from Latin letters. In other scripts a combining mark is part of
//   the letter (Cyrillic й/и, kana が/か, Devanagari vowel signs), so those stay strict.
// No server imports: pure, usable anywhere.

export type NameMatch = 'match' | 'mismatch';
/** Why, as a code with the words that differ as written: pages say it in the reader's language (detail.mismatch.reasons). */
export type NameReason =
  | {
      code:
        | 'noName'
        | 'identical'
        | 'sameIgnoringCase'
        | 'spacing'
        | 'onlyInitials'
        | 'withInitials'
        | 'differentOrder'
        | 'differentScripts';
    }
  | { code: 'differs'; requested: string; identified: string }
  | { code: 'missing'; requested: string }
  | { code: 'adds'; identified: string };
/** `reason` is the English sentence (the register's tooltip); `why` is the same reason as a code. */
export type NameComparison = { result: NameMatch; reason: string; why: NameReason };

// Deleted rather than turned into a space: documents write "O'Brien" as OBRIEN as often as not.
const APOSTROPHES = /['\u2018\u2019\u02bc\u02b9\u0060\u00b4\u2032]/g;

// Latin letters that do not decompose into a base letter plus a mark, folded the way a
// machine-readable zone (ICAO 9303) transliterates them; final sigma is Greek case folding.
const LETTER_FOLDS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
  ς: 'σ',
};
const FOLDABLE = new RegExp(`[${Object.keys(LETTER_FOLDS).join('')}]`, 'gu');

/** The comparable parts of a name: lower case, Latin accents gone, split on spaces and punctuation. */
export function nameParts(name: string): string[] {
  return (
    name
      .replace(APOSTROPHES, '')
      // Compatibility forms (full-width letters, ligatures, no-break spaces) become plain ones.
      .normalize('NFKC')
      .toLowerCase()
      .normalize('NFD')
      .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
      .replace(FOLDABLE, (c) => LETTER_FOLDS[c] ?? c)
      .normalize('NFC')
      .replace(/[\p{P}\p{S}\p{Z}\p{Cc}\s]+/gu, ' ')
      .split(' ')
      .filter(Boolean)
  );
}

/** One letter of a script that has case: a Latin or Cyrillic initial, not a one-character Han name part. */
function isInitial(part: string): boolean {
  return [...part].length === 1 && part !== part.toUpperCase();
}

const SCRIPTS = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Armenian',
  'Georgian',
  'Hebrew',
  'Arabic',
  'Devanagari',
  'Thai',
  'Hangul',
  'Hiragana',
  'Katakana',
  'Han',
];
const SCRIPT_PATTERNS = SCRIPTS.map((script) => [script, new RegExp(`\\p{Script=${script}}`, 'u')] as const);

function scriptsOf(parts: string[]): Set<string> {
  const found = new Set<string>();
  for (const part of parts) for (const [script, pattern] of SCRIPT_PATTERNS) if (pattern.test(part)) found.add(script);
  return found;
}

/** A comparable part of a name, with the word as it was written (for the reasons shown to staff). */
type Word = { part: string; spelled: string };

// What separates the words of a name as written: the separators nameParts splits on, except the
// apostrophes it deletes (so "O'Brien" stays one word, as it is one part).
const WORD_SEPARATORS = new RegExp(`(?:(?!${APOSTROPHES.source})[\\p{P}\\p{S}\\p{Z}\\p{Cc}\\s])+`, 'u');

/** The parts of a name, each with its original spelling. */
function wordsOf(name: string): Word[] {
  const parts = nameParts(name);
  const words: Word[] = [];
  for (const token of name.split(WORD_SEPARATORS)) {
    for (const part of nameParts(token)) words.push({ part, spelled: nameParts(token).length === 1 ? token : part });
  }
  // The comparison must see exactly nameParts(name); should splitting word by word ever differ
  // (a compatibility character that folds into a separator), the parts speak for themselves.
  if (words.map((w) => w.part).join(' ') !== parts.join(' ')) return parts.map((part) => ({ part, spelled: part }));
  return words;
}

const partsOf = (words: Word[]) => words.map((w) => w.part);
// The words as the person typed or the document printed them: staff compare spellings, and a
// lower-cased "josé" is neither.
const spelled = (words: Word[]) => words.map((w) => w.spelled).join(' ');
const quote = (words: Word[]) => `“${spelled(words)}”`;
const match = (reason: string, why: NameReason): NameComparison => ({ result: 'match', reason, why });
const mismatch = (reason: string, why: NameReason): NameComparison => ({ result: 'mismatch', reason, why });

/** Removes from `initials` each initial that a full part of `full` starts with, and that part. */
function pairInitials(initials: Word[], full: Word[]): number {
  let paired = 0;
  for (const word of [...initials]) {
    if (!isInitial(word.part)) continue;
    const index = full.findIndex((candidate) => !isInitial(candidate.part) && candidate.part.startsWith(word.part));
    if (index < 0) continue;
    full.splice(index, 1);
    initials.splice(initials.indexOf(word), 1);
    paired += 1;
  }
  return paired;
}

export function compareNames(requested: string, identified: string): NameComparison {
  const asked = wordsOf(requested);
  const found = wordsOf(identified);
  if (asked.length === 0 || found.length === 0) return mismatch('No name to compare', { code: 'noName' });

  if (partsOf(asked).join(' ') === partsOf(found).join(' ')) {
    const typedAlike = requested.trim().replace(/\s+/g, ' ') === identified.trim().replace(/\s+/g, ' ');
    return typedAlike
      ? match('Names are identical', { code: 'identical' })
      : match('Same name, ignoring case, accents and punctuation', { code: 'sameIgnoringCase' });
  }

  // Parts present on both sides, whatever their order.
  const restAsked = [...asked];
  const restFound: Word[] = [];
  let sameFullParts = 0;
  for (const word of found) {
    const index = restAsked.findIndex((candidate) => candidate.part === word.part);
    if (index < 0) {
      restFound.push(word);
      continue;
    }
    restAsked.splice(index, 1);
    if (!isInitial(word.part)) sameFullParts += 1;
  }

  // "Jean Pierre" / "Jeanpierre", "Mc Donald" / "McDonald": the rest only splits differently.
  if (restAsked.length > 0 && partsOf(restAsked).join('') === partsOf(restFound).join('')) {
    return match('Same name, written with different spacing or hyphens', { code: 'spacing' });
  }

  const initials = pairInitials(restAsked, restFound) + pairInitials(restFound, restAsked);
  if (restAsked.length === 0 && restFound.length === 0) {
    if (sameFullParts === 0) return mismatch('Only initials agree', { code: 'onlyInitials' });
    return initials > 0
      ? match('Same name, with initials', { code: 'withInitials' })
      : match('Same names in a different order', { code: 'differentOrder' });
  }

  const askedScripts = scriptsOf(partsOf(asked));
  const foundScripts = scriptsOf(partsOf(found));
  if (askedScripts.size > 0 && foundScripts.size > 0 && ![...askedScripts].some((s) => foundScripts.has(s))) {
    return mismatch('Written in different scripts', { code: 'differentScripts' });
  }
  if (restAsked.length > 0 && restFound.length > 0) {
    return mismatch(`Requested ${quote(restAsked)}, identified ${quote(restFound)}`, {
      code: 'differs',
      requested: spelled(restAsked),
      identified: spelled(restFound),
    });
  }
  if (restAsked.length > 0)
    return mismatch(`${quote(restAsked)} is not in the identified name`, { code: 'missing', requested: spelled(restAsked) });
  return mismatch(`The identified name adds ${quote(restFound)}`, { code: 'adds', identified: spelled(restFound) });
}

/** 'match' when the identified name fits the requested one (see the rules above). */
export function namesMatch(requested: string, identified: string): NameMatch {
  return compareNames(requested, identified).result;
}
