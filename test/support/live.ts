// Test support only: reading a Server-Sent Events body frame by frame.

export type Frame = { id?: string; event?: string; data?: string; retry?: string; comments: string[] };

export type FrameReader = {
  /** Waits for the next complete frame (a block ending in a blank line); throws after timeoutMs. */
  next(timeoutMs?: number): Promise<Frame>;
  /** Resolves true if the stream ended (or ends within timeoutMs) with no further frame. */
  ended(timeoutMs?: number): Promise<boolean>;
  cancel(): Promise<void>;
};

export function parseFrame(block: string): Frame {
  const frame: Frame = { comments: [] };
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) {
      frame.comments.push(line.slice(1).trim());
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id' || field === 'event' || field === 'retry') frame[field] = value;
    if (field === 'data') frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
  }
  return frame;
}

export function frameReader(body: ReadableStream<Uint8Array>): FrameReader {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let done = false;
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | null = null;

  const read = () => {
    pending ??= reader.read().finally(() => {
      pending = null;
    });
    return pending;
  };

  const withTimeout = <T>(promise: Promise<T>, ms: number, what: string) =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
      promise.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });

  async function next(timeoutMs = 2_000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        return parseFrame(block);
      }
      if (done) throw new Error('stream ended');
      const chunk = await withTimeout(read(), Math.max(1, deadline - Date.now()), 'a frame');
      if (chunk.done) done = true;
      else buffer += decoder.decode(chunk.value, { stream: true });
    }
  }

  return {
    next,
    async ended(timeoutMs = 2_000) {
      if (buffer.includes('\n\n')) return false;
      if (done) return true;
      try {
        const chunk = await withTimeout(read(), timeoutMs, 'the end');
        if (chunk.done) {
          done = true;
          return true;
        }
        buffer += decoder.decode(chunk.value, { stream: true });
        return false;
      } catch {
        return false;
      }
    },
    async cancel() {
      await reader.cancel().catch(() => undefined);
    },
  };
}

/** Waits until `condition` holds, checking every few milliseconds; throws after timeoutMs. */
export async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
