// Body limits on the real production server (lib/cli/server.mjs as a process, over real sockets),
// with a stand-in for Next.js behind it (test/support/stand-in-next) that reads every body to its
// end, as Next does with bodies it has no use for. What must hold: every POST is answered 413
// (or 405 where nothing takes a POST) after about its limit was sent, not after all of it, the
// connection is then closed and the app never sees the request; bodies within the limit reach the
// app whole. (The real app answers 413 to every action: e2e/bad-input.spec.ts.)
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_ACTION_BODY_LIMIT_BYTES, TOO_LARGE_MESSAGE } from '@/lib/proxy/server-action-gate';
import { MAX_BODY_BYTES as SANDBOX_MAX_BODY_BYTES } from '@/lib/sandbox/config';
import { MAX_WEBHOOK_BODY_BYTES } from '@/lib/webhook-receiver/verify';
import { freePort } from '@/test/support/free-port';
import { slowUpload } from '@/test/support/slow-upload';
import {
  FORM_BODY_LIMIT_BYTES,
  FORM_TOO_LARGE_MESSAGE,
  SANDBOX_API_BODY_LIMIT_BYTES,
  WEBHOOK_BODY_LIMIT_BYTES,
} from './request-perimeter.mjs';

const MB = 1024 * 1024;
const KB = 1024;
const HOOKS = pathToFileURL(path.join(process.cwd(), 'test/support/stand-in-next/hooks.mjs')).href;
const MULTIPART = { 'Content-Type': 'multipart/form-data; boundary=----perimeter' };
const OCTETS = { 'Content-Type': 'application/octet-stream' };
const JSON_BODY = { 'Content-Type': 'application/json' };

let server: ChildProcess;
let port = 0;
let output = '';

/** The requests that reached the app behind the server, as the stand-in printed them. */
function reached(url: string): Array<{ reached: string; method: string; received: number }> {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{"reached"'))
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.reached === url);
}

