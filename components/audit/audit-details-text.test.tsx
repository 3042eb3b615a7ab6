// The audit trail's details column: words as text, people's names kept out of page translation.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AuditDetailsText } from './audit-details-text';

describe('AuditDetailsText', () => {
  it('marks each name translate="no" and leaves the words around it translatable', () => {
    const html = renderToStaticMarkup(
      <AuditDetailsText parts={[{ text: 'Assignee: ' }, { name: 'Bob <Operator>' }, { text: ' (was a former colleague)' }]} />,
    );
    expect(html).toBe('Assignee: <span translate="no">Bob &lt;Operator&gt;</span> (was a former colleague)');
  });

  it('shows nothing when an entry has no details', () => {
    expect(renderToStaticMarkup(<AuditDetailsText parts={null} />)).toBe('');
  });
});
