// An export file as a stream that reads its rows from the database only as fast as the client takes
// them. The stream asks for a chunk only when its reader wants one (no queue of its own), and
// the source is read one batch ahead of what went out: the database works on the next batch
// while this one is written and sent, yet at most two batches are in memory however many rows
// the file has, and a client that stops reading stops the reading of the database. When the
// stream ends — read to the end, cancelled by the client, or failed — `onEnd` learns how many
// rows went out.
import { BYTE_ORDER_MARK, type CsvCell, type CsvDelimiter, csvLine } from './csv';

export type StreamEnd = {
  /** Rows handed to the response (a client that disconnects may not have received the last batch). */
  rows: number;
  /** True only when every row of the source went out. */
  complete: boolean;
};

type CsvStreamOptions<Row> = {
  header: readonly string[];
  /** The rows, batch by batch; a batch is asked for when the one before it goes out. */
  batches: AsyncIterable<readonly Row[]>;
  toCells: (row: Row) => readonly CsvCell[];
  /** A comma unless told otherwise (export-format.ts chooses). */
  delimiter?: CsvDelimiter;
  onEnd: (end: CsvEnd) => Promise<void>;
};

/** What a CSV stream learns at its end. */
export type CsvEnd = StreamEnd;

function csvText<Row>(batch: readonly Row[], toCells: (row: Row) => readonly CsvCell[], delimiter: CsvDelimiter): string {
  let text = '';
  for (const row of batch) text += csvLine(toCells(row), delimiter);
  return text;
}

export function csvStream<Row>({ header, batches, toCells, delimiter = ',', onEnd }: CsvStreamOptions<Row>): ReadableStream<Uint8Array> {
  return batchStream({
    head: BYTE_ORDER_MARK + csvLine(header, delimiter),
    batches,
    toText: (batch) => csvText(batch, toCells, delimiter),
    onEnd,
  });
}

/** Any text file written batch by batch (CSV above, the audit chain's JSON Lines): `head`, then each batch's text. */
export function batchStream<Row>({
  head,
  batches,
  toText,
  onEnd,
}: {
  head: string;
  batches: AsyncIterable<readonly Row[]>;
  toText: (batch: readonly Row[]) => string;
  onEnd: (end: StreamEnd) => Promise<void>;
}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = batches[Symbol.asyncIterator]();
  // The batch after the one last sent, already asked for.
  let ahead: Promise<IteratorResult<readonly Row[]>> | undefined;
  const next = () => {
    const result = ahead ?? iterator.next();
    ahead = undefined;
    return result;
  };
  let rows = 0;
  let ended = false;
  const end = async (complete: boolean) => {
    if (ended) return;
    ended = true;
    await onEnd({ rows, complete });
  };

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (head !== '') controller.enqueue(encoder.encode(head));
      },
      async pull(controller) {
        try {
          let batch = await next();
          // A pull that enqueues nothing is not called again: skip empty batches here.
          while (!batch.done && batch.value.length === 0) batch = await next();
          if (batch.done) {
            await end(true);
            controller.close();
            return;
          }
          ahead = iterator.next();
          // A failure of the batch ahead is reported by the pull that awaits it, not as unhandled.
          ahead.catch(() => undefined);
          controller.enqueue(encoder.encode(toText(batch.value)));
          rows += batch.value.length;
        } catch (error) {
          await end(false).catch(() => undefined);
          controller.error(error);
        }
      },
      async cancel() {
        await iterator.return?.();
        await end(false);
      },
    },
    // No chunk waits in the stream: the reader's own demand (the response's, which waits while
    // the socket is full) is what asks for the next one.
    { highWaterMark: 0 },
  );
}
