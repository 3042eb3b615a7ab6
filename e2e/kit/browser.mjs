// @ts-check
// The Chromium the harness drives (Playwright's specs, the bench, the load test): CHROMIUM_PATH,
// then Playwright's own download, then Debian's package. Playwright cannot download browsers on
// every machine, so the error says how to get one.
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

/** The Chromium binary to launch (a path, also when it is Playwright's own). */
export function findChromium() {
  let bundled;
  try {
    bundled = chromium.executablePath();
  } catch {}
  const found = [process.env.CHROMIUM_PATH, bundled, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && existsSync(p));
  if (!found) {
    throw new Error(
      'No Chromium found. Set CHROMIUM_PATH, run `npx playwright install chromium`, or on Debian/Ubuntu `apt-get install chromium`.',
    );
  }
  return found;
}

/** Flags for a headless Chromium on a shared machine, as root: quiet, nothing fetched in the background. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
