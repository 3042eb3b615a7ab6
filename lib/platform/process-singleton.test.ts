// One value per process and name, shared by every caller (as Next.js's separate bundles are).
import { describe, expect, it } from 'vitest';
import { processSingleton } from './process-singleton';

describe('processSingleton', () => {
  it('creates the value once and hands every caller the same one', () => {
    let created = 0;
    const make = () => {
      created += 1;
      return { n: created };
    };
    const first = processSingleton('test.shared', make);
    expect(processSingleton('test.shared', make)).toBe(first);
    expect(created).toBe(1);
    // A copy of this module (another bundle) finds it through the global registry of symbols.
    expect((globalThis as Record<symbol, unknown>)[Symbol.for('verification-desk.test.shared')]).toBe(first);
  });

  it('keeps names apart', () => {
    const a = processSingleton('test.a', () => ({}));
    expect(processSingleton('test.b', () => ({}))).not.toBe(a);
  });
});
