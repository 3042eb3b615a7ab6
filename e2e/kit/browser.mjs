// @ts-check
// The Chromium the harness drives. The browser tests use a headless shell when one is installed:
// the same engine without the full browser's user interface, and about a third less CPU on a
// 2-core machine, where Chromium is most of what the suite spends. The bench, the load test and
// Lighthouse measure what staff get, so they drive the full browser.
import { existsSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';

const HOW_TO_GET_ONE = 'Set CHROMIUM_PATH, run `npx playwright install chromium`, or on Debian/Ubuntu `apt-get install chromium`.';

/** The full Chromium (a path, also when it is Playwright's own): CHROMIUM_PATH, Playwright's download, Debian's. */
export function findChromium() {
  let bundled;
  try {
    bundled = chromium.executablePath();
  } catch {}
  const found = [process.env.CHROMIUM_PATH, bundled, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && existsSync(p));
  if (!found) throw new Error(`No Chromium found. ${HOW_TO_GET_ONE}`);
  return found;
}

/**
 * The browser for the browser tests: CHROMIUM_PATH when set (an explicit choice wins), then a
 * headless shell (Playwright's download, or Debian's `chromium-headless-shell`), then the full
 * Chromium as findChromium finds it.
 */
export function findHeadlessChromium() {
  if (process.env.CHROMIUM_PATH) return findChromium();
  const shell = [playwrightHeadlessShell(), '/usr/bin/chromium-headless-shell'].find((p) => p && existsSync(p));
  return shell ?? findChromium();
}

/** `~/.cache/ms-playwright/chromium_headless_shell-<rev>/chrome-headless-shell-linux64/chrome-headless-shell`, if downloaded. */
function playwrightHeadlessShell() {
  const cache = process.env.PLAYWRIGHT_BROWSERS_PATH || path.join(os.homedir(), '.cache', 'ms-playwright');
  try {
    const revisions = readdirSync(cache)
      .filter((name) => name.startsWith('chromium_headless_shell-'))
      .sort()
      .reverse();
    for (const revision of revisions) {
      const binary = path.join(cache, revision, 'chrome-headless-shell-linux64', 'chrome-headless-shell');
      if (existsSync(binary)) return binary;
    }
  } catch {}
  return undefined;
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
