// What every overview chart shares around its drawing: a figure captioned by its title (the SVG
// points at the caption for its accessible name), and the drawing made twice, at a phone's
// proportions and at a wide screen's, so its text keeps a readable size on both (an SVG scales its
// text with it); CSS shows the one that fits.
import type { ReactNode } from 'react';

export type DrawingSize = 'narrow' | 'wide';

export function ChartFigure({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <figure className="space-y-3" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="text-base font-semibold text-slate-900">
        {title}
      </figcaption>
      {children}
    </figure>
  );
}

/** `draw(size)` at both sizes; each drawing must make its ids unique with the size (both are in the page). */
export function NarrowAndWide({ draw }: { draw: (size: DrawingSize) => ReactNode }) {
  return (
    <>
      <div className="sm:hidden">{draw('narrow')}</div>
      <div className="hidden sm:block">{draw('wide')}</div>
    </>
  );
}
