// A ranked list as horizontal bars (failure reasons, methods, decisions): an SVG drawn on the
// server with a linear scale from d3-scale, each bar labelled with its name and count, so the
// picture reads without colour and without JavaScript; the same figures as a table follow it.
import { scaleLinear } from 'd3-scale';
import { BAR_FILL } from './chart-colours';
import { ChartFigure, type DrawingSize, NarrowAndWide } from './chart-frame';

// The drawing's proportions at each size (chart-frame.tsx draws both). A label is cut to maxLabel
// characters: in the narrow drawing 16 of a 12 px sans-serif fill the label column (18 ran past
// its left edge at 390 px).
const SIZES: Record<DrawingSize, { width: number; labelWidth: number; font: number; maxLabel: number }> = {
  narrow: { width: 340, labelWidth: 130, font: 12, maxLabel: 16 },
  wide: { width: 560, labelWidth: 200, font: 13, maxLabel: 30 },
};
const ROW = 28;

export type BarItem = { key: string; label: string; count: number; userData?: boolean };

export function BarListChart({
  id,
  title,
  description,
  items,
  empty,
  tableLabel,
  nameHeader,
  countHeader,
}: {
  id: string;
  title: string;
  description?: string;
  items: BarItem[];
  empty: string;
  tableLabel: string;
  nameHeader: string;
  countHeader: string;
}) {
  return (
    <ChartFigure id={id} title={title}>
      {description ? <p className="text-sm text-slate-600">{description}</p> : null}
      {items.length === 0 ? (
        <p className="text-sm text-slate-600">{empty}</p>
      ) : (
        <>
          <NarrowAndWide draw={(size) => <Bars id={id} title={title} items={items} size={size} />} />
          <details className="text-sm">
            <summary className="cursor-pointer text-indigo-700">{tableLabel}</summary>
            <table className="mt-2 min-w-full text-left text-sm">
              <thead className="text-xs text-slate-600 uppercase">
                <tr>
                  <th scope="col" className="py-1 pr-4">
                    {nameHeader}
                  </th>
                  <th scope="col" className="py-1 text-right">
                    {countHeader}
                  </th>
                </tr>
              </thead>
              <tbody className="tabular-nums">
                {items.map((item) => (
                  <tr key={item.key} className="border-t border-slate-100">
                    <th scope="row" className="py-1 pr-4 font-normal" translate={item.userData ? 'no' : undefined}>
                      {item.label}
                    </th>
                    <td className="py-1 text-right">{item.count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </>
      )}
    </ChartFigure>
  );
}

function Bars({ id, title, items, size }: { id: string; title: string; items: BarItem[]; size: DrawingSize }) {
  const { width, labelWidth, font, maxLabel } = SIZES[size];
  const height = Math.max(1, items.length) * ROW + 4;
  const x = scaleLinear()
    .domain([0, Math.max(1, ...items.map((item) => item.count))])
    .range([0, width - labelWidth - 40]);
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      className="h-auto w-full"
      role="img"
      aria-labelledby={`${id}-title`}
      data-testid={`${id}-${size}-svg`}
    >
      <title>{title}</title>
      {items.map((item, index) => (
        <g key={item.key} transform={`translate(0 ${index * ROW})`} data-count={item.count}>
          <text
            x={labelWidth - 8}
            y={ROW / 2}
            dy="0.32em"
            textAnchor="end"
            fontSize={font}
            fill="#0f172a"
            // Names the service or staff gave (a failure reason) are data, not words to translate.
            {...((item.userData ? { translate: 'no' } : {}) as Record<string, string>)}
          >
            {item.label.length > maxLabel ? `${item.label.slice(0, maxLabel - 1)}…` : item.label}
          </text>
          <rect x={labelWidth} y={5} width={Math.max(2, x(item.count))} height={ROW - 10} fill={BAR_FILL} rx="2" />
          <text x={labelWidth + Math.max(2, x(item.count)) + 6} y={ROW / 2} dy="0.32em" fontSize={font} fill="#0f172a">
            {item.count}
          </text>
        </g>
      ))}
    </svg>
  );
}
