// Test support: a POST (or another method) whose body is sent piece by piece over a raw socket, the way a slow or
// hostile client would, while the answer is watched for. It tells how much of the body had been
// sent when the server answered, and whether the server then closed the connection — what an
// HTTP client library would hide. Used by unit tests and browser tests alike (plain Node, no aliases).
import net from 'node:net';

/** How long an answer may take at most (a generous bound for a busy machine, not a budget). */
const ANSWER_WAIT_MS = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type SlowUploadOptions = {
  host: string;
  port: number;
  path: string;
  /** POST unless told. */
  method?: string;
  headers: Record<string, string>;
  /** How the body is framed: chunked (no declared length) or with a Content-Length of `total`. */
  framing: 'chunked' | 'content-length';
  /** Bytes the client intends to send in all. */
  total: number;
  /** Bytes per write. */
  chunkBytes?: number;
  /** Pause between writes. */
  pauseMs?: number;
  /** How long to wait for the connection to close after the answer, before giving up on it. */
  closeWaitMs?: number;
};

export type SlowUploadResult = {
  /** The answer's status, or null if none came before the connection closed. */
  status: number | null;
  /** Everything received: status line, headers and body, as text. */
  answer: string;
  /** Body bytes written when the first byte of the answer arrived (or the connection closed). */
  sentWhenAnswered: number;
  /** Body bytes written in all: the client stops once answered. */
  sent: number;
  /** Whether the server closed (or reset) the connection after answering. */
  closed: boolean;
  error?: string;
};

export async function slowUpload({
  host,
  port,
  path,
  method = 'POST',
  headers,
  framing,
  total,
  chunkBytes = 64 * 1024,
  pauseMs = 5,
  closeWaitMs = 15_000,
}: SlowUploadOptions): Promise<SlowUploadResult> {
  const socket = net.connect({ host, port });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let answer = '';
  let sent = 0;
  let sentWhenAnswered: number | null = null;
  let error: string | undefined;
  const closed = new Promise<void>((resolve) => {
    socket.once('close', () => resolve());
    // The server ended its side: the connection is over for this client.
    socket.once('end', () => resolve());
  });
  let isClosed = false;
  void closed.then(() => {
    isClosed = true;
    sentWhenAnswered ??= sent;
  });
  const answered = new Promise<void>((resolve) => {
    socket.on('data', (data) => {
      sentWhenAnswered ??= sent;
      answer += data.toString('latin1');
      resolve();
    });
  });
  socket.on('error', (e) => {
    error = (e as NodeJS.ErrnoException).code ?? e.message;
  });

  const framingHeader = framing === 'chunked' ? { 'Transfer-Encoding': 'chunked' } : { 'Content-Length': String(total) };
  const head = Object.entries({ Host: `${host}:${port}`, ...headers, ...framingHeader })
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n');
  await write(socket, `${method} ${path} HTTP/1.1\r\n${head}\r\n\r\n`);

  const piece = Buffer.alloc(chunkBytes, 'a');
  while (sent < total && sentWhenAnswered === null && !isClosed) {
    const size = Math.min(chunkBytes, total - sent);
    const body = piece.subarray(0, size);
    const ok = await write(
      socket,
      framing === 'chunked' ? Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), body, Buffer.from('\r\n')]) : body,
    );
    if (!ok) break;
    sent += size;
    if (pauseMs > 0) await sleep(pauseMs);
  }
  if (framing === 'chunked' && sent >= total && sentWhenAnswered === null) await write(socket, '0\r\n\r\n');

  // The answer, then (for a refusal) the end of the connection: waited for up to closeWaitMs after
  // the answer, as an accepted upload's connection stays open.
  await Promise.race([closed, answered.then(() => sleep(closeWaitMs)), sleep(ANSWER_WAIT_MS)]);
  socket.destroy();
  const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1];
  return { status: status ? Number(status) : null, answer, sentWhenAnswered: sentWhenAnswered ?? sent, sent, closed: isClosed, error };
}

/** Resolves true once the data is handed to the kernel, false if the connection failed. */
function write(socket: net.Socket, data: string | Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    if (socket.destroyed || socket.writableEnded) return resolve(false);
    socket.write(data, (err) => resolve(!err));
  });
}
