// Server actions as an attacker sees them: public POST endpoints addressed by an id. These
// helpers list every action the production build contains, capture the exact requests a real
// browser sends for them (without letting them reach the server), and replay those requests
// with whatever cookie and Origin a test chooses.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, APIResponse, Page, Request, Route } from '@playwright/test';

export interface ServerAction {
  id: string;
  /** The exported name, e.g. createVerificationAction. */
  name: string;
  file: string;
  /** The pages whose bundles reference the action, as URL paths ("/verifications/[id]"). */
  pages: string[];
}

type Manifest = {
  node: Record<string, { workers: Record<string, unknown>; filename?: string; exportedName?: string }>;
};

/** Every server action of the current build, from Next's own manifest (so a new one is not missed). */
export function listServerActions(): ServerAction[] {
  const manifest = JSON.parse(readFileSync(path.resolve('.next/server/server-reference-manifest.json'), 'utf8')) as Manifest;
  return Object.entries(manifest.node).map(([id, entry]) => ({
    id,
    name: entry.exportedName ?? '(unknown)',
    file: entry.filename ?? '(unknown)',
    pages: Object.keys(entry.workers).map(workerToPath),
  }));
}

/** The id of a server action of the build, by its function name; says so when the build lacks it. */
export function actionId(name: string): string {
  const action = listServerActions().find((candidate) => candidate.name === name);
  if (!action) throw new Error(`No ${name} in .next/server/server-reference-manifest.json: is the build current?`);
  return action.id;
}

/** "app/(dashboard)/verifications/new/page" → "/verifications/new". */
function workerToPath(worker: string): string {
  const segments = worker
    .replace(/^app\//, '')
    .replace(/\/?page$/, '')
    .split('/')
    .filter((segment) => segment !== '' && !/^\(.*\)$/.test(segment));
  return `/${segments.join('/')}`;
}

export interface CapturedAction {
  actionId: string;
  /** 'fetch': called by React with the Next-Action header; 'form': a no-JavaScript form POST. */
  kind: 'fetch' | 'form';
  /** Path and query the browser posted to. */
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Records every server-action POST the page sends and aborts it, so the server never sees the
 * original: only the replays a test makes reach it. Returns the live list of captures.
 */
export async function interceptServerActions(page: Page): Promise<{ captured: CapturedAction[]; stop(): Promise<void> }> {
  const captured: CapturedAction[] = [];
  const handler = async (route: Route, request: Request) => {
    if (request.method() !== 'POST') return route.fallback();
    const headers = await request.allHeaders();
    const body = request.postDataBuffer() ?? Buffer.alloc(0);
    const fetchId = headers['next-action'];
    // A progressively enhanced form names its action inside the body instead of a header.
    const formId = fetchId ? undefined : /"id":"([0-9a-f]{40,})"/.exec(body.toString('latin1'))?.[1];
    if (!fetchId && !(formId && body.includes('$ACTION_'))) return route.fallback();
    const url = new URL(request.url());
    captured.push({ actionId: (fetchId ?? formId)!, kind: fetchId ? 'fetch' : 'form', path: url.pathname + url.search, headers, body });
    await route.abort();
  };
  await page.route('**/*', handler);
  return { captured, stop: () => page.unroute('**/*', handler) };
}

/** A handcrafted call of an action that takes plain values (what React sends when no FormData is involved). */
export function plainActionCall(actionId: string, pagePath: string, args: unknown[]): CapturedAction {
  return {
    actionId,
    kind: 'fetch',
    path: pagePath,
    headers: { 'next-action': actionId, 'content-type': 'text/plain;charset=UTF-8', accept: 'text/x-component' },
    body: Buffer.from(JSON.stringify(args)),
  };
}

/**
 * A handcrafted `useActionState` call, [previousState, formData], encoded as React's reply
 * encoder does: the form's fields under the prefix "_1_", then the root array as part "0".
 */
export function formActionCall(actionId: string, pagePath: string, previousState: unknown, fields: Record<string, string>): CapturedAction {
  return multipartCall(actionId, pagePath, [previousState, '$K1'], fields);
}

/** A call of an action that takes the form's data alone (a plain `<form action={…}>`, no state). */
export function formDataActionCall(actionId: string, pagePath: string, fields: Record<string, string>): CapturedAction {
  return multipartCall(actionId, pagePath, ['$K1'], fields);
}

function multipartCall(actionId: string, pagePath: string, root: unknown[], fields: Record<string, string>): CapturedAction {
  const boundary = `----access-control-${Math.random().toString(36).slice(2)}`;
  const parts = [...Object.entries(fields).map(([key, value]) => [`_1_${key}`, value] as const), ['0', JSON.stringify(root)] as const];
  const body = Buffer.from(
    parts.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('') +
      `--${boundary}--\r\n`,
  );
  return {
    actionId,
    kind: 'fetch',
    path: pagePath,
    headers: { 'next-action': actionId, 'content-type': `multipart/form-data; boundary=${boundary}`, accept: 'text/x-component' },
    body,
  };
}

// Headers that belong to the original connection or identify the original sender; a replay
// sets its own (the request context adds its cookies, if it has any).
const DROPPED = new Set(['cookie', 'host', 'content-length', 'connection', 'origin', 'referer', 'accept-encoding']);

/**
 * Sends a captured action again. `origin` is the Origin header to claim (omit it to send
 * none); cookies come only from `api` — a context without storage state sends none.
 */
export async function replayAction(
  api: APIRequestContext,
  baseUrl: string,
  action: CapturedAction,
  { origin }: { origin?: string },
): Promise<APIResponse> {
  const headers = Object.fromEntries(Object.entries(action.headers).filter(([name]) => !DROPPED.has(name.toLowerCase())));
  if (origin) headers.origin = origin;
  return api.post(new URL(action.path, baseUrl).toString(), { headers, data: action.body, maxRedirects: 0, failOnStatusCode: false });
}

export interface FormPart {
  name: string;
  value: string | Buffer;
  /** Sent as a file upload when set, e.g. where the action expects a text field. */
  filename?: string;
}

/**
 * A handcrafted call whose arguments include one FormData, as React's reply encoder sends it:
 * `args` is the root array (reference the FormData as '$K1'), and each part goes under the
 * prefix "_1_" (React's decoder reads `_<id>_<key>`). Parts may repeat a name or be files, which
 * a browser never sends for our forms but anybody can.
 */
export function multipartActionCall(actionId: string, pagePath: string, args: unknown[], parts: FormPart[]): CapturedAction {
  const boundary = `----bad-input-${Math.random().toString(36).slice(2)}`;
  const chunks: Buffer[] = [];
  const all: FormPart[] = [...parts.map((part) => ({ ...part, name: `_1_${part.name}` })), { name: '0', value: JSON.stringify(args) }];
  for (const part of all) {
    const file = part.filename === undefined ? '' : `; filename="${part.filename}"\r\nContent-Type: application/octet-stream`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${file}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value, 'utf8'));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    actionId,
    kind: 'fetch',
    path: pagePath,
    headers: { 'next-action': actionId, 'content-type': `multipart/form-data; boundary=${boundary}`, accept: 'text/x-component' },
    body: Buffer.concat(chunks),
  };
}
