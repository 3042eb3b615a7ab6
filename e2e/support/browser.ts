// Finds a Chromium for Playwright: CHROMIUM_PATH, then Playwright's own download, then
// Debian's package. Playwright cannot download browsers on every machine, so say how to get one.
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

export function findChromium(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, safePlaywrightPath(), '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((candidate): candidate is string => !!candidate && existsSync(candidate));
  if (!found) {
    throw new Error(
      'No Chromium found for the browser tests. Set CHROMIUM_PATH, run `npx playwright install chromium`, ' +
        'or on Debian/Ubuntu `apt-get install chromium`.',
    );
  }
  // Playwright's own browser needs no executablePath.
  return found === safePlaywrightPath() ? undefined : found;
}

function safePlaywrightPath(): string | undefined {
  try {
    return chromium.executablePath();
  } catch {
    return undefined;
  }
}
