// Where the first-run setup link goes. Whoever opens it first becomes the administrator, so it
// must not reach a log collector: it is written to <DATA_DIR>/setup-link.txt, readable only by
// the server's user, and shown on the console only when that console is a terminal (someone
// watching `npm start`), never when stdout is piped to a log shipper. The file is removed once
// setup is done (or, at a start, when staff accounts exist). With several instances only the one
// that issued the link has it; the others say so and name the staff CLI's `setup-link`.
import 'server-only';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { isInMemory } from '@/lib/platform/embedded-database';
import { removeFile, writePrivateFile } from '@/lib/platform/private-file';

export const SETUP_LINK_FILE_NAME = 'setup-link.txt';

/** The file's path, or null for an in-memory data directory (tests), which has no place for it. */
export function setupLinkFilePath(dataDir: string): string | null {
  return isInMemory(dataDir) ? null : path.resolve(dataDir, SETUP_LINK_FILE_NAME);
}

/** Writes the link to the data directory (mode 0600, atomically); returns the file's path. */
export async function writeSetupLinkFile(dataDir: string, link: string): Promise<string | null> {
  const file = setupLinkFilePath(dataDir);
  if (!file) return null;
  // With DATABASE_URL nothing else creates the data directory: it may hold only this file.
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writePrivateFile(file, `${link}\n`);
  return file;
}

/** The link an earlier start of this instance wrote, or null when there is no readable file. */
export async function readSetupLinkFile(dataDir: string): Promise<string | null> {
  const file = setupLinkFilePath(dataDir);
  if (!file) return null;
  try {
    return (await readFile(file, 'utf8')).trim() || null;
  } catch {
    return null;
  }
}

/** The token in a setup link, or null when it is not one. */
export function setupTokenOfLink(link: string): string | null {
  try {
    return new URL(link).searchParams.get('token');
  } catch {
    return null;
  }
}

export async function removeSetupLinkFile(dataDir: string): Promise<void> {
  const file = setupLinkFilePath(dataDir);
  if (file) await removeFile(file);
}

export type SetupLinkNotice = {
  link: string;
  /** Where the link was written, or null when it could not be (`problem` says why, if it failed). */
  file: string | null;
  problem?: string;
};

/**
 * The start-up lines about the setup link. The link itself only for a terminal: anything else
 * (a pipe, a file, a container's log driver) may be collected and read by others.
 */
export function setupLinkLines({ link, file, problem }: SetupLinkNotice, { terminal }: { terminal: boolean }): string[] {
  const lines = ['', '  No staff account exists yet.'];
  if (terminal) lines.push('  Create the first administrator with this link (it works once):', `  ${link}`);
  if (file) {
    lines.push(
      `  ${terminal ? 'The link is also' : 'The one-time link that creates the first administrator is'} in ${file} (readable only by this user).`,
    );
  } else if (!terminal) {
    lines.push(
      `  The one-time setup link could not be written to the data directory${problem ? ` (${problem})` : ''} and is shown only on a terminal.`,
      '  Start the server from a terminal, or create an administrator with `npm run users -- create --email … --role admin`.',
    );
  } else if (problem) {
    lines.push(`  (It could not be written to the data directory: ${problem}.)`);
  }
  lines.push('');
  return lines;
}

/** The command that issues a fresh link (and voids the earlier one). */
export const SETUP_LINK_COMMAND = 'npm run users -- setup-link';

/**
 * The start-up lines when a live link exists that this instance cannot show: another instance
 * issued it (or an earlier start, whose file is gone). Never a token.
 */
export function pendingSetupLinkLines(issuedAt: Date): string[] {
  return [
    '',
    '  No staff account exists yet.',
    `  A one-time setup link was issued at ${issuedAt.toISOString()} by the instance that started first`,
    `  (shown on its terminal and written to ${SETUP_LINK_FILE_NAME} in its data directory).`,
    `  To get a new link instead (the earlier one stops working): ${SETUP_LINK_COMMAND}`,
    '',
  ];
}
