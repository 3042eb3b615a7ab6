// V8 heap settings for the server process, used by `npm start` (and by the benchmark and the
// load test, so they measure the server as it ships). Measured with the embedded sandbox under
// 32 connections of creates then reads (10 s each), back to back: RSS after the load was 461 MB
// with Node's defaults (179 creates/s, 372 reads/s), 287 MB with these settings (175 and 357/s),
// 299 MB with 2 MB semi-spaces (163 and 340/s: more scavenges). The old generation of this app
// stays far below the cap (its large data, PGlite's memory, lives outside the V8 heap). An
// operator's own NODE_OPTIONS take precedence.
const DEFAULTS = [
  ['--max-semi-space-size', '8'],
  ['--max-old-space-size', '256'],
];

/** NODE_OPTIONS for the server: the operator's options, plus each default they do not set. */
export function serverNodeOptions(existing = '') {
  const added = DEFAULTS.filter(([flag]) => !existing.includes(flag)).map(([flag, value]) => `${flag}=${value}`);
  return [existing.trim(), ...added].filter(Boolean).join(' ');
}
