import { describe, expect, it } from 'vitest';
import { purgeInBatches } from './batched-purge';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A step that removes `limit` rows `fullSteps` times, then fewer; records when each ran. */
function recordingStep(fullSteps: number, stepMs: number) {
  const spans: { start: number; end: number }[] = [];
  const step = async (limit: number) => {
    const start = performance.now();
    await sleep(stepMs);
    spans.push({ start, end: performance.now() });
    return spans.length <= fullSteps ? limit : limit - 1;
  };
  return { spans, step };
}

describe('purgeInBatches', () => {
  it('runs steps until one removes less than a batch, and counts what they removed', async () => {
    const { spans, step } = recordingStep(3, 0);
    expect(await purgeInBatches(step, { batchSize: 10, restRatio: 0 })).toBe(39);
    expect(spans).toHaveLength(4);
  });

  it('rests between steps as long as a step took, so pages get the machine half of the time', async () => {
    const { spans, step } = recordingStep(2, 40);
    await purgeInBatches(step, { batchSize: 5 });
    expect(spans).toHaveLength(3);
    for (const [before, after] of spans.slice(0, -1).map((span, i) => [span, spans[i + 1]!] as const)) {
      // The rest is as long as the step before it, less a timer's slack.
      expect(after.start - before.end).toBeGreaterThanOrEqual((before.end - before.start) * 0.9 - 2);
    }
  });

  it('refuses a batch size or a rest that makes no sense', async () => {
    const { step } = recordingStep(0, 0);
    await expect(purgeInBatches(step, { batchSize: 0 })).rejects.toThrow(/batchSize/);
    await expect(purgeInBatches(step, { restRatio: -1 })).rejects.toThrow(/restRatio/);
  });
});
