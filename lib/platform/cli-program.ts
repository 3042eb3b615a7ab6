// The one way a command-line program of this project runs: its commands take their output as two
// line writers (so tests can call them in this process), and only when the file is the program
// Node started does it write to the terminal, close the databases and exit with the command's code.
import { pathToFileURL } from 'node:url';
import { closeDatabases } from './database';

/** Where a command writes its lines. */
export type CliLines = { out: (line: string) => void; err: (line: string) => void };

function writeLine(stream: NodeJS.WriteStream, line: string): Promise<void> {
  return new Promise((resolve) => stream.write(`${line}\n`, () => resolve()));
}

/**
 * Runs `run` with the process's arguments when `moduleUrl` (the caller's import.meta.url) is the
 * program Node started; does nothing when the module is merely imported (by a test).
 */
export async function runAsProgram(moduleUrl: string, run: (argv: string[], lines: CliLines) => Promise<number>): Promise<void> {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  const pending: Promise<void>[] = [];
  const code = await run(process.argv.slice(2), {
    out: (line) => void pending.push(writeLine(process.stdout, line)),
    err: (line) => void pending.push(writeLine(process.stderr, line)),
  });
  // Releases the data directory's lock; PGlite's handles would otherwise keep the process alive.
  await closeDatabases();
  await Promise.all(pending);
  process.exit(code);
}
