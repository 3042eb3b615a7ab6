// The requested-versus-identified name check: what it forgives, and what it must not.
import { describe, expect, it } from 'vitest';
import { compareNames, nameParts, namesMatch } from './name-match';

describe('namesMatch', () => {
  const matches: [requested: string, identified: string, why: string][] = [
    ['John Smith', 'John Smith', 'identical'],
    ['john smith', 'JOHN SMITH', 'case'],
    ['  John   Smith ', 'John Smith', 'extra spaces'],
    ['John\tSmith', 'John\u00a0Smith', 'tab and no-break space'],
    ['Jose Garcia', 'José García', 'accents dropped by the operator'],
    ['CHLOÉ DUBOIS', 'Chloe Dubois', 'accents dropped by the document'],
    ['Zoë Ñúñez', 'zoe nunez', 'diaeresis and tilde'],
    ['Nguyễn Văn Đức', 'Nguyen Van Duc', 'stacked Vietnamese marks and đ'],
    ['Søren Kierkegaard', 'Soren Kierkegaard', 'ø, which does not decompose'],
    ['Jürgen Weiß', 'Jurgen Weiss', 'ß folds to ss'],
    ['Łukasz Wałęsa', 'Lukasz Walesa', 'ł'],
    ['İlkay Gündoğan', 'ilkay gundogan', 'Turkish dotted capital I'],
    ['Jean-Pierre Martin', 'Jean Pierre Martin', 'hyphen versus space'],
    ['Jean–Pierre Martin', 'JEAN-PIERRE MARTIN', 'en dash versus hyphen'],
    ['Jeanpierre Martin', 'Jean-Pierre Martin', 'hyphen versus nothing'],
    ["Siobhan O'Brien", 'Siobhan OBrien', 'apostrophe dropped'],
    ['Siobhan O’Brien', "SIOBHAN O'BRIEN", 'typographic apostrophe'],
    ['Ronald Mc Donald', 'Ronald McDonald', 'a name part written in two'],
    ['Smith John', 'John Smith', 'word order'],
    ['Garcia Lopez Maria', 'María García López', 'word order and accents'],
    ['J. Smith', 'John Smith', 'initial with a dot'],
    ['J Smith', 'John Smith', 'initial without a dot'],
    ['John Smith', 'J. Smith', 'the initial on the document side'],
    ['J.M. Smith', 'John Michael Smith', 'two initials run together'],
    ['Smith, J.', 'John Smith', 'surname first with a comma'],
    ['Ｊｏｈｎ Ｓｍｉｔｈ', 'John Smith', 'full-width letters'],
    ['Андрей Иванов', 'андрей иванов', 'Cyrillic, case only'],
    ['А. Пушкин', 'Александр Пушкин', 'a Cyrillic initial'],
    ['ΟΔΥΣΣΕΑΣ ΠΑΠΑΔΟΠΟΥΛΟΣ', 'Οδυσσεασ Παπαδοπουλοσ', 'Greek case, final sigma'],
    ['李明', '李明', 'Han, identical'],
    ['山田 太郎', '太郎 山田', 'Japanese, word order'],
  ];

  it.each(matches)('%s ~ %s (%s)', (requested, identified) => {
    expect(namesMatch(requested, identified)).toBe('match');
  });

  const mismatches: [requested: string, identified: string, why: string][] = [
    ['Jane Smith', 'John Smith', 'a different first name'],
    ['John Smith', 'John Smyth', 'a different surname'],
    ['J. Smith', 'Jane Doe', 'an initial does not rescue a different surname'],
    ['K. Smith', 'John Smith', 'a different initial'],
    ['J. S.', 'John Smith', 'initials alone'],
    ['John Smith', 'John Michael Smith', 'a middle name only on the document'],
    ['John Michael Smith', 'John Smith', 'a middle name only in the request'],
    ['Smith', 'John Smith', 'surname alone'],
    ['John Smith', 'John Smith Smith', 'a repeated part counts'],
    ['Jo Smith', 'John Smith', 'two letters are not an initial'],
    ['Андрей', 'Андреи', 'Cyrillic й is a letter, not и with an accent'],
    ['Иванов', 'Ivanov', 'transliteration is not checked'],
    ['がく', 'かく', 'kana voicing marks are letters'],
    ['कमल', 'कमला', 'Devanagari vowel sign'],
    ['مُحَمَّد', 'محمد', 'Arabic vowel marks are kept'],
    ['李明', '李明华', 'Han, one more character'],
    ['李 明', '李 华', 'a one-character Han part is not an initial'],
    ['Νίκος', 'Νικος', 'Greek tonos is kept'],
  ];

  it.each(mismatches)('%s ≠ %s (%s)', (requested, identified) => {
    expect(namesMatch(requested, identified)).toBe('mismatch');
  });

  it.each([
    ['', 'John Smith'],
    ['John Smith', ''],
    ['   ', 'John Smith'],
    ['John Smith', ' \t\n '],
    ['', ''],
    ['- . ,', '—'],
  ])('empty or punctuation-only input (%j, %j) is never a match', (requested, identified) => {
    expect(compareNames(requested, identified)).toMatchObject({ result: 'mismatch', reason: 'No name to compare' });
  });
});

