'use client';
// A moment in client components, in the zone components/ui/time-zone.tsx settles on (the
// server's on hydration, then the browser's). Server components use TimeText with their page's
// zone instead: formatted on the server, nothing to hydrate.
import { useClientLanguage } from '@/components/i18n/client-messages';
import { TimeText, type TimeTextProps } from './time-text';
import { useDisplayTimeZone } from './time-zone';

export function LocalTime(props: Omit<TimeTextProps, 'timeZone' | 'language'>) {
  const timeZone = useDisplayTimeZone();
  const language = useClientLanguage();
  return <TimeText {...props} timeZone={timeZone} language={language} />;
}
