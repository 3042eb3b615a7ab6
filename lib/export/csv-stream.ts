// A CSV file as a stream that reads its rows from the database only as fast as the client takes
// them: each pull asks the source for one more batch, so at most one batch is held in memory,
// however many rows the file has. When the stream ends — read to the end, cancelled by the
// client, or failed — `onEnd` learns how many rows went out.
import { BYTE_ORDER_MARK, type CsvCell, csvLine } from './csv';

export type CsvEnd = {
  /** Rows handed to the response (a client that disconnects may not have received the last batch). */
  rows: number;
  /** True only when every row of the source went out. */
  complete: boolean;
};

type CsvStreamOptions<Row> = {
  header: readonly string[];
  /** The rows, batch by batch; the next batch is asked for only when the previous one was taken. */
  batches: AsyncIterable<readonly Row[]>;
  toCells: (row: Row) => readonly CsvCell[];
  onEnd: (end: CsvEnd) => Promise<void>;
};

export function csvStream<Row>({ header, batches, toCells, onEnd }: CsvStreamOptions<Row>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = batches[Symbol.asyncIterator]();
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
        controller.enqueue(encoder.encode(BYTE_ORDER_MARK + csvLine(header)));
      },
      async pull(controller) {
        try {
          let next = await iterator.next();
          // A pull that enqueues nothing is not called again: skip empty batches here.
          while (!next.done && next.value.length === 0) next = await iterator.next();
          if (next.done) {
            await end(true);
            controller.close();
            return;
          }
          controller.enqueue(encoder.encode(next.value.map((row) => csvLine(toCells(row))).join('')));
          rows += next.value.length;
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
    // One chunk waiting at most: the next batch is read when the client has taken this one.
    { highWaterMark: 1 },
  );
}
