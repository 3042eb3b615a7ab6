// Types of cli.mjs for the TypeScript specs (the project's tsconfig does not read JavaScript).

export interface Staff {
  email: string;
  role: string;
  password: string;
  name: string;
}

export interface CliOptions {
  dataDir: string;
  /** Variables set for the CLI on top of what it inherits (e.g. the server's DATABASE_URL). */
  env?: Record<string, string>;
  /** Called with an undo that kills the CLI; returns the function that unregisters it. */
  register?: (undo: () => void) => () => unknown;
  /** Written to the CLI's standard input (a password for --password-stdin). */
  input?: string;
}

/** A step of e2e/support/seed.ts: a sandbox CLI command (`$N.field` names a field of step N's result), a staff account, or a disabled one. */
export type SeedStep =
  | { sandbox: string[] }
  | { staff: { email: string; role: string; name: string; password?: string } }
  | { disable: string };

// biome-ignore lint/suspicious/noExplicitAny: each step's result has its own shape; callers name it.
export function seed(dataDir: string, steps: SeedStep[], env?: Record<string, string>): any[];
export function createStaffUsers(dataDir: string, staff: Staff[], env?: Record<string, string>): Array<{ id: string }>;
export function runCli<T = unknown>(
  script: string,
  args: string[],
  options: { dataDir: string; env?: Record<string, string>; input?: string },
): T;
export function runCliAsync<T = unknown>(script: string, args: string[], options: CliOptions): Promise<T>;
export function createCompany(dataDir: string, name: string): { companyId: string; apiKey: string };
export function createApiKey(dataDir: string, companyId: string): { apiKey: string };
export function createStaffUser(dataDir: string, staff: Staff): { id: string };
export function createCompanyAsync(name: string, options: CliOptions): Promise<{ companyId: string; apiKey: string }>;
export function createStaffUserAsync(staff: Staff, options: CliOptions): Promise<{ id: string }>;
