// How the users CLI takes a new account's password: from standard input or from a file, never
// from the command line, whose arguments every local user can read (`ps`, /proc/<pid>/cmdline)
// while the command runs, and which shells keep in their history.
import 'server-only';
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';

/** Longer than any password the policy accepts; more is a wrong file, not a password. */
const MAX_BYTES = 4096;

export const PASSWORD_FLAG_REFUSAL =
  '--password is not accepted: a password on the command line can be read by every local user while the command runs, ' +
  'and stays in the shell history. Use --password-stdin (e.g. `… --password-stdin < file`) or --password-file FILE, ' +
  'or leave the password out to get an invitation link.';

export type GivenPassword = { password: string; from: '--password-stdin' | '--password-file' };

/** Drops the one newline that `echo` or an editor leaves at the end; anything else is the password. */
const withoutFinalNewline = (text: string) => text.replace(/\r?\n$/, '');

async function readStandardInput(stdin: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += bytes.length;
    if (size > MAX_BYTES) throw new Error(`--password-stdin: more than ${MAX_BYTES} bytes on standard input, which is not a password`);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The password the operator gave with --password-stdin or --password-file, or null when neither
 * was given. Throws an Error whose message says what is wrong (never the password itself).
 */
export async function readGivenPassword(
  options: { stdin: boolean; file?: string },
  stdin: Readable & { isTTY?: boolean } = process.stdin,
): Promise<GivenPassword | null> {
  if (options.stdin && options.file !== undefined) throw new Error('Use either --password-stdin or --password-file, not both.');
  if (options.stdin) {
    if (stdin.isTTY) {
      throw new Error(
        '--password-stdin reads a pipe or a redirected file, not a terminal (the password would be shown as it is typed). ' +
          'Use `… --password-stdin < file`, or leave the password out to get an invitation link.',
      );
    }
    return { password: withoutFinalNewline(await readStandardInput(stdin)), from: '--password-stdin' };
  }
  if (options.file === undefined) return null;
  let content: Buffer;
  try {
    content = await readFile(options.file);
  } catch (error) {
    throw new Error(`--password-file: cannot read ${options.file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (content.length > MAX_BYTES)
    throw new Error(`--password-file: ${options.file} holds more than ${MAX_BYTES} bytes, which is not a password`);
  return { password: withoutFinalNewline(content.toString('utf8')), from: '--password-file' };
}
