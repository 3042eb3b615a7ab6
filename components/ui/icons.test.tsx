// The icons draw Lucide's shapes from lucide-react's per-icon modules, through an export their type
// declarations do not list: an upgrade that dropped it would leave empty icons, so each is checked.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import * as icons from './icons';

const components = Object.entries(icons).filter(([name]) => /^[A-Z]/.test(name)) as [string, icons.Icon][];

describe('icons', () => {
  it('draws every icon as a plain SVG with its shapes, hidden from assistive technology', () => {
    expect(components.length).toBeGreaterThan(30);
    for (const [name, Icon] of components) {
      const html = renderToStaticMarkup(<Icon className="size-4" />);
      expect(html, name).toMatch(/^<svg [^>]*viewBox="0 0 24 24"[^>]*aria-hidden="true"[^>]*class="lucide lucide-[a-z0-9-]+ size-4"/);
      expect(html, name).toMatch(/<(path|circle|rect|line|polyline|ellipse)\b/);
    }
  });

  it('is named, not hidden, when the caller names it', () => {
    const html = renderToStaticMarkup(<icons.Check aria-label="Done" />);
    expect(html).toContain('aria-label="Done"');
    expect(html).not.toContain('aria-hidden');
  });
});
