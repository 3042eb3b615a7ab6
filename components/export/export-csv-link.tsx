// The "Export CSV" link of a list page. A plain anchor with `download`: the answer is a file, so
// there is no page to navigate to (next/link would try to), and the browser keeps the current page.
import { buttonClasses } from '@/components/ui/button';

type Props = {
  href: string;
  /** What the file holds, for assistive technology and the tooltip ("the requests shown, with these filters"). */
  description: string;
};

export function ExportCsvLink({ href, description }: Props) {
  return (
    <a href={href} download title={description} className={buttonClasses('secondary', 'sm')}>
      <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-4 text-slate-500">
        <path d="M10.75 2.75a.75.75 0 0 0-1.5 0v8.614L6.295 8.235a.75.75 0 1 0-1.09 1.03l4.25 4.5a.75.75 0 0 0 1.09 0l4.25-4.5a.75.75 0 0 0-1.09-1.03l-2.955 3.129V2.75Z" />
        <path d="M3.5 12.75a.75.75 0 0 0-1.5 0v2.5A2.75 2.75 0 0 0 4.75 18h10.5A2.75 2.75 0 0 0 18 15.25v-2.5a.75.75 0 0 0-1.5 0v2.5c0 .69-.56 1.25-1.25 1.25H4.75c-.69 0-1.25-.56-1.25-1.25v-2.5Z" />
      </svg>
      Export CSV
    </a>
  );
}
