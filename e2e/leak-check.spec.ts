// The last browser test of a run (project `leak-check`, after every other one): over the whole
// run, no secret reached the browser or a log, and no personal data reached a log (docs/quality.md,
// "Secrets"). It reads what the run captured: everything each server printed
// (e2e/support/serve-with-log.mjs, next-server.ts) and every exchange the browser made, bodies
// decompressed (e2e/support/recording-proxy.mjs). The shared server ran with a canary
// BETTER_AUTH_SECRET; its sandbox generated the API key and webhook secret at start, so those are
// looked for by shape, at full length. The captures must be substantial, so the check cannot pass
// because nothing was captured.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import canaries from './support/canaries.json' with { type: 'json' };
import { RECORDING_PROXY_PORT, serverLogsDir, trafficDir } from './support/captures';
import { SEEDED, STAFF } from './support/staff';

type Exchange = {
  id: number;
  method: string;
  url: string;
  status?: number;
  refused?: boolean;
  /** A CONNECT tunnel (Playwright's API client): its bytes both ways are kept raw. */
  tunnel?: boolean;
  requestHeaders?: Record<string, string | string[]>;
  responseHeaders?: Record<string, string | string[]>;
  requestBody: string | null;
  responseBody: string | null;
  responseBytes: number;
  responseEncoding?: string | null;
  responseDecoded?: boolean;
};

const dataDir = process.env.E2E_DATA_DIR ?? '';

/** Values that must appear nowhere: the canaries, and the API key of the second company the run created. */
const SECRET_VALUES = [...Object.values(canaries as Record<string, string>), process.env.E2E_OTHER_COMPANY_KEY].filter(
  (value): value is string => !!value,
);

/** Secrets of the run that are not known in advance, by their shape at full length. */
const SECRET_SHAPES: Array<[string, RegExp]> = [
  ['an API key', /vd_sk_[A-Za-z0-9_-]{43}/g],
  ['a webhook secret', /whsec_[A-Za-z0-9+/]{32,}={0,2}/g],
  ['a Bearer credential', /Bearer\s+[A-Za-z0-9._~+/=-]{16,}/g],
];

