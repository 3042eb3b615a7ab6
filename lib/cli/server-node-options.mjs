// V8 heap settings for the server process, used by `npm start` (and by the benchmark, so it
// measures the server as it ships). Measured with the embedded sandbox under 32 connections of
// creates then reads (10 s each): RSS after the load was 455 MB with Node's defaults, 339 MB
// with small young-generation semi-spaces, 270 MB with the old-space cap too, at the same
// throughput. The old generation of this app stays far below the cap (its large data, PGlite's
// memory, lives outside the V8 heap). An operator's own NODE_OPTIONS take precedence.
const DEFAULTS = [
  ['--max-semi-space-size', '2'],
  ['--max-old-space-size', '256'],
];

/** NODE_OPTIONS for the server: the operator's options, plus each default they do not set. */
export function serverNodeOptions(existing = '') {
  const added = DEFAULTS.filter(([flag]) => !existing.includes(flag)).map(([flag, value]) => `${flag}=${value}`);
  return [existing.trim(), ...added].filter(Boolean).join(' ');
}
