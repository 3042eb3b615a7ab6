// The overview's colours: the Okabe–Ito palette, which people with any common colour-vision
// deficiency tell apart, and for paper (often grey) each status also has a texture of its own, so
// no chart rests on colour alone. Every chart also has its figures as a table.

export type StatusStyle = { fill: string; pattern?: 'hatch' | 'dots' };

export const STATUS_STYLES: Record<string, StatusStyle> = {
  completed: { fill: '#009E73' },
  failed: { fill: '#D55E00', pattern: 'hatch' },
  expired: { fill: '#E69F00', pattern: 'dots' },
  pending: { fill: '#56B4E9' },
};

/** Bars of one series (reasons, methods, decisions). */
export const BAR_FILL = '#0072B2';

export const STATUS_ORDER = ['completed', 'failed', 'expired', 'pending'] as const;
