// The dashboard/sandbox boundary, as a rule the build's tests enforce. The dashboard must talk to
// the sandbox only over HTTP, exactly as to the real service, or it could come to depend on
// sandbox-only behaviour; the sandbox must stay a separate service that merely shares the
// process. Both may use lib/platform (logging, the embedded database, process singletons, JSON
// answers, the sandbox switch), and lib/platform depends on neither. The composition root
// (instrumentation-node.ts) is the one place that knows both halves. Tests may compare the two
// halves, so the rules apply to the code that ships, not to *.test.ts files.
import { describe, expect, it } from 'vitest';
import { allImports, importTarget, read, sourceFiles } from './source-files';

type Room = 'dashboard' | 'sandbox' | 'platform' | 'other';

/** Which half a root-relative path belongs to. */
function roomOf(file: string): Room {
  if (file.startsWith('lib/sandbox/') || file.startsWith('app/(sandbox)/')) return 'sandbox';
  if (file.startsWith('lib/platform/')) return 'platform';
  if (/^(app|components|lib)\//.test(file) || file === 'proxy.ts') return 'dashboard';
  return 'other';
}

/** The imports of `file` (given its source) that cross the boundary, as "file → target". */
function boundaryViolations(file: string, source: string): string[] {
  const from = roomOf(file);
  const violations: string[] = [];
  for (const specifier of allImports(source)) {
    const target = importTarget(file, specifier);
    if (target === undefined) continue; // a package
    const to = roomOf(target);
    const allowed =
      from === to ||
      (from === 'dashboard' && to === 'platform') ||
      (from === 'sandbox' && to === 'platform') ||
      // Shared, side-effect-free project files (the environment's shape is not among them).
      (from !== 'platform' && (target === 'lib/utils' || target.startsWith('lib/utils.')));
    if (!allowed) violations.push(`${file} → ${specifier} (${from} may not import ${to})`);
  }
  return violations;
}

const shipped = ['app', 'components', 'lib']
  .flatMap((dir) => [...sourceFiles(dir)])
  .concat(['proxy.ts'])
  .filter((file) => !file.startsWith('lib/architecture/'));

describe('the dashboard/sandbox boundary', () => {
  it('finds the files of each room', () => {
    const count = (room: Room) => shipped.filter((file) => roomOf(file) === room).length;
    expect(count('dashboard')).toBeGreaterThan(50);
    expect(count('sandbox')).toBeGreaterThan(25);
    expect(count('platform')).toBeGreaterThan(5);
  });

  it('is kept: the dashboard never imports the sandbox, the sandbox only itself and lib/platform', () => {
    expect(shipped.flatMap((file) => boundaryViolations(file, read(file)))).toEqual([]);
  });

  it('catches a crossing in any form: alias, relative, type-only, re-export and lazy import', () => {
    expect(boundaryViolations('app/(dashboard)/page.tsx', "import { getSandboxDb } from '@/lib/sandbox/db';")).toHaveLength(1);
    expect(boundaryViolations('lib/verifications/register.ts', "import type { SandboxDb } from '../sandbox/db';")).toHaveLength(1);
    expect(boundaryViolations('components/x.tsx', "export { x } from '@/lib/sandbox/config';")).toHaveLength(1);
    expect(boundaryViolations('lib/auth/x.ts', "const m = await import('@/lib/sandbox/records/jobs');")).toHaveLength(1);
    expect(boundaryViolations('lib/sandbox/api/http.ts', "import { getEnv } from '@/lib/env';")).toHaveLength(1);
    expect(boundaryViolations('app/(sandbox)/v1/x/route.ts', "import { getDb } from '@/lib/db';")).toHaveLength(1);
    expect(boundaryViolations('lib/platform/log.ts', "import { getEnv } from '@/lib/env';")).toHaveLength(1);
    expect(boundaryViolations('lib/platform/log.ts', "import { x } from '../sandbox/config';")).toHaveLength(1);
  });

  it('lets each room use what it may', () => {
    expect(boundaryViolations('lib/sandbox/api/http.ts', "import { logger } from '@/lib/platform/log';\nimport { z } from 'zod';")).toEqual(
      [],
    );
    expect(boundaryViolations('app/(dashboard)/layout.tsx', "import { isSandboxEnabled } from '@/lib/platform/sandbox-switch';")).toEqual(
      [],
    );
    expect(boundaryViolations('app/(sandbox)/v1/x/route.ts', "import { routes } from '@/lib/sandbox/api/routes';")).toEqual([]);
  });
});
