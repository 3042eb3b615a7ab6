// The Content-Security-Policy of every page: scripts and styles only from this origin or with
// the request's nonce ('strict-dynamic': only scripts Next.js marks with the nonce, and what
// they load, may run), nothing framing the page, no plugins, no <base>, forms posting home —
// and, with single sign-on, on to the company's provider: the sign-in button's form posts home
// and is redirected there, and the browser checks that redirect against form-action too.

export function contentSecurityPolicy(nonce: string, { dev, formTargets = [] }: { dev: boolean; formTargets?: string[] }): string {
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
    `form-action ${["'self'", ...formTargets].join(' ')}`,
  ].join('; ');
}

/**
 * Where forms may lead besides this site: the single sign-on provider's origin (from OIDC_ISSUER,
 * read raw here because the proxy runs before lib/env; an unusable value gives nothing, and the
 * server refuses to start with it anyway).
 */
export function singleSignOnFormTargets(source: Record<string, string | undefined>): string[] {
  const issuer = source.OIDC_ISSUER?.trim();
  if (!issuer || !URL.canParse(issuer)) return [];
  const { protocol, origin } = new URL(issuer);
  return protocol === 'https:' || protocol === 'http:' ? [origin] : [];
}
