// Pasting the person's link into "Look up" opens its request: the register finds whose link it
// is (on both stores), and an address that is nobody's says so.
import { describe, expect, it } from 'vitest';
import { insert, row, setUpRegisterDatabase } from '@/test/support/register';
import { resolveLookup } from './lookup.server';

setUpRegisterDatabase();

describe('resolveLookup', () => {
  it('opens the request whose shareable link was pasted, spaces around it or not', async () => {
    await insert(
      row({ verificationId: 'req-a', link: 'https://svc.example/sandbox/verify/tok_a' }),
      row({ verificationId: 'req-b', link: 'https://svc.example/sandbox/verify/tok_b' }),
      row({ verificationId: 'no-link', link: null }),
    );
    expect(await resolveLookup('https://svc.example/sandbox/verify/tok_b')).toEqual({ id: 'req-b' });
    expect(await resolveLookup('  https://svc.example/sandbox/verify/tok_a\n')).toEqual({ id: 'req-a' });
  });

  it('says that no request has a link the register does not hold, even one that starts like it', async () => {
    await insert(row({ verificationId: 'req-a', link: 'https://svc.example/sandbox/verify/tok_a' }));
    expect(await resolveLookup('https://svc.example/sandbox/verify/tok_')).toEqual({ problem: 'unknownLink' });
    expect(await resolveLookup('https://desk.example.com/')).toEqual({ problem: 'unknownLink' });
  });

  it('still opens an id or a detail page’s address, and refuses what is neither', async () => {
    expect(await resolveLookup(' req-a ')).toEqual({ id: 'req-a' });
    expect(await resolveLookup('https://desk.example.com/verifications/req-a')).toEqual({ id: 'req-a' });
    expect(await resolveLookup('abc/def')).toEqual({ problem: 'notAnId' });
  });
});
