// Command line for the sandbox's companies and API keys. On the embedded store, for use while no
// server runs (the server holds the data directory); with DATABASE_URL, beside running servers:
//   npm run sandbox -- company:create --name NAME [--token-validity S] [--retention S] [--audit-retention S]
//   npm run sandbox -- company:list
//   npm run sandbox -- key:create --company ID
//   npm run sandbox -- webhook:add --company ID --url URL
//   npm run sandbox -- webhook:list --company ID
//   npm run sandbox -- webhook:disable --endpoint ID
// Results go to stdout as JSON lines (scripts read them), everything else to stderr.
import 'server-only';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { runAsProgram } from '@/lib/platform/cli-program';
import { DataDirInUseError } from '@/lib/platform/embedded-database';
import { getSandboxDb } from '@/lib/sandbox/db';
import {
  addWebhookEndpoint,
  disableWebhookEndpoint,
  InvalidWebhookEndpointError,
  listWebhookEndpoints,
  parseEndpointUrl,
} from '@/lib/sandbox/webhook-sender/endpoints';
import { issueApiKey } from './api-keys';
import { createCompany, getCompany, listCompanies, MAX_SETTING_SECONDS } from './companies';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
/** The data directory is held by a running server; nothing was changed. */
export const EXIT_DATA_DIR_IN_USE = 2;
/** sysexits' EX_USAGE: the command line itself is wrong. */
export const EXIT_USAGE = 64;

export const USAGE = `Usage: npm run sandbox -- <command> [options]

Commands:
  company:create --name NAME [--token-validity SECONDS] [--retention SECONDS] [--audit-retention SECONDS]
      Creates a company and an API key for it; prints {"companyId","apiKey"}.
      Defaults: token validity 7 days, retention 30 days, audit retention 90 days.
  company:list
      Prints one JSON line per company (API keys are never shown again).
  key:create --company ID
      Issues another API key for a company; prints {"companyId","apiKey"}.
  webhook:add --company ID --url URL
      Adds a webhook endpoint (http or https) for a company; prints {"endpointId","secret"}.
      The secret (whsec_…) verifies the signatures; it is shown only here.
  webhook:list --company ID
      Prints one JSON line per webhook endpoint of a company (secrets are never shown).
  webhook:disable --endpoint ID
      Stops deliveries to an endpoint; what was still waiting for it is marked failed.

With DATABASE_URL it works while servers run, and company:create is how a sandbox serving several
instances is provisioned (give them VERIFICATION_API_URL and the printed key as VERIFICATION_API_KEY).
On the embedded store, run it while the server is stopped: the server holds the data directory
(DATA_DIR, default ./data).`;

export type CliOutput = { out: (line: string) => void; err: (line: string) => void };

class UsageError extends Error {}

const COMMANDS = {
  'company:create': {
    name: { type: 'string' },
    'token-validity': { type: 'string' },
    retention: { type: 'string' },
    'audit-retention': { type: 'string' },
  },
  'company:list': {},
  'key:create': { company: { type: 'string' } },
  'webhook:add': { company: { type: 'string' }, url: { type: 'string' } },
  'webhook:list': { company: { type: 'string' } },
  'webhook:disable': { endpoint: { type: 'string' } },
} satisfies Record<string, NonNullable<ParseArgsConfig['options']>>;

type Command = keyof typeof COMMANDS;

function isCommand(value: string | undefined): value is Command {
  return value !== undefined && Object.hasOwn(COMMANDS, value);
}

function seconds(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < 1 || parsed > MAX_SETTING_SECONDS) {
    throw new UsageError(`--${flag} must be a whole number of seconds between 1 and ${MAX_SETTING_SECONDS}`);
  }
  return parsed;
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A `--company ID` (or `--endpoint ID`) value, checked and lower-cased. */
function idOption(command: Command, flag: 'company' | 'endpoint', value: string | undefined): string {
  const id = value?.trim().toLowerCase();
  if (!id) throw new UsageError(`${command} needs --${flag} ID`);
  if (!UUID_PATTERN.test(id)) {
    throw new UsageError(
      flag === 'company'
        ? '--company must be a company id (a UUID, see company:list)'
        : '--endpoint must be an endpoint id (a UUID, see webhook:list)',
    );
  }
  return id;
}

