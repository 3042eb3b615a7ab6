// The CSV stream on its own: batches read only when the reader asks, empty batches skipped,
// and one report at the end — complete, cancelled or failed — with the rows that went out.
import { describe, expect, it } from 'vitest';
import { type CsvEnd, csvStream } from './csv-stream';

type Row = { id: string };

/** A source of batches that records how far it has been read. */
function source(batches: Row[][], failAt?: number) {
  const state = { served: 0, closed: false };
  async function* generate() {
    try {
      for (const [index, batch] of batches.entries()) {
        if (index === failAt) throw new Error('the database went away');
        state.served += 1;
        yield batch;
      }
    } finally {
      state.closed = true;
    }
  }
  return { state, batches: generate() };
}

function stream(batches: AsyncIterable<Row[]>, ends: CsvEnd[]) {
  return csvStream<Row>({
    header: ['Id'],
    batches,
    toCells: (row) => [row.id],
    onEnd: async (end) => {
      ends.push(end);
    },
  });
}

const decode = (chunk: Uint8Array) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(chunk);

describe('csvStream', () => {
  it('starts with the BOM and the header, then one chunk per batch, skipping empty batches', async () => {
    const ends: CsvEnd[] = [];
    const { batches } = source([[{ id: 'a' }, { id: 'b' }], [], [{ id: '=c' }]]);
    const reader = stream(batches, ends).getReader();
    const chunks: string[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(decode(read.value));
    expect(chunks).toEqual(['\uFEFFId\r\n', 'a\r\nb\r\n', `"'=c"\r\n`]);
    expect(ends).toEqual([{ rows: 3, complete: true }]);
  });

  it('reads the source one batch ahead of what the reader has taken, no further', async () => {
    const ends: CsvEnd[] = [];
    const { state, batches } = source([[{ id: 'a' }], [{ id: 'b' }], [{ id: 'c' }], [{ id: 'd' }]]);
    const reader = stream(batches, ends).getReader();
    await reader.read(); // the header
    await reader.read(); // batch 1
    // Let any eager reading ahead happen, if the stream did it.
    await new Promise((resolve) => setImmediate(resolve));
    expect(state.served).toBe(2);
    await reader.cancel();
    expect(state.closed).toBe(true);
    // The batch read ahead was never sent: it does not count.
    expect(ends).toEqual([{ rows: 1, complete: false }]);
  });

  it('reports a failure once, as incomplete with the rows sent, and errors the stream', async () => {
    const ends: CsvEnd[] = [];
    const { batches } = source([[{ id: 'a' }], [{ id: 'b' }]], 1);
    const reader = stream(batches, ends).getReader();
    await reader.read();
    await reader.read();
    await expect(reader.read()).rejects.toThrow('the database went away');
    expect(ends).toEqual([{ rows: 1, complete: false }]);
  });
});
