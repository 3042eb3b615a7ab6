// Supply chain: the framework must not run on a version with a known advisory (React Server
// Components had several critical ones in 2025–2026), and the installed tree must be valid.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** The oldest releases without a known advisory, as of this commit; raise them when new advisories appear. */
const FLOORS: Record<string, string> = {
  next: '16.4.6',
  react: '19.3.1',
  'react-dom': '19.3.1',
  'better-auth': '1.7.25',
};

function installedVersion(name: string): string {
  const manifest = JSON.parse(readFileSync(path.resolve('node_modules', name, 'package.json'), 'utf8')) as { version: string };
  return manifest.version;
}

function compare(a: string, b: string): number {
  const parse = (v: string) => v.split('-')[0]!.split('.').map(Number);
  const [x, y] = [parse(a), parse(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

describe('supply chain', () => {
  it.each(Object.entries(FLOORS))('%s is at or above %s', (name, floor) => {
    const version = installedVersion(name);
    expect(compare(version, floor), `${name} ${version} is below the floor ${floor}`).toBeGreaterThanOrEqual(0);
  });

  it('compares versions numerically', () => {
    expect(compare('16.10.0', '16.4.6')).toBeGreaterThan(0);
    expect(compare('16.4.5', '16.4.6')).toBeLessThan(0);
    expect(compare('19.3.1', '19.3.1')).toBe(0);
  });

  it('npm ls finds no invalid, missing or extraneous package', () => {
    // npm ls exits non-zero and names the problem when the tree does not match package.json.
    const output = execFileSync('npm', ['ls', '--all', '--json'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    });
    const tree = JSON.parse(output) as { problems?: string[] };
    expect(tree.problems ?? []).toEqual([]);
  }, 60_000);
});
