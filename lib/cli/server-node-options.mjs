// V8 heap settings for the server process, used by `npm start` (and by the benchmark and the
// load test, so they measure the server as it ships). Under load, Node's defaults let the heap
// grow far beyond what the app needs; these settings keep the resident memory much lower for
// almost the same throughput. Smaller semi-spaces would cost throughput (more scavenges) without
// saving memory. The old generation of this app stays far below the cap (its large data,
// PGlite's memory, lives outside the V8 heap). An operator's own NODE_OPTIONS take precedence.
const DEFAULTS = [
  ['--max-semi-space-size', '8'],
  ['--max-old-space-size', '256'],
];

/** NODE_OPTIONS for the server: the operator's options, plus each default they do not set. */
export function serverNodeOptions(existing = '') {
  const added = DEFAULTS.filter(([flag]) => !existing.includes(flag)).map(([flag, value]) => `${flag}=${value}`);
  return [existing.trim(), ...added].filter(Boolean).join(' ');
}
