// A server action's body is capped at 1 MB as it streams in, on the real production server:
// a slow 12 MB chunked POST with a Next-Action header is answered 413 after about 1 MB was
// sent (the rest is never read, and the connection is closed), a declared Content-Length over
// 1 MB is answered before its body is sent, and the server keeps serving. The requests are
// written on a raw socket, to see when the answer comes relative to what was sent.
import { expect, test } from '@playwright/test';
import { slowUpload } from '../test/support/slow-upload';
import { BASE_PORT } from './support/ports';

const MB = 1024 * 1024;
const TOO_LARGE = 'The form is too large to send: at most 1 MB is accepted.';
// Any id: the limit is checked before Next looks the action up.
const ACTION_HEADERS = { 'Next-Action': '7f'.repeat(21), 'Content-Type': 'text/plain;charset=UTF-8', Accept: 'text/x-component' };

test.use({ storageState: { cookies: [], origins: [] } });

test.describe('server-action body limit (1 MB, counted as it streams)', () => {
  test('a slow 12 MB chunked body is refused with 413 after about 1 MB, and the connection is closed', async () => {
    const result = await slowUpload({
      host: 'localhost',
      port: BASE_PORT,
      path: '/verifications/new',
      headers: ACTION_HEADERS,
      framing: 'chunked',
      total: 12 * MB,
    });
    test.info().annotations.push({ type: 'bytes sent when answered', description: String(result.sentWhenAnswered) });
    expect(result.status, result.answer || result.error).toBe(413);
    expect(result.answer).toContain(TOO_LARGE);
    // No client may send another request on this connection: the body's rest is still in the way.
    expect(result.answer.toLowerCase()).toContain('connection: close');
    // The server stopped reading past the limit: the client only filled the kernel's buffers.
    expect(result.sentWhenAnswered).toBeGreaterThan(MB);
    expect(result.sentWhenAnswered).toBeLessThan(6 * MB);
    expect(result.sent).toBeLessThan(6 * MB);
    expect(result.closed).toBe(true);
  });

  test('a declared Content-Length over 1 MB is refused before its body is sent', async () => {
    const result = await slowUpload({
      host: 'localhost',
      port: BASE_PORT,
      path: '/verifications/new',
      headers: ACTION_HEADERS,
      framing: 'content-length',
      total: 12 * MB,
      // Slowly enough that the answer comes long before the 12 MB could be sent.
      pauseMs: 20,
    });
    expect(result.status, result.answer || result.error).toBe(413);
    expect(result.answer).toContain(TOO_LARGE);
    expect(result.sentWhenAnswered).toBeLessThan(6 * MB);
    expect(result.closed).toBe(true);
  });

  test('a no-JavaScript form post of 12 MB is capped alike', async () => {
    const result = await slowUpload({
      host: 'localhost',
      port: BASE_PORT,
      path: '/verifications/new',
      headers: { 'Content-Type': 'multipart/form-data; boundary=----capped' },
      framing: 'chunked',
      total: 12 * MB,
    });
    expect(result.status, result.answer || result.error).toBe(413);
    expect(result.sent).toBeLessThan(6 * MB);
  });

  test('the server keeps serving: health, pages and a server action within the limit', async ({ request }) => {
    expect((await request.get('/api/health')).status()).toBe(200);
    expect((await request.get('/sign-in')).status()).toBe(200);
    // A well-formed call just under the limit reaches Next's action handling (an unknown action:
    // not a 413, and not a hang).
    const body = `["${'a'.repeat(MB - 16)}"]`;
    const response = await request.post('/verifications/new', { headers: ACTION_HEADERS, data: body, failOnStatusCode: false });
    expect(response.status()).not.toBe(413);
    expect(response.status()).toBeLessThan(500);
  });
});
