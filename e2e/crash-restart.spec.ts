// A hard kill under load (docs/quality.md, "A hard kill loses nothing"): staff create requests
// through the dashboard's create action, many at a time, while the server (`next start` of the
// production build, embedded sandbox, its own data directory and port) is killed with SIGKILL,
// its whole process group, and started again at once. The restart must come up (the lock left by
// the killed server is taken over, not waited for), and every create the server acknowledged
// (answered with its id) must still be there afterwards: the service's record, readable through
// the API, and the dashboard's register entry with its audit event. One kill proves it: a second
// only repeated it (takeovers of killed owners' locks, many times over: lib/platform/process-lock.test.ts).
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { runCli, seed } from './kit/cli.mjs';
import { isListening } from './kit/ports.mjs';
import { sandboxServerEnv } from './kit/server.mjs';
import { newWebhookSecret } from './kit/webhook-secret.mjs';
import { newDataDir } from './support/data-dirs';
import { type NextServer, startNextServer } from './support/next-server';
import { portFor } from './support/ports';
import { listServerActions, multipartActionCall, replayAction } from './support/server-actions';

const PORT = portFor(81);
const KILLS = 1;
// Creates in flight at any moment, and how many each life of the server acknowledges before its
// kill (counted, not timed: the kill always lands in the middle of a steady load).
const IN_FLIGHT = 12;
const ACKNOWLEDGED_PER_LIFE = 20;
const OPERATOR = { email: 'cora.crash@example.com', password: 'crash-operator-password', name: 'Cora Crash', role: 'operator' };
const TAKEN_OVER = 'took over the lock on the data directory from a process that no longer runs';
const IN_USE = 'the data directory is in use';

type Acknowledged = { id: string; name: string; life: number };

