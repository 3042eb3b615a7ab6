// The layer order of docs/architecture.md, as a rule the build's tests enforce: every shipped file
// stands on one floor, and an import may point down or sideways, never up. A lower floor that
// reached up would make the floors one tangle again: the schema needing the guards, the
// configuration needing the display zone. On top of the order, no two lib/ folders may import
// each other, even on one floor (the features), so each folder can be read and moved as a unit.
// Every form of import counts: alias or relative, type-only, re-export and lazy import. Tests
// may reach anywhere, so the rules apply to the code that ships, not to *.test.ts files.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allImports, importTarget, read, sourceFiles } from './source-files';

/** The floors, lowest first. A file may import its own floor and those below it. */
const FLOORS = [
  'platform', // lib/platform, lib/utils.ts: logging, databases, singletons, limits; shared by both halves
  'sandbox', // lib/sandbox: the embedded service, on lib/platform alone (sandbox-boundary.test.ts)
  'env', // lib/env.ts, lib/cli: the configuration, and the programs around the server that read it
  'ground', // lib/db, lib/time, lib/forms: tables, times and form plumbing; need nothing above them
  'service', // lib/verification-service: the service's client and its contract's types
  'audit log', // lib/audit: the audit trail's writer and its action codes
  'identity', // lib/auth: sessions, roles, guards, the form-action wrapper, SSO, two-factor
  'features', // verifications, staff, account, audit-trail, live, webhook-receiver, export, jobs, proxy, overview
  'actions', // every actions.ts: the 'use server' files, whatever folder they are in
  'components', // components/
  'app', // app/, proxy.ts, instrumentation*.ts: routes and the composition root
] as const;

type Floor = (typeof FLOORS)[number];

const LIB_FLOORS: Record<string, Floor> = {
  platform: 'platform',
  utils: 'platform',
  sandbox: 'sandbox',
  env: 'env',
  cli: 'env',
  db: 'ground',
  time: 'ground',
  i18n: 'ground',
  forms: 'ground',
  'verification-service': 'service',
  audit: 'audit log',
  auth: 'identity',
  verifications: 'features',
  staff: 'features',
  account: 'features',
  'audit-trail': 'features',
  live: 'features',
  'webhook-receiver': 'features',
  export: 'features',
  jobs: 'features',
  proxy: 'features',
  overview: 'features',
};

/** The lib/ folder (or loose file, without its extension) a root-relative path is in. */
function libFolderOf(file: string): string | undefined {
  return /^lib\/([^/]+?)(?:\.[cm]?tsx?|\.[cm]?js)?(?:\/|$)/.exec(file)?.[1];
}

/**
 * The floor of a root-relative path (a file, or an import's target without its extension), or
 * undefined for a path no floor is assigned to: a new lib/ folder must be given one here.
 */
function floorOf(file: string): Floor | undefined {
  if (/(^|\/)actions(\.tsx?)?$/.test(file)) return 'actions';
  if (file.startsWith('components/')) return 'components';
  if (file.startsWith('app/') || /^(proxy|instrumentation(-[a-z]+)?)(\.tsx?)?$/.test(file)) return 'app';
  const folder = libFolderOf(file);
  return folder === undefined ? undefined : LIB_FLOORS[folder];
}

/** The imports of `file` (given its source) that point up, as "file → specifier (floor may not import floor)". */
function upwardImports(file: string, source: string): string[] {
  const from = floorOf(file);
  const violations: string[] = [];
  for (const specifier of allImports(source)) {
    const target = importTarget(file, specifier);
    if (target === undefined) continue; // a package
    const to = floorOf(target);
    if (from === undefined || to === undefined) {
      violations.push(`${file} → ${specifier} (no floor for ${from === undefined ? file : target})`);
    } else if (FLOORS.indexOf(to) > FLOORS.indexOf(from)) {
      violations.push(`${file} → ${specifier} (${from} may not import ${to})`);
    }
  }
  return violations;
}

/** Pairs of lib/ folders that import each other, each with the imports that make the pair. */
function cyclicFolderPairs(files: { file: string; source: string }[]): string[] {
  const edges = new Map<string, string[]>();
  for (const { file, source } of files) {
    const from = libFolderOf(file);
    if (from === undefined) continue;
    for (const specifier of allImports(source)) {
      const target = importTarget(file, specifier);
      const to = target === undefined ? undefined : libFolderOf(target);
      if (to === undefined || to === from) continue;
      const key = `${from} → ${to}`;
      edges.set(key, [...(edges.get(key) ?? []), `${file} → ${specifier}`]);
    }
  }
  // The direction with fewer imports first: it is usually the wrong one.
  const listed = (imports: string[]) => [...imports.slice(0, 3), ...(imports.length > 3 ? [`${imports.length - 3} more`] : [])].join('; ');
  const pairs: string[] = [];
  for (const [key, imports] of edges) {
    const [from, to] = key.split(' → ') as [string, string];
    const back = edges.get(`${to} → ${from}`);
    if (!back || from > to) continue;
    const [first, second] = back.length < imports.length ? [back, imports] : [imports, back];
    pairs.push(`${from} ⇄ ${to}: ${listed(first)} | ${listed(second)}`);
  }
  return pairs;
}

