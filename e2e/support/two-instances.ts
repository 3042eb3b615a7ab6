// Two instances of the production build on one PostgreSQL, behind a round-robin proxy: the
// deployment the issue describes ("two or more instances behind a load balancer"), on loopback,
// for e2e/two-instances.spec.ts and the two-instance load run.
//
//   - a throwaway PostgreSQL from the machine's binaries (test/support/postgres-server.ts);
//   - the sandbox company, its keys and the webhook endpoint provisioned with the project's own
//     CLI against DATABASE_URL before any instance starts (zero-config provisioning is
//     single-instance, so with DATABASE_URL an operator does it this way);
//   - instances `a` and `b` (lib/cli/server.mjs, the same build), each with its own data directory
//     but one DATABASE_URL, one BETTER_AUTH_SECRET and one webhook secret; both run the embedded
//     sandbox, and both reach "the service" and receive its webhooks through the proxy, so those
//     calls are spread over both as well;
//   - the proxy (e2e/support/round-robin-proxy.ts), whose address is the deployment's APP_URL.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startPostgresServer } from '../../test/support/postgres-server';
import { runCli, seed } from '../kit/cli.mjs';
import { type NextServer, startNextServer } from '../kit/server.mjs';
import canaries from './canaries.json' with { type: 'json' };
import { type RoundRobinProxy, startRoundRobinProxy } from './round-robin-proxy';

export type InstanceName = 'a' | 'b';

export type Staff = { email: string; password: string; name: string; role: 'admin' | 'operator' | 'viewer' };

export type TwoInstancesOptions = {
  /** The proxy's port; the instances take the next two. */
  basePort: number;
  staff: Staff[];
  /** Variables both instances get on top of the deployment's own (limits, sweep interval, …). */
  env?: Record<string, string>;
  /** Where each instance's output is appended (`<dir>/instance-<name>.log`), e.g. for the leak check. */
  logsDir?: string;
  /** A second sandbox company whose links run out after this many seconds (for the sweeper). */
  shortLivedCompanySeconds?: number;
};

export type TwoInstances = {
  /** The proxy: the deployment's public address. */
  url: string;
  proxy: RoundRobinProxy;
  databaseUrl: string;
  instances: Record<InstanceName, { port: number; url: string; server: () => NextServer | undefined }>;
  /** The dashboard's sandbox company, and a key the tests may use as another client of it. */
  company: { companyId: string; apiKey: string };
  shortLivedCompany?: { companyId: string; apiKey: string };
  webhookSecret: string;
  /** SIGKILL to the instance's whole process group; resolves once it is gone. */
  kill(name: InstanceName): Promise<void>;
  /** Starts the instance again (same port, data directory and settings); resolves once it serves. */
  start(name: InstanceName): Promise<NextServer>;
  /** PostgreSQL down (same port kept) and up again. */
  haltDatabase(): void;
  resumeDatabase(): void;
  /** Runs one of the project's CLIs against the deployment's database. */
  cli<T>(script: string, args: string[]): T;
  stop(): Promise<void>;
};

export const SANDBOX_CLI = 'lib/sandbox/admin/cli.ts';
export const STAFF_CLI = 'lib/staff/cli.ts';

export async function startTwoInstances({
  basePort,
  staff,
  env = {},
  logsDir,
  shortLivedCompanySeconds,
}: TwoInstancesOptions): Promise<TwoInstances> {
  const cleanups: Array<() => unknown> = [];
  const stopAll = async () => {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch {
        // Stop the rest regardless.
      }
    }
    cleanups.length = 0;
  };
  try {
    const postgres = await startPostgresServer();
    cleanups.push(() => postgres.stop());
    const root = mkdtempSync(path.join(os.tmpdir(), 'verification-desk-two-'));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));

    const proxyPort = basePort;
    const ports: Record<InstanceName, number> = { a: basePort + 1, b: basePort + 2 };
    const publicUrl = `http://localhost:${proxyPort}`;
    // What every process of the deployment shares; each instance adds its own data directory.
    const shared = {
      DATABASE_URL: postgres.url,
      BETTER_AUTH_SECRET: canaries.BETTER_AUTH_SECRET,
      AUDIT_SIGNING_KEY: canaries.AUDIT_SIGNING_KEY,
    };
    const cli = <T>(script: string, args: string[], input = '') =>
      runCli<T>(script, args, { dataDir: path.join(root, 'cli'), env: shared, input });

    // The migrations run here, in one process (e2e/support/seed.ts), before any instance starts.
    const [company, { apiKey: dashboardKey }, endpoint, ...rest] = seed(
      path.join(root, 'cli'),
      [
        { sandbox: ['company:create', '--name', 'Two-instance company'] },
        { sandbox: ['key:create', '--company', '$0.companyId'] },
        {
          sandbox: ['webhook:add', '--company', '$0.companyId', '--url', `http://127.0.0.1:${proxyPort}/api/webhooks/verification-service`],
        },
        ...(shortLivedCompanySeconds === undefined
          ? []
          : [{ sandbox: ['company:create', '--name', 'Short-lived links company', '--token-validity', String(shortLivedCompanySeconds)] }]),
        ...staff.map((member) => ({ staff: member })),
      ],
      shared,
    );
    const shortLivedCompany: { companyId: string; apiKey: string } | undefined =
      shortLivedCompanySeconds === undefined ? undefined : rest[0];

    const proxy = await startRoundRobinProxy({ port: proxyPort, instances: { a: { port: ports.a }, b: { port: ports.b } } });
    cleanups.push(() => proxy.stop());

    const servers: Partial<Record<InstanceName, NextServer>> = {};
    const start = async (name: InstanceName) => {
      const server = await startNextServer({
        port: ports[name],
        dataDir: path.join(root, `instance-${name}`),
        env: {
          ...shared,
          APP_URL: publicUrl,
          SANDBOX: 'on',
          // "The service" is the deployment's own sandbox, behind the same balancer.
          VERIFICATION_API_URL: `http://127.0.0.1:${proxyPort}`,
          VERIFICATION_API_KEY: dashboardKey,
          WEBHOOK_SECRET: endpoint.secret,
          ...env,
        },
        logFile: logsDir ? path.join(logsDir, `instance-${name}.log`) : undefined,
        outputLimit: 200_000,
        timeoutMs: 120_000,
      });
      servers[name] = server;
      return server;
    };
    cleanups.push(() => Promise.all(Object.values(servers).map((server) => server?.stop())));
    // Together, as a deployment's instances start: the migrations' lock and the once-only start-up work are part of what is tested.
    await Promise.all([start('a'), start('b')]);

    return {
      url: publicUrl,
      proxy,
      databaseUrl: postgres.url,
      instances: {
        a: { port: ports.a, url: `http://localhost:${ports.a}`, server: () => servers.a },
        b: { port: ports.b, url: `http://localhost:${ports.b}`, server: () => servers.b },
      },
      company,
      shortLivedCompany,
      webhookSecret: endpoint.secret,
      async kill(name) {
        const server = servers[name];
        if (!server) return;
        try {
          process.kill(-server.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
        await server.exited;
        servers[name] = undefined;
      },
      start,
      haltDatabase: () => postgres.halt(),
      resumeDatabase: () => postgres.resume(),
      cli,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
