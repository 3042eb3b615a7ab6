// Reading the project's own source as text, for the architecture tests: which files there are,
// what each imports, and where a local import leads.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const ROOT = process.cwd();

/** Source files under `dir` (relative to the root), tests and migrations left out. */
export function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(path.join(ROOT, dir))) {
    const relative = path.join(dir, entry);
    if (statSync(path.join(ROOT, relative)).isDirectory()) {
      if (entry !== 'node_modules' && entry !== 'migrations') yield* sourceFiles(relative);
    } else if (/\.(ts|tsx)$/.test(entry) && !/\.test\.tsx?$/.test(entry) && !entry.endsWith('.d.ts')) {
      yield relative;
    }
  }
}

export const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

const STATIC_IMPORT = /^\s*(import|export)\s+(type\s)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
const LAZY_IMPORT = /import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every module `source` names: static imports and re-exports (type-only ones too) and lazy imports. */
export function allImports(source: string): string[] {
  return [...[...source.matchAll(STATIC_IMPORT)].map((match) => match[3]!), ...[...source.matchAll(LAZY_IMPORT)].map((match) => match[1]!)];
}

/** Value imports only: `import type` and `export type` vanish from every bundle. */
export function valueImports(source: string): string[] {
  return [
    ...[...source.matchAll(STATIC_IMPORT)].filter((match) => !match[2]).map((match) => match[3]!),
    // Lazy imports end up in the browser too.
    ...[...source.matchAll(LAZY_IMPORT)].map((match) => match[1]!),
  ];
}

/** The root-relative path a specifier names, or undefined for a package. */
export function importTarget(from: string, specifier: string): string | undefined {
  if (specifier.startsWith('@/')) return path.normalize(specifier.slice(2));
  if (specifier.startsWith('.')) return path.normalize(path.join(path.dirname(from), specifier));
  return undefined;
}

/** The file a local import resolves to, or undefined for a package. */
export function resolveLocal(from: string, specifier: string): string | undefined {
  const base = importTarget(from, specifier);
  if (base === undefined) return undefined;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (existsSync(path.join(ROOT, candidate)) && statSync(path.join(ROOT, candidate)).isFile()) return candidate;
  }
  return undefined;
}