/** Personal data in any form (logs only: pages show it to staff on purpose). */
const PERSONAL_SHAPES: Array<[string, RegExp]> = [
  ['an e-mail address', /[\w.!#$%&'*+/=?^`{|}~-]+(?:@|%40)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/gi],
  ['a phone number', /(?:\+|%2B)\d(?:[ ().-]?\d){6,14}/gi],
];

/** The people the browser tests type in (fixtures' uniqueName bases) and the staff accounts. */
function personNames(): string[] {
  const names = new Set<string>([...Object.values(STAFF), ...Object.values(SEEDED)].map((staff) => staff.name));
  for (const file of readdirSync('e2e').filter((name) => name.endsWith('.spec.ts'))) {
    for (const [, base] of readFileSync(path.join('e2e', file), 'utf8').matchAll(/uniqueName\('([^']+)'\)/g)) {
      // Two words at least: a single short word would match ordinary text.
      if (base && /\S+ \S+/.test(base)) names.add(base);
    }
  }
  return [...names];
}

function findings(text: string, where: string, { personal }: { personal: boolean }): string[] {
  const found: string[] = [];
  for (const value of SECRET_VALUES) if (text.includes(value)) found.push(`${where}: the secret ${value.slice(0, 10)}…`);
  const shapes = personal ? [...SECRET_SHAPES, ...PERSONAL_SHAPES] : SECRET_SHAPES;
  for (const [what, pattern] of shapes) {
    for (const match of text.matchAll(pattern)) found.push(`${where}: ${what} (${match[0].slice(0, 12)}…)`);
  }
  if (personal) for (const name of personNames()) if (text.includes(name)) found.push(`${where}: the name ${name}`);
  return found;
}

/**
 * Exchanges still flowing: event streams of pages some spec left open (their browser lives until
 * its worker ends). Streams of closed pages are finished as their connections close, so give
 * those a moment; what stays open is scanned as far as it got (headers here, bodies on disk).
 */
async function stillOpenExchanges(): Promise<Exchange[]> {
  const status = async () =>
    ((await (await fetch(`http://127.0.0.1:${RECORDING_PROXY_PORT}/__recorder/status`)).json()) as { open: Exchange[] }).open;
  const deadline = Date.now() + 5_000;
  let open = await status();
  while (open.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    open = await status();
  }
  return open;
}

test('no secret and no personal data in any server log of the run', () => {
  const dir = serverLogsDir(dataDir);
  const files = readdirSync(dir).filter((name) => name.endsWith('.log'));
  expect(files).toContain('server.log');

  const problems: string[] = [];
  let lines = 0;
  let structured: Array<Record<string, unknown>> = [];
  for (const file of files) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    const fileLines = text.split('\n').filter((line) => line.trim() !== '');
    lines += fileLines.length;
    fileLines.forEach((line, index) => {
      problems.push(...findings(line, `${file}:${index + 1}`, { personal: true }));
    });
    structured = structured.concat(
      fileLines.flatMap((line) => {
        if (!line.startsWith('{')) return [];
        try {
          return [JSON.parse(line) as Record<string, unknown>];
        } catch {
          return [];
        }
      }),
    );
  }
  test.info().annotations.push({
    type: 'scanned',
    description: `${lines} log lines in ${files.length} files, ${structured.length} of them from lib/platform/log`,
  });
  console.log(`leak-check: ${lines} log lines in ${files.length} files (${structured.length} JSON lines from lib/platform/log)`);

  // Not vacuous: the servers said something, and lib/platform/log worked inside the production bundle.
  expect.soft(lines).toBeGreaterThan(20);
  expect.soft(structured.some((record) => record.area === 'verifications' && record.msg === 'verification created')).toBe(true);
  expect.soft(structured.some((record) => record.area === 'webhooks' && record.msg === 'webhook applied')).toBe(true);

  expect(problems).toEqual([]);
});

test('no secret anywhere in the browser traffic of the run', async () => {
  const open = await stillOpenExchanges();
  const dir = trafficDir(dataDir);
  const exchanges = readFileSync(path.join(dir, 'traffic.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Exchange);

  const problems: string[] = [];
  const bodies = new Map<string, string>(); // hash → where it was first seen
  for (const exchange of exchanges) {
    const where = `#${exchange.id} ${exchange.method} ${exchange.url}`;
    problems.push(...findings(exchange.url, `${where} URL`, { personal: false }));
    problems.push(...findings(JSON.stringify(exchange.requestHeaders ?? {}), `${where} request headers`, { personal: false }));
    problems.push(...findings(JSON.stringify(exchange.responseHeaders ?? {}), `${where} response headers`, { personal: false }));
    if (exchange.requestBody && !bodies.has(exchange.requestBody)) bodies.set(exchange.requestBody, `${where} request body`);
    if (exchange.responseBody && !bodies.has(exchange.responseBody)) bodies.set(exchange.responseBody, `${where} response body`);
  }
  let bodyBytes = 0;
  for (const [hash, where] of bodies) {
    const content = readFileSync(path.join(dir, 'bodies', hash), 'latin1');
    bodyBytes += content.length;
    problems.push(...findings(content, where, { personal: false }));
  }
  // Streams still open: their URL and headers from the proxy, their bodies on disk as they flowed.
  for (const exchange of open) {
    const where = `#${exchange.id} ${exchange.method} ${exchange.url} (still open)`;
    problems.push(
      ...findings(
        `${exchange.url} ${JSON.stringify(exchange.requestHeaders ?? {})} ${JSON.stringify(exchange.responseHeaders ?? {})}`,
        where,
        { personal: false },
      ),
    );
  }
  for (const partial of readdirSync(path.join(dir, 'bodies')).filter((name) => name.endsWith('.partial'))) {
    problems.push(...findings(readFileSync(path.join(dir, 'bodies', partial), 'latin1'), `in-flight body ${partial}`, { personal: false }));
  }

  const forwarded = exchanges.filter((exchange) => !exchange.refused && !exchange.tunnel);
  const tunnels = exchanges.filter((exchange) => !exchange.refused && exchange.tunnel);
  const ports = new Set(forwarded.map((exchange) => new URL(exchange.url).port));
  const eventStreams = forwarded.filter((exchange) =>
    String(exchange.responseHeaders?.['content-type'] ?? '').startsWith('text/event-stream'),
  );
  const serverActions = forwarded.filter(
    (exchange) => exchange.method === 'POST' && exchange.requestHeaders?.['next-action'] && exchange.requestBody,
  );
  const encoded = forwarded.filter((exchange) => exchange.responseEncoding && exchange.responseEncoding !== 'identity');
  const refused = exchanges.filter((exchange) => exchange.refused).map((exchange) => `${exchange.method} ${exchange.url}`);
  const summary = `${forwarded.length} browser exchanges and ${tunnels.length} tunnels of Playwright's API client (${ports.size} servers, ${eventStreams.length} event streams, ${serverActions.length} server-action POSTs, ${encoded.length} compressed responses), ${bodies.size} distinct bodies of ${bodyBytes} bytes; still open: ${open.length} (${[...new Set(open.map((exchange) => (exchange.tunnel ? exchange.url : new URL(exchange.url).pathname)))].join(', ')}); refused: ${refused.length} (to ${[...new Set(refused.map((request) => request.replace(/^\S+ (https?:\/\/)?/, '').split(/[/:?]/)[0]))].join(', ')})`;
  test.info().annotations.push({ type: 'scanned', description: summary });
  console.log(`leak-check: ${summary}`);

  // Not vacuous: the proxy saw the whole run — pages of the shared and the extra servers, live
  // event streams that carried events, server actions with their arguments.
  expect.soft(forwarded.length).toBeGreaterThan(500);
  expect.soft(ports.size).toBeGreaterThan(1);
  expect
    .soft(
      eventStreams.some(
        (exchange) =>
          exchange.responseBytes > 0 &&
          exchange.responseBody !== null &&
          readFileSync(path.join(dir, 'bodies', exchange.responseBody), 'utf8').includes('data:'),
      ),
    )
    .toBe(true);
  expect.soft(serverActions.length).toBeGreaterThan(10);
  // Every compressed body was read decompressed, or a secret in it could hide from the scan.
  expect
    .soft(encoded.filter((exchange) => !exchange.responseDecoded).map((exchange) => `${exchange.url} (${exchange.responseEncoding})`))
    .toEqual([]);
  // Only requests to other machines are refused; everything local went through.
  expect.soft(refused.filter((request) => /(^CONNECT |\/\/)(localhost|127\.0\.0\.1|\[::1\])[:/]/.test(request))).toEqual([]);
  expect.soft(existsSync(path.join(dir, 'bodies'))).toBe(true);

  expect(problems).toEqual([]);
});
