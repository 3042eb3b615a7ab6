// Files for the server's user only, on a real file system (a fresh temporary directory).
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeFile, writePrivateFile } from './private-file';

let dir = '';
const modeOf = (file: string) => statSync(file).mode & 0o777;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'private-file-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(process.platform === 'win32')('writePrivateFile', () => {
  it('writes the content into a file only its owner can read or write, whatever the umask', async () => {
    const file = path.join(dir, 'secret.txt');
    await writePrivateFile(file, 'the secret\n');
    expect(readFileSync(file, 'utf8')).toBe('the secret\n');
    expect(modeOf(file).toString(8)).toBe('600');
  });

  it('replaces a file that was readable by others with a private one, leaving nothing else behind', async () => {
    const file = path.join(dir, 'secret.txt');
    writeFileSync(file, 'an old secret\n');
    chmodSync(file, 0o644);
    await writePrivateFile(file, 'a new secret\n');
    expect(readFileSync(file, 'utf8')).toBe('a new secret\n');
    expect(modeOf(file).toString(8)).toBe('600');
    expect(readdirSync(dir)).toEqual(['secret.txt']);
  });

  it('fails without leaving a temporary file when the directory does not exist', async () => {
    await expect(writePrivateFile(path.join(dir, 'missing', 'secret.txt'), 'x')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('removeFile', () => {
  it('removes the file, and is content when it is already gone', async () => {
    const file = path.join(dir, 'secret.txt');
    writeFileSync(file, 'x');
    await removeFile(file);
    expect(readdirSync(dir)).toEqual([]);
    await expect(removeFile(file)).resolves.toBeUndefined();
  });
});
