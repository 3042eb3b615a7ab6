// Builds the app for the browser tests with a recognisable canary value in every secret, so
// e2e/secrets.spec.ts can show none of them ends up in the build. The secrets are read at run
// time only; the server the tests start gets its own. Without Turbopack's build cache
// (next.config.mjs): this build is used for one run and thrown away.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const canaries = JSON.parse(readFileSync(new URL('./canaries.json', import.meta.url), 'utf8'));
const result = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], {
  stdio: 'inherit',
  env: { ...process.env, ...canaries, BUILD_CACHE: 'off' },
});
process.exit(result.status ?? 1);
