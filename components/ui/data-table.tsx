// The dashboard's one table look: a scrolling card, a caption for screen readers, column
// headers; the rows are the caller's. Below the sm breakpoint the rows become stacked cards
// (app/globals.css, `.data-table`): give each value cell `data-label` with its column's header
// to have it shown beside the value; a cell without one (a row's actions) spans the card.
import type { ReactNode } from 'react';

/**
 * For a UUID shown in a table: whole on one line wherever it fits (a card's full width on a
 * phone, its column from lg up), broken anywhere only when the screen is narrower than the id.
 */
export const idTextClasses = 'inline-block max-w-full font-mono text-xs break-all lg:break-normal lg:whitespace-nowrap';

export function DataTable({
  caption,
  columns,
  children,
  bodyTestId,
}: {
  caption: ReactNode;
  /** Column headers; a string renders as is, anything else (e.g. a visually hidden label) too. */
  columns: ReactNode[];
  children: ReactNode;
  bodyTestId?: string;
}) {
  return (
    // `relative`: visually hidden labels are absolutely positioned, and without a positioned
    // ancestor inside the scroller they escape it and widen the whole page on a narrow screen.
    <div className="relative overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      <table className="data-table min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
          <tr>
            {columns.map((column, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed for the table's life; their position is their identity.
              <th key={index} scope="col" className="px-4 py-3">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100" data-testid={bodyTestId}>
          {children}
        </tbody>
      </table>
    </div>
  );
}
