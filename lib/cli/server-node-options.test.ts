import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs module (run by node before any build), without type declarations
import { serverNodeOptions } from './server-node-options.mjs';

describe('serverNodeOptions', () => {
  it('gives the server small semi-spaces and a capped old generation by default', () => {
    expect(serverNodeOptions()).toBe('--max-semi-space-size=8 --max-old-space-size=256');
  });

  it("keeps the operator's own options, and their values where they set the same flags", () => {
    expect(serverNodeOptions('--max-old-space-size=1024 --enable-source-maps')).toBe(
      '--max-old-space-size=1024 --enable-source-maps --max-semi-space-size=8',
    );
  });
});