beforeAll(async () => {
  port = await freePort();
  server = spawn(
    process.execPath,
    [`--import=data:text/javascript,import{register}from"node:module";register(${JSON.stringify(HOOKS)})`, 'lib/cli/server.mjs'],
    {
      cwd: process.cwd(),
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const listening = new Promise<void>((resolve, reject) => {
    const keep = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Listening on')) resolve();
    };
    server.stdout?.on('data', keep);
    server.stderr?.on('data', keep);
    server.once('exit', (code) => reject(new Error(`the server exited (${code}):\n${output}`)));
  });
  await listening;
});

afterAll(async () => {
  if (server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
});

const upload = (path: string, headers: Record<string, string>, framing: 'chunked' | 'content-length', total: number) =>
  slowUpload({ host: '127.0.0.1', port, path, headers, framing, total });

/** A refusal sent early: the client could only fill the kernel's buffers before the answer. */
function expectRefusedEarly(result: Awaited<ReturnType<typeof upload>>, status: number, url: string) {
  expect(result.status, result.answer || result.error).toBe(status);
  expect(result.answer.toLowerCase()).toContain('connection: close');
  expect(result.sentWhenAnswered).toBeLessThan(6 * MB);
  expect(result.sent).toBeLessThan(6 * MB);
  expect(result.closed).toBe(true);
  expect(reached(url)).toEqual([]);
}

describe('lib/cli/server.mjs body limits', () => {
  it('the limits are those of the app behind it', () => {
    expect(FORM_BODY_LIMIT_BYTES).toBe(SERVER_ACTION_BODY_LIMIT_BYTES);
    expect(FORM_TOO_LARGE_MESSAGE).toBe(TOO_LARGE_MESSAGE);
    expect(WEBHOOK_BODY_LIMIT_BYTES).toBe(MAX_WEBHOOK_BODY_BYTES);
    expect(SANDBOX_API_BODY_LIMIT_BYTES).toBe(SANDBOX_MAX_BODY_BYTES);
  });

  it('a 30 MB multipart POST to /sign-out/x: 413 after about 1 MB, declared or chunked', async () => {
    for (const framing of ['content-length', 'chunked'] as const) {
      const result = await upload('/sign-out/x', MULTIPART, framing, 30 * MB);
      expectRefusedEarly(result, 413, '/sign-out/x');
      expect(result.answer).toContain(TOO_LARGE_MESSAGE);
    }
  });

  it('a 30 MB POST to /api/xyz or /v1/xyz: 405 at once, the body unread', async () => {
    for (const url of ['/api/xyz', '/v1/xyz', '/api/health', '/v1/verifications']) {
      const result = await upload(url, MULTIPART, 'chunked', 30 * MB);
      expectRefusedEarly(result, 405, url);
      expect(result.answer).toMatch(/allow: GET, HEAD/i);
    }
  });

  it('a 200 MB application/octet-stream POST to /verifications or /sign-in: 413 after about 1 MB', async () => {
    expectRefusedEarly(await upload('/verifications', OCTETS, 'content-length', 200 * MB), 413, '/verifications');
    expectRefusedEarly(await upload('/sign-in', OCTETS, 'chunked', 200 * MB), 413, '/sign-in');
  });

  it('the webhook receiver and the sandbox API: 413 past their own 64 KB, in their JSON shape', async () => {
    const webhook = await upload('/api/webhooks/verification-service', JSON_BODY, 'chunked', 30 * MB);
    expectRefusedEarly(webhook, 413, '/api/webhooks/verification-service');
    expect(webhook.answer).toContain('{"error":"Webhook body too large."}');
    const sandbox = await upload('/v1/verifications/new', JSON_BODY, 'content-length', 30 * MB);
    expectRefusedEarly(sandbox, 413, '/v1/verifications/new');
    expect(sandbox.answer).toContain('{"error":"Request body is too large (limit 64 KB)"}');
  });

  it('any other method with a body: 405, the body unread', async () => {
    const result = await slowUpload({
      host: '127.0.0.1',
      port,
      path: '/verifications',
      headers: OCTETS,
      framing: 'chunked',
      total: 30 * MB,
      method: 'PUT',
    });
    expectRefusedEarly(result, 405, '/verifications');
  });

  it('a client waiting for "100 Continue" with a body over the limit gets the 413 instead', async () => {
    const result = await upload('/sign-in', { ...OCTETS, Expect: '100-continue' }, 'content-length', 30 * MB);
    expect(result.answer.startsWith('HTTP/1.1 413')).toBe(true);
    expectRefusedEarly(result, 413, '/sign-in');
  });

  it('bodies within their limits reach the app whole, chunked or declared, and the connection stays open', async () => {
    for (const [url, headers, framing, total] of [
      ['/verifications/new', MULTIPART, 'chunked', FORM_BODY_LIMIT_BYTES],
      ['/sign-out', MULTIPART, 'content-length', 10 * KB],
      ['/api/webhooks/verification-service', JSON_BODY, 'chunked', WEBHOOK_BODY_LIMIT_BYTES],
      ['/v1/verifications/new', JSON_BODY, 'content-length', SANDBOX_API_BODY_LIMIT_BYTES],
    ] as const) {
      const result = await slowUpload({ host: '127.0.0.1', port, path: url, headers, framing, total, pauseMs: 0, closeWaitMs: 200 });
      expect(result.status, `${url}: ${result.answer}`).toBe(200);
      expect(result.answer).toContain(`received ${total}`);
      expect(result.closed).toBe(false);
      expect(reached(url).at(-1)).toMatchObject({ method: 'POST', received: total });
    }
  });

  it('the server keeps serving afterwards', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get(`http://127.0.0.1:${port}/sign-in`, (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        })
        .on('error', reject);
    });
    expect(status).toBe(200);
  });
});
