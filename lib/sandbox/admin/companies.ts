// The companies that call the sandbox, each with its own settings for token validity and
// retention (the "organization's settings" of contract §8).
import 'server-only';
import { asc, eq } from 'drizzle-orm';
import type { SandboxDb, SandboxTx } from '@/lib/sandbox/db';
import { companies } from '@/lib/sandbox/schema';

type Queryable = SandboxDb | SandboxTx;

export type Company = typeof companies.$inferSelect;

export type CompanySettings = {
  /** How long the person's link stays usable. */
  tokenValiditySeconds: number;
  /** How long verification data is kept before the purge (the record's kept_until). */
  verificationRetentionSeconds: number;
  /** How long the sandbox keeps its API audit log for this company. */
  auditLogRetentionSeconds: number;
};

/** Largest value the integer columns hold (about 68 years). */
export const MAX_SETTING_SECONDS = 2_147_483_647;

export type NewCompany = { name: string; isDefault?: boolean } & Partial<CompanySettings>;

export class InvalidCompanyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidCompanyError';
  }
}

function checkSeconds(field: string, value: number | undefined): void {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value < 1 || value > MAX_SETTING_SECONDS) {
    throw new InvalidCompanyError(`${field} must be a whole number of seconds between 1 and ${MAX_SETTING_SECONDS}`);
  }
}

/** Creates a company; settings left out take the schema's defaults (7, 30 and 90 days). */
export async function createCompany(db: Queryable, input: NewCompany): Promise<Company> {
  const name = input.name.trim();
  if (name.length < 1 || name.length > 200) throw new InvalidCompanyError('name must be 1 to 200 characters');
  checkSeconds('tokenValiditySeconds', input.tokenValiditySeconds);
  checkSeconds('verificationRetentionSeconds', input.verificationRetentionSeconds);
  checkSeconds('auditLogRetentionSeconds', input.auditLogRetentionSeconds);
  const [company] = await db
    .insert(companies)
    .values({
      id: crypto.randomUUID(),
      name,
      isDefault: input.isDefault ?? false,
      tokenValiditySeconds: input.tokenValiditySeconds,
      verificationRetentionSeconds: input.verificationRetentionSeconds,
      auditLogRetentionSeconds: input.auditLogRetentionSeconds,
    })
    .returning();
  return company!;
}

export async function getCompany(db: Queryable, id: string): Promise<Company | undefined> {
  const [company] = await db.select().from(companies).where(eq(companies.id, id)).limit(1);
  return company;
}

/** The company the zero-config dashboard is wired to, if provisioning has created it. */
export async function getDefaultCompany(db: Queryable): Promise<Company | undefined> {
  const [company] = await db.select().from(companies).where(eq(companies.isDefault, true)).orderBy(asc(companies.createdAt)).limit(1);
  return company;
}

export async function listCompanies(db: Queryable): Promise<Company[]> {
  return db.select().from(companies).orderBy(asc(companies.createdAt), asc(companies.name));
}

/** Changes some of a company's settings (validated like at creation). */
export async function updateCompanySettings(db: Queryable, id: string, settings: Partial<CompanySettings>): Promise<void> {
  checkSeconds('tokenValiditySeconds', settings.tokenValiditySeconds);
  checkSeconds('verificationRetentionSeconds', settings.verificationRetentionSeconds);
  checkSeconds('auditLogRetentionSeconds', settings.auditLogRetentionSeconds);
  if (Object.values(settings).every((value) => value === undefined)) return;
  await db.update(companies).set(settings).where(eq(companies.id, id));
}
