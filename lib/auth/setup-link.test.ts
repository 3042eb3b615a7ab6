// Where the first-run setup link goes: a private file in the data directory, and the console
// only when it is a terminal. Real files in a fresh temporary directory.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  pendingSetupLinkLines,
  readSetupLinkFile,
  removeSetupLinkFile,
  setupLinkFilePath,
  setupLinkLines,
  setupTokenOfLink,
  writeSetupLinkFile,
} from './setup-link';

const TOKEN = 'Zm9vYmFyYmF6cXV4LXNlY3JldC10b2tlbi0xMjM0NTY3ODk';
const LINK = `https://desk.example.com/setup?token=${TOKEN}`;

let dataDir = '';
beforeEach(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'setup-link-'));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the setup link file', () => {
  it.skipIf(process.platform === 'win32')(
    'holds the link in <DATA_DIR>/setup-link.txt, readable only by the owner, until removed',
    async () => {
      const file = await writeSetupLinkFile(dataDir, LINK);
      expect(file).toBe(path.join(dataDir, 'setup-link.txt'));
      expect(readFileSync(file!, 'utf8')).toBe(`${LINK}\n`);
      expect((statSync(file!).mode & 0o777).toString(8)).toBe('600');

      await removeSetupLinkFile(dataDir);
      expect(() => statSync(file!)).toThrow(/ENOENT/);
    },
  );

  it('has no place in an in-memory data directory', async () => {
    expect(setupLinkFilePath('memory://')).toBeNull();
    expect(await writeSetupLinkFile('memory://', LINK)).toBeNull();
    await expect(removeSetupLinkFile('memory://')).resolves.toBeUndefined();
  });
});

describe('setupLinkLines', () => {
  const file = '/var/lib/desk/setup-link.txt';

  it('says where the link is, and never the token, when stdout is not a terminal', () => {
    const text = setupLinkLines({ link: LINK, file }, { terminal: false }).join('\n');
    expect(text).toContain(file);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('token=');
  });

  it('shows the link on a terminal, and the file too', () => {
    const text = setupLinkLines({ link: LINK, file }, { terminal: true }).join('\n');
    expect(text).toContain(LINK);
    expect(text).toContain(file);
  });

  it('without a file and without a terminal: still no token, and another way to the first administrator', () => {
    const text = setupLinkLines({ link: LINK, file: null, problem: 'EACCES' }, { terminal: false }).join('\n');
    expect(text).not.toContain(TOKEN);
    expect(text).toContain('EACCES');
    expect(text).toContain('npm run users -- create');
  });
});

describe('pendingSetupLinkLines (another instance issued the link)', () => {
  it('says when the link was issued, where it is, and how to get a new one, never a token', () => {
    const text = pendingSetupLinkLines(new Date('2030-01-02T03:04:05.000Z')).join('\n');
    expect(text).toContain('2030-01-02T03:04:05.000Z');
    expect(text).toContain('setup-link.txt');
    expect(text).toContain('npm run users -- setup-link');
    expect(text).not.toContain('token');
  });
});

describe('readSetupLinkFile and setupTokenOfLink', () => {
  it('reads back the link a start wrote, and its token; nothing when there is no file', async () => {
    expect(await readSetupLinkFile(dataDir)).toBeNull();
    await writeSetupLinkFile(dataDir, LINK);
    expect(await readSetupLinkFile(dataDir)).toBe(LINK);
    expect(setupTokenOfLink(LINK)).toBe(TOKEN);
    expect(setupTokenOfLink('not a link')).toBeNull();
  });

  it('creates a missing data directory for the file (with DATABASE_URL nothing else does)', async () => {
    const nested = path.join(dataDir, 'not', 'there');
    expect(await writeSetupLinkFile(nested, LINK)).toBe(path.join(nested, 'setup-link.txt'));
    expect(await readSetupLinkFile(nested)).toBe(LINK);
  });
});
