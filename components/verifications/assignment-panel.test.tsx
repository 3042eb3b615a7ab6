// What the assignment panel offers, rendered on the server as the detail page does: the assignee
// and since when, and the buttons that fit who is reading and who holds the request. Every form
// carries the assignee the page showed, which the server compares before it changes anything.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { inLanguage } from '@/test/support/in-language';
import { AssignmentPanel, type AssignmentView } from './assignment-panel';

const OTTO = { id: 'staff-otto', name: 'Otto Operator' };
const OLGA = { id: 'staff-olga', name: 'Olga Operator' };
const SINCE = '2030-06-15T10:00:00.000Z';

const render = async (view: Partial<AssignmentView>, language: 'en' | 'fr' | 'nl' = 'en') =>
  renderToStaticMarkup(
    await inLanguage(
      <AssignmentPanel
        verificationId="case-1"
        view={{ assignee: null, colleagues: [OTTO, OLGA], canAssign: true, me: OTTO.id, ...view }}
      />,
      language,
    ),
  );

const buttons = (html: string) => [...html.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map((match) => match[1]);
const expectedFields = (html: string) => [...html.matchAll(/name="expected" value="([^"]*)"/g)].map((match) => match[1]);

describe('AssignmentPanel', () => {
  it('offers an unassigned request to take, or to give to a colleague', async () => {
    const html = await render({});
    expect(html).toContain('Unassigned: nobody has taken it yet.');
    expect(buttons(html)).toEqual(['Take it', 'Give']);
    expect(html).toContain('>Otto Operator</option>');
    expect(expectedFields(html).every((value) => value === '')).toBe(true);
  });

  it('shows who holds it and since when; a colleague may take it over or hand it back, and no longer give it to the holder', async () => {
    const html = await render({ assignee: { ...OLGA, since: SINCE } });
    expect(html).toMatch(
      /Assigned to <strong[^>]*translate="no"[^>]*>Olga Operator<\/strong> since <time[^>]*dateTime="2030-06-15T10:00:00.000Z"/,
    );
    expect(buttons(html)).toEqual(['Take over', 'Hand back', 'Give']);
    expect(html).not.toContain('>Olga Operator</option>');
    expect(new Set(expectedFields(html))).toEqual(new Set([OLGA.id]));
  });

  it('lets the holder hand it back or pass it on, without taking it over from themselves', async () => {
    const html = await render({ assignee: { ...OTTO, since: SINCE } });
    expect(buttons(html)).toEqual(['Hand back', 'Give']);
  });

  it('shows a viewer who holds it and who may assign, with no form', async () => {
    const html = await render({ assignee: { ...OLGA, since: SINCE }, colleagues: [], canAssign: false });
    expect(html).toContain('Olga Operator');
    expect(html).not.toContain('<form');
    expect(html).toContain('Operators and administrators take requests and give them to colleagues.');
  });

  it('speaks French and Dutch', async () => {
    expect(buttons(await render({}, 'fr'))).toEqual(['Prendre en charge', 'Attribuer']);
    expect(buttons(await render({ assignee: { ...OLGA, since: SINCE } }, 'nl'))).toEqual(['Overnemen', 'Teruggeven', 'Toewijzen']);
  });
});
