// The Content-Security-Policy of every page: scripts and styles only from this origin or with
// the request's nonce ('strict-dynamic': only scripts Next.js marks with the nonce, and what
// they load, may run), nothing framing the page, no plugins, no <base>, forms posting home.

export function contentSecurityPolicy(nonce: string, { dev }: { dev: boolean }): string {
  return [
    `default-src 'self'`,
    // React's dev tooling evaluates code; production never needs 'unsafe-eval' or 'unsafe-inline'.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? ` 'unsafe-eval'` : ''}`,
    `style-src 'self' 'nonce-${nonce}'`,
    `img-src 'self' data:`,
    `font-src 'self'`,
    `connect-src 'self'`,
    `frame-ancestors 'none'`,
    `object-src 'none'`,
    `base-uri 'none'`,
    `form-action 'self'`,
  ].join('; ');
}
