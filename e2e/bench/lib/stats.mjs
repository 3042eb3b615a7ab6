// Small statistics for the bench: nearest-rank percentiles (no interpolation, so a p99 of 500
// samples is a latency some request really had) and rounding for display.

export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export const median = (values) => percentile(values, 50);

export function summarize(values) {
  return {
    n: values.length,
    p50: round(percentile(values, 50)),
    p90: round(percentile(values, 90)),
    p99: round(percentile(values, 99)),
    max: round(Math.max(...values)),
  };
}

export const round = (value, digits = 2) => (Number.isFinite(value) ? Math.round(value * 10 ** digits) / 10 ** digits : value);
