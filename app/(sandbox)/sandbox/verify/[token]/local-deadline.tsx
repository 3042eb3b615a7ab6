'use client';
// SANDBOX: the link's deadline on the person's page, in the person's own zone. The server knows
// the moment but not where the person is, so it writes the deadline in UTC and says so (what a
// page read without JavaScript keeps); the browser then writes it in its own zone, named, in the
// page's language: "6 décembre 2026 à 16:42 UTC+1" rather than "15:42 UTC".
import { useEffect, useState } from 'react';

export function LocalDeadline({ iso, language, inUtc }: { iso: string; language: string; inUtc: string }) {
  const [local, setLocal] = useState<string>();
  useEffect(() => {
    const format = new Intl.DateTimeFormat(language, {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
    });
    setLocal(format.format(new Date(iso)));
  }, [iso, language]);
  return (
    <time dateTime={iso} data-testid="person-deadline">
      {local ?? inUtc}
    </time>
  );
}
