/** @type {import('next').NextConfig} */
const nextConfig = {
  // The seed contract has `GET /v1/verifications/` (trailing slash, missing id) answer 400;
  // Next's default 308 redirect to the slash-less path would hide that from API clients.
  skipTrailingSlashRedirect: true,
  poweredByHeader: false,
  // forbidden() renders app/forbidden.tsx with a 403 for pages a role may not see.
  experimental: {
    authInterrupts: true,
    // Next's default, stated so it stays equal to SERVER_ACTION_BODY_LIMIT in
    // lib/server-action-gate.ts, whose proxy check answers 413 before Next would answer 500.
    serverActions: { bodySizeLimit: '1mb' },
  },
  // PGlite ships its own wasm and data files; bundling it breaks their lookup.
  serverExternalPackages: ['@electric-sql/pglite', 'proper-lockfile'],
};

export default nextConfig;
