// How figures read in the report: milliseconds to one decimal, signed differences, and a note on
// a figure its time box cut short.
import { round } from './stats.mjs';

export const ms = (value) => `${round(value, 1)} ms`;
export const signedMs = (value) => `${value >= 0 ? '+' : ''}${round(value, 1)} ms`;
/** "; n=230 of 500: time box" when a figure stopped early, else "". */
export const sampled = (summary, planned) => (summary.n < planned ? `; n=${summary.n} of ${planned}: time box` : '');
