// The overview's charts as the server draws them: bars in proportion to their counts, stacked in
// the statuses' order, textures where colour alone would not tell statuses apart on paper, every
// figure again in the table, and an SVG labelled for screen readers.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BarListChart } from './bar-list-chart';
import { StackedBarChart } from './stacked-bar-chart';

const counts = new Map([
  [
    '2026-11-10',
    new Map([
      ['completed', 2],
      ['failed', 1],
    ]),
  ],
  ['2026-11-11', new Map([['pending', 4]])],
]);

const stacked = () =>
  renderToStaticMarkup(
    <StackedBarChart
      id="created"
      title="Requests created per day"
      description="Stacked bars"
      data={{
        buckets: [
          { key: '2026-11-10', label: '10 Nov' },
          { key: '2026-11-11', label: '11 Nov' },
          { key: '2026-11-12', label: '12 Nov' },
        ],
        counts,
      }}
      statusLabel={(status) => status.toUpperCase()}
      tableLabel="Show the figures as a table"
      bucketHeader="Day"
      countHeader="Requests"
    />,
  );

/** The rectangles of one drawing: status, count and height. */
function bars(html: string, size: 'narrow' | 'wide') {
  const svg = html.slice(html.indexOf(`data-testid="created-${size}-svg"`));
  const drawing = svg.slice(0, svg.indexOf('</svg>'));
  return [...drawing.matchAll(/<rect [^>]*height="([\d.]+)"[^>]*data-status="(\w+)" data-count="(\d+)"/g)].map((m) => ({
    status: m[2],
    count: Number(m[3]),
    height: Number(m[1]),
  }));
}

describe('StackedBarChart', () => {
  it('stacks each day’s statuses with heights in proportion to the counts, in both drawings', () => {
    const html = stacked();
    for (const size of ['narrow', 'wide'] as const) {
      const drawn = bars(html, size);
      expect(drawn.map(({ status, count }) => [status, count])).toEqual([
        ['completed', 2],
        ['failed', 1],
        ['pending', 4],
      ]);
      const unit = drawn[0]!.height / 2;
      expect(drawn[1]!.height).toBeCloseTo(unit);
      expect(drawn[2]!.height).toBeCloseTo(4 * unit);
    }
  });

  it('gives failed and expired a texture, labels the drawing, and repeats every figure in the table', () => {
    const html = stacked();
    expect(html).toMatch(/<pattern id="created-wide-failed-texture"/);
    expect(html).toMatch(/<pattern id="created-wide-expired-texture"/);
    expect(html).toMatch(/role="img" aria-labelledby="created-title created-wide-desc"/);
    const table = html.slice(html.indexOf('<table'));
    expect(table).toMatch(/10 Nov<\/th><td[^>]*>2<\/td><td[^>]*>1<\/td><td[^>]*>0<\/td><td[^>]*>0<\/td><td[^>]*>3<\/td>/);
    expect(table).toMatch(/12 Nov<\/th>(<td[^>]*>0<\/td>){5}/);
  });
});

describe('BarListChart', () => {
  it('draws one bar per item, longest for the largest count, and marks data as not to be translated', () => {
    const html = renderToStaticMarkup(
      <BarListChart
        id="reasons"
        title="Why verifications failed"
        items={[
          { key: 'a', label: 'Document expired', count: 4, userData: true },
          { key: 'b', label: 'Face mismatch', count: 1, userData: true },
        ]}
        empty="None"
        tableLabel="Table"
        nameHeader="Reason"
        countHeader="Requests"
      />,
    );
    const wide = html.slice(html.indexOf('data-testid="reasons-wide-svg"'));
    const widths = [...wide.slice(0, wide.indexOf('</svg>')).matchAll(/<rect [^>]*width="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(widths[0]! / widths[1]!).toBeCloseTo(4);
    expect(html).toContain('translate="no"');
    expect(html).toContain('Document expired');
  });

  it('says so when there is nothing to draw', () => {
    const html = renderToStaticMarkup(
      <BarListChart
        id="m"
        title="Methods used"
        items={[]}
        empty="No verification was completed."
        tableLabel="T"
        nameHeader="N"
        countHeader="C"
      />,
    );
    expect(html).toContain('No verification was completed.');
    expect(html).not.toContain('<svg');
  });
});
