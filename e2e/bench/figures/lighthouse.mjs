// Lighthouse 12 (Node API) on every page staff use, each with the desktop and the mobile preset,
// one audit after the other, in a Chromium the bench launches itself on a port of its own
// (chrome-launcher, Debian's Chromium). Signed-in pages are audited as an administrator (the
// audit trail and the staff page are theirs), with the session cookie set in that Chromium and
// Lighthouse's storage reset (which would clear it) turned off: see lib/lighthouse-runner.mjs.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import { findChromium } from '../../kit/browser.mjs';
import { runJob } from '../lib/run-job.mjs';

// The audits themselves run in a process of their own (see the runner for why).
const RUNNER = path.join(path.dirname(fileURLToPath(import.meta.url)), '../lib/lighthouse-runner.mjs');

/** The pages, signed out first (the runner sets the session cookie once, before the first signed-in page). */
const PAGES = [
  { name: 'sign-in', path: () => '/sign-in', signedIn: false },
  { name: 'register', path: () => '/', signedIn: true },
  { name: 'create', path: () => '/verifications/new', signedIn: true },
  { name: 'detail', path: (detailId) => `/verifications/${detailId}`, signedIn: true },
  { name: 'audit', path: () => '/audit', signedIn: true },
  { name: 'staff', path: () => '/staff', signedIn: true },
  { name: 'account', path: () => '/account', signedIn: true },
];

export const LIGHTHOUSE_PRESETS = ['desktop', 'mobile'];

/** The register's default page (REGISTER_PAGE_SIZE): the register is audited as staff see it, with a full page of rows. */
export const REGISTER_ROWS = 100;

/**
 * Creates requests through `create` (the form's action, replayed) until the run has made
 * REGISTER_ROWS of them, for a run whose create figures did not fill the register (BENCH_ONLY).
 */
export async function fillRegister({ create, made }) {
  for (let i = made; i < REGISTER_ROWS; i++) await create();
}

/** One key per audit, as the report names it: "register · mobile". */
export const LIGHTHOUSE_PAGES = PAGES.flatMap((page) => LIGHTHOUSE_PRESETS.map((preset) => `${page.name} · ${preset}`));

export async function measureLighthouse({ base, cookieHeader, detailId, port, register, box, deadline }) {
  const pages = PAGES.flatMap((page) =>
    LIGHTHOUSE_PRESETS.map((preset) => ({ name: `${page.name} · ${preset}`, path: page.path(detailId), signedIn: page.signedIn, preset })),
  );
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? findChromium(),
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
    port,
    // The bench has its own SIGINT handling and cleans up this Chrome itself.
    handleSIGINT: false,
    logLevel: 'silent',
  });
  const unregister = register(() => chrome.kill());
  try {
    deadline.check();
    return await runAudits({ base, cookieHeader, detailId, pages, chromePort: chrome.port, box, register });
  } finally {
    unregister();
    await chrome.kill();
  }
}

/** Runs lib/lighthouse-runner.mjs, which audits the pages it can within the box, one result a line. */
async function runAudits({ base, cookieHeader, detailId, pages, chromePort, box, register }) {
  const job = {
    base,
    cookieHeader,
    detailId,
    pages,
    chromePort,
    box: { softInMs: box.soft - performance.now(), hardInMs: box.hard - performance.now(), min: box.min },
  };
  try {
    return await runJob(RUNNER, job, { what: 'Lighthouse runner', register });
  } catch (error) {
    if (error.lines) error.message += `\n(after ${error.lines.length} page(s))`;
    throw error;
  }
}
