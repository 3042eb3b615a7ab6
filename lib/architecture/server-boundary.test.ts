// The API key, webhook secret and auth secret live in server modules; the boundary that keeps
// them out of the browser is the `server-only` marker. These tests check the three parts of
// that guarantee: every secret-touching module carries the marker, the marker really breaks a
// client bundle (its default export throws; only the react-server build gets the empty one),
// and no client component reaches a marked module through a value import.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT, read, resolveLocal, sourceFiles, valueImports } from './source-files';

const MARKER = /^import 'server-only';$/m;

const SECRET_HOLDERS = [
  'lib/env.ts',
  'lib/auth/auth.ts',
  'lib/db/index.ts',
  'lib/platform/embedded-database.ts',
  // Not: the contract's client-safe words (statuses, the id's spelling), which the browser needs.
  ...[...sourceFiles('lib/verification-service')].filter((file) => !file.endsWith('fake-upstream.ts') && !file.includes('/contract/')),
  // Not: table definitions, the CLI (a terminal program), the person page's translations (plain
  // text), and test helpers.
  ...[...sourceFiles('lib/sandbox')].filter((file) => !/(schema|cli|person-page-text)\.ts$/.test(file)),
];

describe('the server-only boundary', () => {
  it('marks every module that holds or uses a secret, the service client above all', () => {
    expect(SECRET_HOLDERS).toContain('lib/verification-service/client.ts');
    expect(SECRET_HOLDERS.length).toBeGreaterThan(30);
    const unmarked = SECRET_HOLDERS.filter((file) => !MARKER.test(read(file)));
    expect(unmarked).toEqual([]);
  });

  it('makes a client bundle fail: the marker throws unless resolved for React Server Components', () => {
    const load = (conditions: string[]) =>
      execFileSync(process.execPath, [...conditions, '--input-type=module', '-e', "await import('server-only'); console.log('loaded')"], {
        cwd: ROOT,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    expect(() => load([])).toThrow(/cannot be imported from a Client Component/);
    expect(load(['--conditions=react-server']).trim()).toBe('loaded');
  });

  it('is not crossed today: no client component reaches a marked module through value imports', () => {
    const clientEntries = ['app', 'components', 'lib']
      .flatMap((dir) => [...sourceFiles(dir)])
      .filter((file) => /^['"]use client['"]/m.test(read(file)));
    expect(clientEntries.length).toBeGreaterThan(5);
    const crossings: string[] = [];
    for (const entry of clientEntries) {
      const seen = new Set<string>();
      const walk = (file: string, trail: string[]) => {
        if (seen.has(file)) return;
        seen.add(file);
        const source = read(file);
        // A 'use server' module is a reference for the client, not code shipped to it.
        if (file !== entry && /^['"]use server['"]/m.test(source)) return;
        if (MARKER.test(source)) crossings.push([...trail, file].join(' → '));
        for (const specifier of valueImports(source)) {
          const next = resolveLocal(file, specifier);
          if (next) walk(next, [...trail, file]);
        }
      };
      walk(entry, []);
    }
    expect(crossings).toEqual([]);
  });
});
