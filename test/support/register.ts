// Test support only: register rows around a fixed clock, on an in-memory PGlite database that
// holds the two staff members who create them. Shared by the register's query and write tests.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { getDb } from '@/lib/db';
import { staffUsers, verificationRequests } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';

export const HOUR = 60 * 60 * 1000;
export const DAY = 24 * HOUR;
export const NOW = new Date('2030-06-15T12:00:00.000Z');
export const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);

export const ADA = 'staff-ada';
export const OTTO = 'staff-otto';

type Row = typeof verificationRequests.$inferInsert;

let sequence = 0;
/** A register row: pending, created by Ada an hour before NOW, valid for seven days. */
export function row(overrides: Partial<Row> & { verificationId: string }): Row {
  sequence += 1;
  return {
    name: `Person ${sequence}`,
    purpose: 'legal_obligations',
    language: 'en',
    shareableLink: true,
    emailNotification: false,
    smsNotification: false,
    link: `https://svc.example/v/${overrides.verificationId}`,
    status: 'pending',
    createdBy: ADA,
    createdAt: at(-HOUR),
    accessExpiresAt: at(7 * DAY - HOUR),
    keptUntil: at(30 * DAY),
    ...overrides,
  };
}

export async function insert(...rows: Row[]): Promise<void> {
  await (await getDb()).insert(verificationRequests).values(rows);
}

/** Opens the database with Ada and Otto for the calling test file, and empties the register before each test. */
export function setUpRegisterDatabase(): void {
  beforeAll(async () => {
    process.env.DATA_DIR = 'memory://';
    resetEnv();
    const db = await getDb();
    await db.insert(staffUsers).values([
      { id: ADA, name: 'Ada Admin', email: 'ada@example.com', role: 'admin' },
      { id: OTTO, name: 'Otto Operator', email: 'otto@example.com', role: 'operator' },
    ]);
  });

  beforeEach(async () => {
    await (await getDb()).delete(verificationRequests);
  });

  afterAll(async () => {
    await closeDatabases();
  });
}
