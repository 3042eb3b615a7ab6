// What `npm run bench -- --help` prints: the options and environment of run.mjs.
export const USAGE = `usage: node e2e/bench/run.mjs [--build | --no-build] [--store pglite|postgres|both] [--scale N]

  --build     always build first
  --no-build  never build; measure what is in .next
  (neither)   build when .next is missing or older than any source file
  --store     the store(s) to measure: the embedded PGlite, a throwaway PostgreSQL server
              (DATABASE_URL), or both, one after the other (default both)
  --scale     the data-scale phase's large size in register rows (default 20000; 0 leaves it
              out): pages, exports and a purge at 1k rows and at N (at most 100000 on PGlite)

Environment: BENCH_PORT (default 3550; Lighthouse's Chromium uses BENCH_PORT + 1, the create figure's bare
HTTP server + 2), BENCH_DEADLINE_S
(each store's time, default 480), BENCH_BUILD_DEADLINE_S (the build's, default 240), BENCH_ONLY
(comma-separated figure names of results/latest.json), BENCH_SCALE_DEADLINE_S (the data-scale
phase's time per store, by default sized to --scale), BENCH_CPU_PROF (a directory for the servers'
CPU profiles), CHROMIUM_PATH, CHROME_PATH.
Writes e2e/bench/results/latest.{md,json}; exits 0 when every budget passes, 1 when one fails, 2 on
an error or a deadline.`;
