// The one time component, rendered on the server as pages render it: the zone comes from the
// provider (the deployment's DISPLAY_TIME_ZONE, or the zone the browser reported), the text is a
// 24-hour clock with the zone's name, and the instant stays machine-readable.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LocalTime } from './local-time';
import { TimeText } from './time-text';
import { TimeZoneProvider } from './time-zone';

const ISO = '2026-11-24T23:30:00.000Z';

const render = (node: React.ReactNode, timeZone?: string, fixed = false) =>
  renderToStaticMarkup(
    timeZone ? (
      <TimeZoneProvider timeZone={timeZone} fixed={fixed}>
        {node}
      </TimeZoneProvider>
    ) : (
      node
    ),
  );

describe('LocalTime', () => {
  it('renders in the zone the server knows, on a 24-hour clock with the zone’s name, keeping the instant', () => {
    const html = render(<LocalTime iso={ISO} />, 'Europe/Brussels');
    expect(html).toBe(`<time dateTime="${ISO}" title="${ISO}">25 Nov 2026, 00:30 CET</time>`);
  });

  it('renders UTC, named, before any zone is known', () => {
    expect(render(<LocalTime iso={ISO} />)).toContain('>24 Nov 2026, 23:30 UTC<');
  });

  it('renders the same whether the zone is the deployment’s or the browser’s reported one', () => {
    expect(render(<LocalTime iso={ISO} />, 'America/New_York', true)).toContain('>24 Nov 2026, 18:30 EST<');
    expect(render(<LocalTime iso={ISO} />, 'America/New_York', false)).toContain('>24 Nov 2026, 18:30 EST<');
  });

  it('shows the day alone in the zone', () => {
    expect(render(<LocalTime iso={ISO} dateOnly />, 'Asia/Kolkata')).toContain('>25 Nov 2026<');
  });

  it('adds how far the moment is from the page’s moment', () => {
    const html = render(<LocalTime iso={ISO} relativeFrom={Date.parse(ISO) - 3 * 86_400_000 - 5 * 3_600_000} />, 'UTC');
    expect(html).toContain('24 Nov 2026, 23:30 UTC<span class="text-slate-500"> (in 3 days)</span>');
  });
});

describe('TimeText stacked', () => {
  it('puts the date over the time and zone, each kept whole, with the same instant', () => {
    const html = renderToStaticMarkup(<TimeText stacked iso={ISO} timeZone="Europe/Brussels" language="fr" />);
    expect(html).toBe(
      `<time dateTime="${ISO}" title="${ISO}"><span class="block whitespace-nowrap">25 nov. 2026</span> <span class="block whitespace-nowrap text-slate-500">00:30 CET</span></time>`,
    );
  });
});
