// Test support: markup as the paper shows it, for tests of the print layout. Removes every element
// that carries Tailwind's `print:hidden` (display: none under @media print), with all it holds, from
// markup rendered by React (which escapes `<` and `>` inside attributes, so tags can be read with a
// pattern). The remaining markup is what a printed page can show.
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>/g;

export function printedMarkup(html: string): string {
  let out = '';
  let last = 0;
  // While inside a hidden element: its tag name and how deep inside it we are.
  let hidden: { depth: number } | null = null;
  for (const match of html.matchAll(TAG)) {
    const [tag, closing, rawName, attributes = ''] = match;
    const name = rawName!.toLowerCase();
    const start = match.index;
    if (!hidden) out += html.slice(last, start);
    last = start + tag.length;
    const selfClosing = VOID.has(name) || attributes.endsWith('/');
    if (hidden) {
      if (selfClosing) continue;
      hidden.depth += closing ? -1 : 1;
      if (hidden.depth === 0) hidden = null;
      continue;
    }
    const classes = /\bclass="([^"]*)"/.exec(attributes)?.[1]?.split(/\s+/) ?? [];
    if (!closing && classes.includes('print:hidden')) {
      if (!selfClosing) hidden = { depth: 1 };
      continue;
    }
    out += tag;
  }
  if (hidden) throw new Error('printedMarkup: a print:hidden element is never closed');
  return out + html.slice(last);
}