const shipped = ['app', 'components', 'lib']
  .flatMap((dir) => [...sourceFiles(dir)])
  .concat(['proxy.ts', 'instrumentation.ts', 'instrumentation-node.ts'])
  .filter((file) => !file.startsWith('lib/architecture/'));

describe('the layers', () => {
  it('gives every shipped file a floor', () => {
    expect(shipped.length).toBeGreaterThan(200);
    expect(shipped.filter((file) => floorOf(file) === undefined)).toEqual([]);
    const count = (floor: Floor) => shipped.filter((file) => floorOf(file) === floor).length;
    for (const floor of FLOORS) expect(count(floor), floor).toBeGreaterThan(0);
  });

  it('are kept: no shipped file imports a floor above its own', () => {
    expect(shipped.flatMap((file) => upwardImports(file, read(file)))).toEqual([]);
  });

  it('leave no two lib/ folders importing each other', () => {
    expect(cyclicFolderPairs(shipped.map((file) => ({ file, source: read(file) })))).toEqual([]);
  });

  it('name every server action file actions.ts, and nothing else so', () => {
    const serverActionFiles = shipped.filter((file) => /^['"]use server['"]/m.test(read(file)));
    expect(serverActionFiles.length).toBeGreaterThan(5);
    expect(serverActionFiles.filter((file) => path.basename(file) !== 'actions.ts')).toEqual([]);
    expect(shipped.filter((file) => path.basename(file) === 'actions.ts' && !serverActionFiles.includes(file))).toEqual([]);
  });

  it('catch an upward import in any form: alias, relative, type-only, re-export and lazy import', () => {
    expect(upwardImports('lib/db/staff-tables.ts', "import { STAFF_ROLES } from '@/lib/auth/roles';")).toEqual([
      'lib/db/staff-tables.ts → @/lib/auth/roles (ground may not import identity)',
    ]);
    expect(upwardImports('lib/env.ts', "import { canonicalTimeZone } from './time/time-zone';")).toHaveLength(1);
    expect(upwardImports('lib/verification-service/types.ts', "import type { Label } from '@/lib/verifications/labels';")).toHaveLength(1);
    expect(upwardImports('lib/time/display-time.ts', "export { recordAudit } from '../audit/audit';")).toHaveLength(1);
    expect(upwardImports('lib/auth/auth.ts', "const staff = await import('@/lib/staff/staff-accounts');")).toHaveLength(1);
    expect(upwardImports('lib/audit/audit.ts', "import { ROLE_LABELS } from '@/lib/auth/roles';")).toHaveLength(1);
    expect(upwardImports('lib/staff/staff-accounts.ts', "import { x } from '@/lib/staff/accounts/actions';")).toHaveLength(1);
    expect(upwardImports('lib/forms/form-state.ts', "import type { Staff } from '@/lib/auth/session';")).toHaveLength(1);
    expect(upwardImports('components/ui/button.tsx', "import Page from '@/app/(dashboard)/page';")).toHaveLength(1);
    expect(upwardImports('lib/platform/log.ts', "import { getEnv } from '@/lib/env';")).toHaveLength(1);
  });

  it('report an import of a place without a floor rather than let it pass', () => {
    expect(upwardImports('lib/auth/auth.ts', "import { x } from '@/lib/newfolder/thing';")).toEqual([
      'lib/auth/auth.ts → @/lib/newfolder/thing (no floor for lib/newfolder/thing)',
    ]);
  });

  it('let each floor use its own and the ones below', () => {
    const source = [
      "import { z } from 'zod';",
      "import { formAction } from '@/lib/auth/form-action';",
      "import type { FormState } from '@/lib/forms/form-state';",
      "import { createVerification } from '../create/create-verification.server';",
      "import { getDb } from '@/lib/db';",
    ].join('\n');
    expect(upwardImports('lib/verifications/review/actions.ts', source)).toEqual([]);
    expect(upwardImports('lib/auth/sign-in/actions.ts', "import { textField } from '@/lib/forms/action-input';")).toEqual([]);
    expect(upwardImports('components/staff/x.tsx', "import { createStaffAction } from '@/lib/staff/accounts/actions';")).toEqual([]);
    expect(upwardImports('instrumentation-node.ts', "import { claimSetupAtStart } from './lib/auth/setup';")).toEqual([]);
    expect(upwardImports('lib/export/audit-export.ts', "import { auditConditions } from '@/lib/audit-trail/queries.server';")).toEqual([]);
  });

  it('find folders that import each other, through any form of import', () => {
    const files = [
      { file: 'lib/auth/setup.ts', source: "import { insertStaff } from '@/lib/staff/staff-accounts';" },
      { file: 'lib/staff/staff-accounts.ts', source: "import type { StaffRole } from '../auth/roles';" },
      { file: 'lib/env.ts', source: "import { canonicalTimeZone } from './time/time-zone';" },
      { file: 'lib/time/display-zone.ts', source: "const env = await import('@/lib/env');" },
      { file: 'lib/db/index.ts', source: "import { getEnv } from '@/lib/env';" },
    ];
    expect(cyclicFolderPairs(files)).toEqual([
      'auth ⇄ staff: lib/auth/setup.ts → @/lib/staff/staff-accounts | lib/staff/staff-accounts.ts → ../auth/roles',
      'env ⇄ time: lib/env.ts → ./time/time-zone | lib/time/display-zone.ts → @/lib/env',
    ]);
  });
});
