// Reads what the server logger writes during a test: modules log through children of the one
// server logger, so a test redirects its lines instead of spying on console.
import { redirectServerLogs } from '@/lib/platform/log';

export type CapturedLogs = {
  lines: string[];
  /** Every line parsed; the logger writes one JSON object per line. */
  records(): Array<Record<string, any>>;
  text(): string;
  restore(): void;
};

export function captureLogs(): CapturedLogs {
  const lines: string[] = [];
  redirectServerLogs({
    write(chunk: string) {
      lines.push(...chunk.split('\n').filter((line) => line !== ''));
    },
  });
  return {
    lines,
    records: () => lines.map((line) => JSON.parse(line) as Record<string, any>),
    text: () => lines.join('\n'),
    restore: () => redirectServerLogs(undefined),
  };
}

/** Back to stdout; for an afterEach, so a failed test does not leave the capture on. */
export function stopCapturingLogs(): void {
  redirectServerLogs(undefined);
}
