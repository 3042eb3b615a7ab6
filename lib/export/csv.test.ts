// The CSV rules auditors rely on: RFC 4180 quoting, formula neutralisation, accents and the BOM.
import { describe, expect, it } from 'vitest';
import { BYTE_ORDER_MARK, csvCell, csvLine } from './csv';

describe('csvCell', () => {
  it.each([
    ['=HYPERLINK("http://evil.example","x")', `"'=HYPERLINK(""http://evil.example"",""x"")"`],
    ['+1+1', `"'+1+1"`],
    ['-2+3', `"'-2+3"`],
    ['@SUM(A1:A2)', `"'@SUM(A1:A2)"`],
    ['\t=1+1', `"'\t=1+1"`],
    ['\r=1+1', `"'\r=1+1"`],
  ])('neutralises a cell starting with %j: a leading quote, and the cell quoted', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it('leaves those characters alone when they are not first', () => {
    expect(csvCell('Jean-Luc')).toBe('Jean-Luc');
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('mail@example')).toBe('mail@example');
  });

  it('does not neutralise numbers: a negative number is not a formula', () => {
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(20000)).toBe('20000');
  });

  it('quotes cells with a comma, a quote or a line break, doubling the quotes (RFC 4180)', () => {
    expect(csvCell('Martin, Élodie')).toBe('"Martin, Élodie"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvCell('plain')).toBe('plain');
  });

  it('writes nothing for null and undefined, ISO 8601 UTC for a date, true/false for booleans', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(new Date('2030-06-15T12:00:00.123Z'))).toBe('2030-06-15T12:00:00.123Z');
    expect(csvCell(true)).toBe('true');
  });

  it('keeps accents and other scripts exactly, and UTF-8 encodes them', () => {
    const line = csvLine(['Élodie Müller-Łukasz', '王秀英', 'Søren']);
    expect(line).toBe('Élodie Müller-Łukasz,王秀英,Søren\r\n');
    expect(new TextDecoder().decode(new TextEncoder().encode(line))).toBe(line);
  });
});

describe('csvLine', () => {
  it('joins cells with commas and ends with CRLF', () => {
    expect(csvLine(['a', 1, null, '=x'])).toBe(`a,1,,"'=x"\r\n`);
  });
});

describe('BYTE_ORDER_MARK', () => {
  it('is EF BB BF in UTF-8', () => {
    expect([...new TextEncoder().encode(BYTE_ORDER_MARK)]).toEqual([0xef, 0xbb, 0xbf]);
  });
});

describe('with semicolons (spreadsheets set to French or Dutch)', () => {
  it('separates cells with semicolons and quotes a cell holding one, but not a comma', () => {
    expect(csvLine(['Martin, Élodie', 'a;b', 'plain', '=1+1'], ';')).toBe(`Martin, Élodie;"a;b";plain;"'=1+1"\r\n`);
  });
});