describe('compareNames reasons', () => {
  it.each([
    ['John Smith', 'John Smith', 'match', 'Names are identical'],
    ['John  Smith ', 'John Smith', 'match', 'Names are identical'],
    ['jose garcia', 'JOSÉ GARCÍA', 'match', 'Same name, ignoring case, accents and punctuation'],
    ['Smith John', 'John Smith', 'match', 'Same names in a different order'],
    ['J. Smith', 'John Smith', 'match', 'Same name, with initials'],
    ['Jeanpierre Martin', 'Jean-Pierre Martin', 'match', 'Same name, written with different spacing or hyphens'],
    ['Jane Smith', 'John Smith', 'mismatch', 'Requested “Jane”, identified “John”'],
    ['John Michael Smith', 'John Smith', 'mismatch', '“Michael” is not in the identified name'],
    ['John Smith', 'John Michael Smith', 'mismatch', 'The identified name adds “Michael”'],
    ['J. S.', 'John Smith', 'mismatch', 'Only initials agree'],
    ['Иванов', 'Ivanov', 'mismatch', 'Written in different scripts'],
  ])('%s vs %s → %s: %s', (requested, identified, result, reason) => {
    expect(compareNames(requested, identified)).toMatchObject({ result, reason });
  });

  it('quotes the differing words as they were written, not lower-cased or stripped of accents', () => {
    expect(compareNames('Élodie Martin', 'ÉLISE MARTIN').reason).toBe('Requested “Élodie”, identified “ÉLISE”');
    expect(compareNames("Seán O'Brien", "Seán O'Brien-Ó Dónaill").reason).toBe('The identified name adds “Ó Dónaill”');
    expect(compareNames('Anna Maria Nowak', 'ANNA NOWAK').reason).toBe('“Maria” is not in the identified name');
  });

  it('is symmetric in its verdict', () => {
    const pairs = [
      ['J. Smith', 'John Smith'],
      ['Jane Smith', 'John Smith'],
      ['John Smith', 'John Michael Smith'],
      ['Jean Pierre', 'Jeanpierre'],
      ['Андрей', 'Андреи'],
    ] as const;
    for (const [a, b] of pairs) expect(namesMatch(a, b)).toBe(namesMatch(b, a));
  });
});

describe('nameParts', () => {
  it('splits on spaces and punctuation, folds case and Latin accents, drops apostrophes', () => {
    expect(nameParts("  Zoë  d'Arc-Hélène, JR. ")).toEqual(['zoe', 'darc', 'helene', 'jr']);
  });

  it('keeps marks on non-Latin letters', () => {
    expect(nameParts('Андрей')).toEqual(['андрей']);
    expect(nameParts('がく')[0]!.normalize('NFD')).toContain('\u3099');
  });

  it('treats markup as plain text', () => {
    expect(nameParts('<script>alert(1)</script>')).toEqual(['script', 'alert', '1', 'script']);
  });
});

describe('compareNames: the reason as a code, for pages to say in the reader’s language', () => {
  it('carries the differing words as written', () => {
    expect(compareNames('Jane Smith', 'JOHN Smith').why).toEqual({ code: 'differs', requested: 'Jane', identified: 'JOHN' });
    expect(compareNames('John Michael Smith', 'John Smith').why).toEqual({ code: 'missing', requested: 'Michael' });
    expect(compareNames('John Smith', 'John Michael Smith').why).toEqual({ code: 'adds', identified: 'Michael' });
    expect(compareNames('Иванов', 'Ivanov').why).toEqual({ code: 'differentScripts' });
  });
});
