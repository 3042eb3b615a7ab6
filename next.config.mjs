import createNextIntlPlugin from 'next-intl/plugin';

// Headers every response carries, whatever answers it: a page, a route handler, a static file or
// the proxy itself (its redirects and refusals). The Content-Security-Policy here is the strictest
// one, right for JSON, event streams and files, which never run script; proxy.ts replaces it on
// pages with a policy holding that request's nonce. Being static, these cost nothing per request,
// which lets the proxy skip API calls altogether (see its matcher).
const SECURITY_HEADERS = [
  { key: 'Content-Security-Policy', value: "default-src 'none'; frame-ancestors 'none'" },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'X-Frame-Options', value: 'DENY' },
];

// Behind a TLS-terminating proxy (the way this app is served over HTTPS) browsers are told to
// keep to HTTPS. Not over plain HTTP: a loopback or LAN deployment must stay reachable.
const HSTS = { key: 'Strict-Transport-Security', value: 'max-age=31536000; includeSubDomains' };

/** @type {import('next').NextConfig} */
const nextConfig = {
  // The service contract has `GET /v1/verifications/` (trailing slash, missing id) answer 400 (§4.2 rule 3);
  // Next's default 308 redirect to the slash-less path would hide that from API clients.
  skipTrailingSlashRedirect: true,
  poweredByHeader: false,
  async headers() {
    return [
      { source: '/:path*', headers: SECURITY_HEADERS },
      { source: '/:path*', has: [{ type: 'header', key: 'x-forwarded-proto', value: 'https' }], headers: [HSTS] },
    ];
  },
  // forbidden() renders app/forbidden.tsx with a 403 for pages a role may not see.
  experimental: {
    authInterrupts: true,
    // Turbopack keeps a build cache in .next/cache (Next 16.4's default), so the next build is
    // quicker. The test build (e2e/support/build-with-canaries.mjs) is thrown away after one run,
    // with canary secrets, and skips it: writing it costs about 20 s of a two-core machine.
    turbopackFileSystemCacheForBuild: process.env.BUILD_CACHE !== 'off',
    // Next's default, stated so it stays equal to SERVER_ACTION_BODY_LIMIT in
    // lib/proxy/server-action-gate.ts, whose proxy check answers 413 before Next would answer 500.
    serverActions: { bodySizeLimit: '1mb' },
    // How much of a request body Next copies for the proxy (default 10 MB). Past it, Next silently
    // cuts the copy short, so it must exceed the gate's 1 MB by one piece as the socket delivers it
    // (Node reads at most 64 KiB at a time): then a body over the limit shows as such to the gate.
    // lib/proxy/server-action-body-cap.ts stops a server action's body there anyway.
    proxyClientMaxBodySize: 1024 * 1024 + 64 * 1024,
  },
  // PGlite ships its own wasm and data files; bundling it breaks their lookup.
  serverExternalPackages: ['@electric-sql/pglite', 'pdfkit'],
};

// next-intl finds each request's language and messages in app/i18n-request.ts.
const withNextIntl = createNextIntlPlugin('./app/i18n-request.ts');

export default withNextIntl(nextConfig);
