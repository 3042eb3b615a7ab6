// @ts-check
// Ports for the servers the harness starts: whether one is taken, refusing a busy one (a server
// already there would answer in place of ours, and its data would be measured or tested), and
// finding a free one in a range the machine's conventions allow.
import net from 'node:net';

/**
 * Does something accept connections on 127.0.0.1:`port`?
 * @param {number} port
 * @returns {Promise<boolean>}
 */
export function isListening(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Throws unless `port` is free. `hint` says what to do instead; without one, the message says to
 * stop what listens there (only if the caller started it).
 * @param {number} port
 * @param {string} [hint]
 */
export async function assertPortFree(port, hint) {
  if (await isListening(port)) {
    throw new Error(`Port ${port} is already in use; ${hint ?? 'stop whatever listens there (only if you started it) and run again'}.`);
  }
}

/**
 * Can a server listen on `port` on every interface, as `next start` does?
 * @param {number} port
 * @returns {Promise<boolean>}
 */
function canListen(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * The first port from `from` to `to` (inclusive) that nothing listens on and that can be bound.
 * Another process may still take it before the caller does; the server's start then fails
 * loudly rather than sharing it.
 * @param {{ from: number, to: number }} range
 * @returns {Promise<number>}
 */
export async function findFreePort({ from, to }) {
  for (let port = from; port <= to; port++) {
    if (!(await isListening(port)) && (await canListen(port))) return port;
  }
  throw new Error(`No free port from ${from} to ${to}; stop what you started there, or choose another range.`);
}
