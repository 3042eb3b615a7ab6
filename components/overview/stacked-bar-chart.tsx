// Requests created per day or week, stacked by how each stands now: an SVG drawn on the server
// (scales from d3-scale: a band per bucket, a linear count axis with round ticks), so it needs no
// JavaScript and adds nothing to the page's bundle. The figure carries a title and a description
// for screen readers, a legend in words and textures, and its figures as a table.
import { scaleBand, scaleLinear } from 'd3-scale';
import { STATUS_ORDER, STATUS_STYLES } from './chart-colours';
import { ChartFigure, type DrawingSize, NarrowAndWide } from './chart-frame';
import { StatusPatterns, statusFill } from './chart-patterns';

// The drawing's proportions at each size (chart-frame.tsx draws both).
const SIZES: Record<DrawingSize, { width: number; height: number; font: number; labelSpace: number }> = {
  narrow: { width: 360, height: 220, font: 10, labelSpace: 44 },
  wide: { width: 960, height: 300, font: 12, labelSpace: 56 },
};
const MARGIN = { top: 12, right: 8, bottom: 28, left: 32 };

export type StackedBars = {
  buckets: { key: string; label: string }[];
  /** Count per bucket key, per status. */
  counts: Map<string, Map<string, number>>;
};

export function StackedBarChart({
  id,
  title,
  description,
  data,
  statusLabel,
  tableLabel,
  bucketHeader,
  countHeader,
}: {
  id: string;
  title: string;
  description: string;
  data: StackedBars;
  statusLabel: (status: string) => string;
  tableLabel: string;
  bucketHeader: string;
  countHeader: string;
}) {
  const totals = data.buckets.map(({ key }) => [...(data.counts.get(key)?.values() ?? [])].reduce((sum, n) => sum + n, 0));
  return (
    <ChartFigure id={id} title={title}>
      <NarrowAndWide draw={(size) => <Bars id={id} title={title} description={description} data={data} totals={totals} size={size} />} />
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700">
        {STATUS_ORDER.map((status) => (
          <li key={status} className="inline-flex items-center gap-1.5">
            <svg viewBox="0 0 12 12" className="size-3" aria-hidden="true">
              <StatusPatterns chartId={`${id}-legend`} styles={{ [status]: STATUS_STYLES[status]! }} />
              <rect width="12" height="12" fill={statusFill(`${id}-legend`, status, STATUS_STYLES)} />
            </svg>
            {statusLabel(status)}
          </li>
        ))}
      </ul>
      <details className="text-sm">
        <summary className="cursor-pointer text-indigo-700">{tableLabel}</summary>
        <div className="mt-2 overflow-x-auto">
          <table className="min-w-full text-left text-sm">
            <thead className="text-xs text-slate-600 uppercase">
              <tr>
                <th scope="col" className="py-1 pr-4">
                  {bucketHeader}
                </th>
                {STATUS_ORDER.map((status) => (
                  <th key={status} scope="col" className="py-1 pr-4 text-right">
                    {statusLabel(status)}
                  </th>
                ))}
                <th scope="col" className="py-1 text-right">
                  {countHeader}
                </th>
              </tr>
            </thead>
            <tbody className="tabular-nums">
              {data.buckets.map(({ key, label }, index) => (
                <tr key={key} className="border-t border-slate-100">
                  <th scope="row" className="py-1 pr-4 font-normal whitespace-nowrap">
                    {label}
                  </th>
                  {STATUS_ORDER.map((status) => (
                    <td key={status} className="py-1 pr-4 text-right">
                      {data.counts.get(key)?.get(status) ?? 0}
                    </td>
                  ))}
                  <td className="py-1 text-right font-medium">{totals[index]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </ChartFigure>
  );
}

function Bars({
  id,
  title,
  description,
  data,
  totals,
  size,
}: {
  id: string;
  title: string;
  description: string;
  data: StackedBars;
  totals: number[];
  size: DrawingSize;
}) {
  const { width: WIDTH, height: HEIGHT, font, labelSpace } = SIZES[size];
  // Ids unique on the page: both drawings are in it.
  const svgId = `${id}-${size}`;
  const x = scaleBand<string>()
    .domain(data.buckets.map((bucket) => bucket.key))
    .range([MARGIN.left, WIDTH - MARGIN.right])
    .paddingInner(0.2)
    .paddingOuter(0.1);
  const y = scaleLinear()
    .domain([0, Math.max(1, ...totals)])
    .nice()
    .range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  const ticks = y.ticks(5).filter(Number.isInteger);
  // Labels under the bars: as many as fit without overlapping.
  const labelEvery = Math.max(1, Math.ceil(data.buckets.length / Math.floor((WIDTH - MARGIN.left) / labelSpace)));
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      className="h-auto w-full"
      role="img"
      aria-labelledby={`${id}-title ${svgId}-desc`}
      data-testid={`${svgId}-svg`}
    >
      <title>{title}</title>
      <desc id={`${svgId}-desc`}>{description}</desc>
      <StatusPatterns chartId={svgId} styles={STATUS_STYLES} />
      {ticks.map((tick) => (
        <g key={tick}>
          <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(tick)} y2={y(tick)} stroke="#e2e8f0" />
          <text x={MARGIN.left - 6} y={y(tick)} dy="0.32em" textAnchor="end" fontSize={font} fill="#475569">
            {tick}
          </text>
        </g>
      ))}
      {data.buckets.map(({ key, label }, index) => {
        let top = y(0);
        return (
          <g key={key} data-bucket={key}>
            {STATUS_ORDER.map((status) => {
              const n = data.counts.get(key)?.get(status) ?? 0;
              if (n === 0) return null;
              const height = y(0) - y(n);
              top -= height;
              return (
                <rect
                  key={status}
                  x={x(key)}
                  y={top}
                  width={x.bandwidth()}
                  height={height}
                  fill={statusFill(svgId, status, STATUS_STYLES)}
                  stroke="white"
                  strokeWidth="0.5"
                  data-status={status}
                  data-count={n}
                />
              );
            })}
            {index % labelEvery === 0 ? (
              <text
                x={(x(key) ?? 0) + x.bandwidth() / 2}
                y={HEIGHT - MARGIN.bottom + 16}
                textAnchor="middle"
                fontSize={font}
                fill="#475569"
                // A date Intl wrote in the reader's language: a value, not words to translate.
                {...({ translate: 'no' } as Record<string, string>)}
              >
                {label}
              </text>
            ) : null}
          </g>
        );
      })}
      <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(0)} y2={y(0)} stroke="#94a3b8" />
    </svg>
  );
}
