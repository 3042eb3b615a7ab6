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
