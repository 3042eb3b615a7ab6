import { describe, expect, it } from 'vitest';
import { parseLookupInput } from './lookup-input';

const UUID = '3f1c0a52-9b7e-4c1d-8a2f-0123456789ab';

describe('parseLookupInput', () => {
  it.each([
    ['an id', UUID],
    ['an id with spaces around it', `   ${UUID}  `],
    ['an id with a line break after it (pasted from a message)', `${UUID}\n`],
    ['an id in capitals', UUID.toUpperCase()],
    ['a detail page address', `https://desk.example.com/verifications/${UUID}`],
    ['a detail page address with spaces around it', `  http://localhost:3000/verifications/${UUID}  `],
    ['an address with a trailing slash', `https://desk.example.com/verifications/${UUID}/`],
    ['an address with a query and a fragment', `https://desk.example.com/verifications/${UUID}?tab=1#timeline`],
    ['an address with a trailing slash and a query', `https://desk.example.com/verifications/${UUID}/?from=register`],
    ['an address under a base path', `https://example.com/desk/verifications/${UUID}`],
    ['an address in capitals', `HTTPS://DESK.EXAMPLE.COM/verifications/${UUID.toUpperCase()}`],
    ['a path alone', `/verifications/${UUID}`],
  ])('opens the id from %s', (_, input) => {
    expect(parseLookupInput(input)).toEqual({ id: UUID });
  });

  it('decodes an opaque id the page wrote percent-encoded, and keeps its case', () => {
    expect(parseLookupInput('https://desk.example.com/verifications/Ver%20A%C3%84')).toEqual({ id: 'Ver AÄ' });
    expect(parseLookupInput('  Ver_AbC ')).toEqual({ id: 'Ver_AbC' });
  });

  it.each([
    ['nothing', '   ', /Enter the verification id/],
    ['a path that is no detail page', '/verifications/new', /not a verification’s page/],
    ['another path', '/audit?target=abc', /not a verification’s page/],
    ['a badly encoded address', 'https://desk.example.com/verifications/%E0%A4%A', /not a verification’s page/],
    ['an id with a slash', 'abc/def', /not a verification id/],
    ['an overlong id', 'x'.repeat(201), /too long/],
  ])('refuses %s with a message saying what to paste', (_, input, message) => {
    const parsed = parseLookupInput(input);
    expect('error' in parsed && parsed.error).toMatch(message);
  });

  it.each([
    ['a person’s link', '  https://svc.example/sandbox/verify/tok_123?lang=nl  ', 'https://svc.example/sandbox/verify/tok_123?lang=nl'],
    ['the register', 'https://desk.example.com/', 'https://desk.example.com/'],
    ['the create page', 'https://desk.example.com/verifications/new', 'https://desk.example.com/verifications/new'],
  ])('leaves %s, a web address that is no detail page, to the register', (_, input, link) => {
    expect(parseLookupInput(input)).toEqual({ link });
  });
});
