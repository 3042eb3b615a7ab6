// The shared result with a controlled clock and checks the test settles by hand.
import { describe, expect, it } from 'vitest';
import { createSharedResult } from './shared-result';

/** A check whose every run the test can see and settle. */
function controlledCheck<T>() {
  const runs: Array<{ resolve: (value: T) => void; reject: (error: unknown) => void }> = [];
  const check = () =>
    new Promise<T>((resolve, reject) => {
      runs.push({ resolve, reject });
    });
  return { check, runs };
}

describe('createSharedResult', () => {
  it('runs one check for every caller that arrives while it runs, and gives them all its result', async () => {
    let clock = 1_000;
    const { check, runs } = controlledCheck<string>();
    const shared = createSharedResult({ check, freshForMs: 10_000, now: () => clock });
    const waiting = Array.from({ length: 22 }, () => shared.get());
    clock += 500;
    waiting.push(shared.get());
    await Promise.resolve();
    expect(runs).toHaveLength(1);
    runs[0]!.resolve('up');
    expect(await Promise.all(waiting)).toEqual(Array(23).fill('up'));
  });

  it('keeps the result for the window, then checks again once', async () => {
    let clock = 0;
    const { check, runs } = controlledCheck<string>();
    const shared = createSharedResult({ check, freshForMs: 10_000, now: () => clock });
    const first = shared.get();
    await Promise.resolve();
    runs[0]!.resolve('up');
    expect(await first).toBe('up');

    clock = 9_999;
    expect(await shared.get()).toBe('up');
    expect(runs).toHaveLength(1);

    clock = 10_000;
    const second = shared.get();
    const alongside = shared.get();
    await Promise.resolve();
    expect(runs).toHaveLength(2);
    runs[1]!.resolve('down');
    expect([await second, await alongside]).toEqual(['down', 'down']);
  });

  it('checks again when the clock went back: a result from the future is not fresh', async () => {
    let clock = 100_000;
    const { check, runs } = controlledCheck<string>();
    const shared = createSharedResult({ check, freshForMs: 10_000, now: () => clock });
    const first = shared.get();
    await Promise.resolve();
    runs[0]!.resolve('down');
    expect(await first).toBe('down');

    clock = 50_000; // set back, e.g. a test's fake clock restored to the real one
    const second = shared.get();
    await Promise.resolve();
    expect(runs).toHaveLength(2);
    runs[1]!.resolve('up');
    expect(await second).toBe('up');
  });

  it('keeps a failed check for the window too, so a failing check is not retried by every caller', async () => {
    let clock = 0;
    const { check, runs } = controlledCheck<string>();
    const shared = createSharedResult({ check, freshForMs: 1_000, now: () => clock });
    const first = shared.get();
    await Promise.resolve();
    runs[0]!.reject(new Error('no answer'));
    await expect(first).rejects.toThrow('no answer');
    await expect(shared.get()).rejects.toThrow('no answer');
    expect(runs).toHaveLength(1);
    clock = 1_000;
    const again = shared.get();
    await Promise.resolve();
    runs[1]!.resolve('up');
    expect(await again).toBe('up');
  });

  it('never starts a second check while one is still running, however long it takes', async () => {
    let clock = 0;
    const { check, runs } = controlledCheck<string>();
    const shared = createSharedResult({ check, freshForMs: 1_000, now: () => clock });
    const slow = shared.get();
    clock = 5_000;
    const late = shared.get();
    await Promise.resolve();
    expect(runs).toHaveLength(1);
    runs[0]!.resolve('up');
    expect([await slow, await late]).toEqual(['up', 'up']);
    // Its window counts from its start: the next caller starts a fresh check.
    void shared.get();
    await Promise.resolve();
    expect(runs).toHaveLength(2);
  });
});
