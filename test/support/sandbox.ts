// Helpers for the sandbox's tests: an in-memory sandbox, companies with keys, and requests
// built the way a real client sends them, aimed at the actual route handlers.
import { expect } from 'vitest';
import { issueApiKey } from '@/lib/sandbox/admin/api-keys';
import { type CompanySettings, createCompany } from '@/lib/sandbox/admin/companies';
import { getSandboxDb, type SandboxDb } from '@/lib/sandbox/db';

/** Points the sandbox at a fresh in-memory database and switches it on. */
export async function useInMemorySandbox(): Promise<SandboxDb> {
  process.env.DATA_DIR = 'memory://';
  process.env.SANDBOX = 'on';
  delete process.env.APP_URL;
  return getSandboxDb();
}

export type TestCompany = { companyId: string; apiKey: string };

export async function createTestCompany(db: SandboxDb, settings: Partial<CompanySettings> & { name?: string } = {}): Promise<TestCompany> {
  const company = await createCompany(db, { name: settings.name ?? 'Test company', ...settings });
  const { apiKey } = await issueApiKey(db, { companyId: company.id, label: 'test' });
  return { companyId: company.id, apiKey };
}

export const API = 'http://localhost/v1/verifications';

/** A POST to /v1/verifications/new; a string body is sent as is, anything else as JSON. */
export function createRequest(
  body: unknown,
  { apiKey, headers = {} }: { apiKey?: string; headers?: Record<string, string> } = {},
): Request {
  return new Request(`${API}/new`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export function getRequest(url: string, apiKey?: string, headers: Record<string, string> = {}): Request {
  return new Request(url, {
    headers: { ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}), ...headers },
  });
}

/** The route context Next passes to a dynamic route handler. */
export function idParams(id: string): { params: Promise<{ id: string }> } {
  return { params: Promise.resolve({ id }) };
}

/** Contract §7: the status, and a body that is exactly `{ "error": message }`, not cacheable. */
export async function expectError(response: Response, status: number, message: string | RegExp): Promise<void> {
  const body = (await response.json()) as Record<string, unknown>;
  expect({ status: response.status, body }).toEqual({
    status,
    body: { error: typeof message === 'string' ? message : expect.stringMatching(message) },
  });
  expect(Object.keys(body)).toEqual(['error']);
  expect(response.headers.get('cache-control')).toBe('no-store, no-transform');
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
}

/** A valid creation body; tests override or remove single fields. */
export function validBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    email: 'jane.doe@example.com',
    name: 'Jane Doe',
    chosenPurpose: 'legal_obligations',
    language: 'en',
    ...overrides,
  };
}

export function without(body: Record<string, unknown>, field: string): Record<string, unknown> {
  const copy = { ...body };
  delete copy[field];
  return copy;
}

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
