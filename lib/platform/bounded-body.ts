// Reading a request body with a ceiling, for the places that take bodies from anyone (the
// server-action gate, the webhook receiver). Counted as the bytes arrive, because a chunked body
// declares no length to believe, and abandoned as soon as the ceiling is passed.

/**
 * The body's bytes, or 'too large' as soon as more than `limit` bytes have arrived: the rest is
 * not waited for, and the stream is cancelled.
 */
export async function readBodyAtMost(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<Uint8Array<ArrayBuffer> | 'too large'> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limit) {
      // Not awaited: cancelling waits for the source to wind down, and the answer need not.
      reader.cancel().catch(() => undefined);
      return 'too large';
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