test('killed with SIGKILL under creates: the restart comes up at once and no acknowledged create is lost', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(300_000);
  const dataDir = newDataDir('crash');
  const [company, dashboardKey] = seed(dataDir, [
    { sandbox: ['company:create', '--name', 'Crash company'] },
    { sandbox: ['key:create', '--company', '$0.companyId'] },
    { staff: OPERATOR },
  ]);
  const env = {
    ...sandboxServerEnv({
      port: PORT,
      apiKey: dashboardKey.apiKey,
      webhookSecret: newWebhookSecret(),
    }),
    // The load is the point: lift the per-staff create limit and the per-key limit (their own tests cover them).
    CREATE_RATE_LIMIT_PER_MINUTE: '10000',
    SANDBOX_RATE_LIMIT_PER_MINUTE: '1000000',
  };
  const start = async () => {
    const started = Date.now();
    const server = await startNextServer({ port: PORT, dataDir, env });
    return { server, ms: Date.now() - started };
  };

  let server: NextServer | undefined;
  let api: APIRequestContext | undefined;
  try {
    const first = await start();
    server = first.server;
    const startMs = [first.ms];

    // Signed in through the real sign-in page; the creates then go out as the create form's
    // action calls, from a request context with the same cookies (no browser needed per call).
    const context = await browser.newContext({ baseURL: server.url, storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    await page.goto('/sign-in');
    await page.getByLabel('E-mail address').fill(OPERATOR.email);
    await page.getByLabel('Password').fill(OPERATOR.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('signed-in-as')).toHaveText(OPERATOR.name);
    api = await playwright.request.newContext({ baseURL: server.url, storageState: await context.storageState() });
    const actionId = listServerActions().find((action) => action.name === 'createVerificationAction')!.id;

    const acknowledged: Acknowledged[] = [];
    // Not acknowledged: cut off by the kill (no answer), or answered without an id (refused).
    const notAcknowledged = { cutOff: 0, refused: 0 };
    let serial = 0;
    const createOne = async (life: number) => {
      const n = serial++;
      const name = `Crash Person ${life}-${n}`;
      const call = multipartActionCall(
        actionId,
        '/verifications/new',
        [{ status: 'idle', submissionKey: randomUUID() }, '$K1'],
        [
          { name: 'submissionKey', value: randomUUID() },
          { name: 'name', value: name },
          { name: 'email', value: `crash.${n}@example.com` },
          { name: 'purpose', value: 'legal_obligations' },
          { name: 'customPurpose', value: '' },
          { name: 'language', value: 'en' },
          { name: 'emailNotification', value: 'on' },
          { name: 'phone', value: '' },
        ],
      );
      try {
        const response = await replayAction(api!, server!.url, call, { origin: server!.url });
        const text = await response.text();
        const id = /"status":"created".*?"verificationId":"([^"]+)"/s.exec(text)?.[1];
        if (response.status() === 200 && id) acknowledged.push({ id, name, life });
        else notAcknowledged.refused++;
      } catch {
        // The server died with this request in flight: not acknowledged, so nothing is owed.
        notAcknowledged.cutOff++;
      }
    };

    for (let life = 1; life <= KILLS; life++) {
      const before = acknowledged.length;
      const loading = { on: true };
      const workers = Array.from({ length: IN_FLIGHT }, async () => {
        while (loading.on) await createOne(life);
      });
      await expect
        .poll(() => acknowledged.length - before, { timeout: 60_000, intervals: [50] })
        .toBeGreaterThanOrEqual(ACKNOWLEDGED_PER_LIFE);

      // SIGKILL to the whole process group, with creates in flight; then a new server at once.
      const killed = server;
      process.kill(-killed.pid, 'SIGKILL');
      await killed.exited;
      loading.on = false;
      await Promise.all(workers);
      expect(acknowledged.length - before, `creates acknowledged in life ${life}`).toBeGreaterThan(0);
      // Only until the killed process's socket is closed; the lock is not waited for.
      await expect.poll(() => isListening(PORT), { timeout: 30_000 }).toBe(false);

      const restarted = await start();
      server = restarted.server;
      startMs.push(restarted.ms);
      expect(server.output(), 'the restart took over the killed server’s lock').toContain(TAKEN_OVER);
      expect(server.output()).not.toContain(IN_USE);
    }

    // Every acknowledged create: the service's record, through the API of the restarted server.
    const auth = { Authorization: `Bearer ${company.apiKey}` };
    const unreadable: string[] = [];
    for (let i = 0; i < acknowledged.length; i += 25) {
      await Promise.all(
        acknowledged.slice(i, i + 25).map(async ({ id, name }) => {
          const response = await fetch(`${server!.url}/v1/verifications/${encodeURIComponent(id)}`, { headers: auth });
          const record = response.ok ? ((await response.json()) as { inputted_name?: string }) : undefined;
          if (record?.inputted_name !== name) unreadable.push(`${id} (${response.status})`);
        }),
      );
    }
    // One of them in the register as staff see it.
    const sample = acknowledged[0]!;
    await page.goto(`/?q=${encodeURIComponent(sample.name)}`);
    await expect(page.getByRole('row').filter({ hasText: sample.id })).toBeVisible();
    await context.close();

    // The dashboard's own records, read from the data directory once the server has stopped.
    await server.stop();
    const stored = runCli<{ register: Array<{ verificationId: string; name: string }>; created: string[] }>(
      'e2e/support/register-report.ts',
      [],
      { dataDir },
    );
    const register = new Map(stored.register.map((row) => [row.verificationId, row.name]));
    const audited = new Set(stored.created);
    const notRegistered = acknowledged.filter(({ id, name }) => register.get(id) !== name).map(({ id }) => id);
    const notAudited = acknowledged.filter(({ id }) => !audited.has(id)).map(({ id }) => id);

    const summary = `${acknowledged.length} creates acknowledged (${Array.from({ length: KILLS }, (_, i) => i + 1)
      .map((l) => acknowledged.filter((a) => a.life === l).length)
      .join(
        ' + ',
      )}), ${notAcknowledged.cutOff} cut off by a kill, ${notAcknowledged.refused} answered without an id, ${KILLS} kill${KILLS === 1 ? '' : 's'}; starts took ${startMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')} (the first, then each restart); lost: ${unreadable.length} service records, ${notRegistered.length} register entries, ${notAudited.length} audit events`;
    test.info().annotations.push({ type: 'crash test', description: summary });
    console.log(summary);
    expect(unreadable, summary).toEqual([]);
    expect(notRegistered, summary).toEqual([]);
    expect(notAudited, summary).toEqual([]);
    expect(new Set(acknowledged.map((a) => a.id)).size, 'one id per acknowledged create').toBe(acknowledged.length);
  } finally {
    await api?.dispose();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
