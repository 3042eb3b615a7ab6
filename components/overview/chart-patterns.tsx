// The textures that tell statuses apart without colour (chart-colours.ts), as SVG patterns a
// chart defines once and its bars refer to by id.

export function patternId(chartId: string, status: string): string {
  return `${chartId}-${status}-texture`;
}

export function StatusPatterns({
  chartId,
  styles,
}: {
  chartId: string;
  styles: Record<string, { fill: string; pattern?: 'hatch' | 'dots' }>;
}) {
  return (
    <defs>
      {Object.entries(styles).map(([status, style]) =>
        style.pattern === 'hatch' ? (
          <pattern
            key={status}
            id={patternId(chartId, status)}
            width="6"
            height="6"
            patternUnits="userSpaceOnUse"
            patternTransform="rotate(45)"
          >
            <rect width="6" height="6" fill={style.fill} />
            <line x1="0" y1="0" x2="0" y2="6" stroke="white" strokeWidth="2" />
          </pattern>
        ) : style.pattern === 'dots' ? (
          <pattern key={status} id={patternId(chartId, status)} width="5" height="5" patternUnits="userSpaceOnUse">
            <rect width="5" height="5" fill={style.fill} />
            <circle cx="2.5" cy="2.5" r="1.1" fill="white" />
          </pattern>
        ) : null,
      )}
    </defs>
  );
}

/** What a bar of `status` is filled with: its texture where it has one, else its colour. */
export function statusFill(chartId: string, status: string, styles: Record<string, { fill: string; pattern?: string }>): string {
  const style = styles[status];
  if (!style) return '#94a3b8';
  return style.pattern ? `url(#${patternId(chartId, status)})` : style.fill;
}