/** Runs one command; returns the exit code. Does not close the database (the entry point does). */
export async function runCli(argv: string[], output: CliOutput): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    output.out(USAGE);
    return EXIT_OK;
  }
  try {
    if (!isCommand(command)) {
      throw new UsageError(command === undefined ? 'No command given' : `Unknown command: ${command}`);
    }
    let values: Record<string, unknown>;
    try {
      ({ values } = parseArgs({ args: rest, options: COMMANDS[command], strict: true, allowPositionals: false }));
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    // Everything about the command line is checked before the database is opened.
    const text = (flag: string) => {
      const value = values[flag];
      return typeof value === 'string' ? value : undefined;
    };

    if (command === 'company:create') {
      const name = text('name')?.trim();
      if (!name) throw new UsageError('company:create needs --name NAME');
      if (name.length > 200) throw new UsageError('--name must be at most 200 characters');
      const settings = {
        tokenValiditySeconds: seconds('token-validity', text('token-validity')),
        verificationRetentionSeconds: seconds('retention', text('retention')),
        auditLogRetentionSeconds: seconds('audit-retention', text('audit-retention')),
      };
      const db = await getSandboxDb({ waitForLockMs: 0 });
      const issued = await db.transaction(async (tx) => {
        const company = await createCompany(tx, { name, ...settings });
        return issueApiKey(tx, { companyId: company.id, label: 'cli (company:create)' });
      });
      output.out(JSON.stringify({ companyId: issued.companyId, apiKey: issued.apiKey }));
      return EXIT_OK;
    }

    if (command === 'company:list') {
      const db = await getSandboxDb({ waitForLockMs: 0 });
      for (const company of await listCompanies(db)) {
        output.out(
          JSON.stringify({
            companyId: company.id,
            name: company.name,
            isDefault: company.isDefault,
            tokenValiditySeconds: company.tokenValiditySeconds,
            verificationRetentionSeconds: company.verificationRetentionSeconds,
            auditLogRetentionSeconds: company.auditLogRetentionSeconds,
            createdAt: company.createdAt.toISOString(),
          }),
        );
      }
      return EXIT_OK;
    }

    if (command === 'webhook:add') {
      const companyId = idOption(command, 'company', text('company'));
      const rawUrl = text('url');
      if (!rawUrl?.trim()) throw new UsageError('webhook:add needs --url URL');
      let url: string;
      try {
        url = parseEndpointUrl(rawUrl);
      } catch (error) {
        if (error instanceof InvalidWebhookEndpointError) throw new UsageError(`--${error.message}`);
        throw error;
      }
      const db = await getSandboxDb({ waitForLockMs: 0 });
      const endpoint = await db.transaction(async (tx) => {
        if (!(await getCompany(tx, companyId))) return undefined;
        return addWebhookEndpoint(tx, { companyId, url });
      });
      if (!endpoint) {
        output.err(`No company with id ${companyId} (see company:list)`);
        return EXIT_FAILURE;
      }
      output.out(JSON.stringify({ endpointId: endpoint.id, secret: endpoint.secret }));
      return EXIT_OK;
    }

    if (command === 'webhook:list') {
      const companyId = idOption(command, 'company', text('company'));
      const db = await getSandboxDb({ waitForLockMs: 0 });
      if (!(await getCompany(db, companyId))) {
        output.err(`No company with id ${companyId} (see company:list)`);
        return EXIT_FAILURE;
      }
      for (const endpoint of await listWebhookEndpoints(db, companyId)) {
        output.out(
          JSON.stringify({
            endpointId: endpoint.id,
            url: endpoint.url,
            isDefault: endpoint.isDefault,
            createdAt: endpoint.createdAt.toISOString(),
            disabledAt: endpoint.disabledAt?.toISOString() ?? null,
          }),
        );
      }
      return EXIT_OK;
    }

    if (command === 'webhook:disable') {
      const endpointId = idOption(command, 'endpoint', text('endpoint'));
      const db = await getSandboxDb({ waitForLockMs: 0 });
      if (!(await db.transaction((tx) => disableWebhookEndpoint(tx, { endpointId })))) {
        output.err(`No active webhook endpoint with id ${endpointId} (see webhook:list)`);
        return EXIT_FAILURE;
      }
      output.out(JSON.stringify({ endpointId, disabled: true }));
      return EXIT_OK;
    }

    const companyId = idOption(command, 'company', text('company'));
    const db = await getSandboxDb({ waitForLockMs: 0 });
    const issued = await db.transaction(async (tx) => {
      if (!(await getCompany(tx, companyId))) return undefined;
      return issueApiKey(tx, { companyId, label: 'cli (key:create)' });
    });
    if (!issued) {
      output.err(`No company with id ${companyId} (see company:list)`);
      return EXIT_FAILURE;
    }
    output.out(JSON.stringify({ companyId: issued.companyId, apiKey: issued.apiKey }));
    return EXIT_OK;
  } catch (error) {
    if (error instanceof UsageError) {
      output.err(`${error.message}\n\n${USAGE}`);
      return EXIT_USAGE;
    }
    if (error instanceof DataDirInUseError) {
      output.err(`Refusing to run: ${error.message}. Stop the server first, then run this command again.`);
      return EXIT_DATA_DIR_IN_USE;
    }
    output.err(`Failed: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_FAILURE;
  }
}

await runAsProgram(import.meta.url, runCli);
