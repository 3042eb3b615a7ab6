// The pseudo-language, for finding words that bypass the catalogs: English with every message
// wrapped in ⟦…⟧. A page rendered in it shows each catalog word inside brackets, so any visible
// text outside them is hard-coded (e2e/catalog-coverage.spec.ts looks). It exists only where
// PSEUDO_LANGUAGE=on (the browser tests' server), for a browser holding the vd-pseudo cookie.
import type { Messages } from './catalogs';

export const PSEUDO_COOKIE = 'vd-pseudo';

export function pseudoLanguageEnabled(): boolean {
  return process.env.PSEUDO_LANGUAGE === 'on';
}

export function pseudoMessages(messages: Messages): Messages {
  return Object.fromEntries(
    Object.entries(messages).map(([key, value]) => [key, typeof value === 'string' ? `⟦${value}⟧` : pseudoMessages(value)]),
  );
}
