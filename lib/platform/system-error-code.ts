// The system error code behind a failed HTTP call (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET…).
// Node's http gives it on the error itself; fetch wraps it, sometimes twice, so the cause chain
// is followed a few levels.
// Only a code-shaped token is returned, never free text from below: callers put it in messages
// and logs. Shared by the dashboard's service client and the sandbox's webhook sender, which
// both talk HTTP and must tell "nothing listens there" from other failures.

export function systemErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
