// The forms kit as the server renders it (the markup is the contract; every form using the kit
// also posts without JavaScript): what each piece says to the browser and to assistive technology.
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Language } from '@/lib/i18n/languages';
import { inLanguage } from '@/test/support/in-language';
import { FilterField, FilterForm } from './filter-form';
import { FilterProblemsAlert } from './filter-problems-alert';
import { PasswordField } from './password-field';
import { PendingSubmitButton } from './pending-submit-button';

/** Rendered as a page would: with the request's messages (English here). */
const markup = async (node: ReactNode, language: Language = 'en') => renderToStaticMarkup(await inLanguage(node, language));
const inputOf = (html: string) => /<input[^>]*>/.exec(html)?.[0] ?? '';
const openingTag = (html: string) => /^<[^>]*>/.exec(html)?.[0] ?? '';
/** An attribute's value in a tag (undefined when it has none): classes such as `disabled:…` do not count. */
const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

describe('PasswordField', () => {
  it('is a labelled password input with its autocomplete and no value, described by its hint', async () => {
    const html = await markup(<PasswordField id="newPassword" label="New password" hint="At least 12." autoComplete="new-password" />);
    const input = inputOf(html);
    expect(html).toContain('<label for="newPassword"');
    expect(input).toContain('type="password"');
    expect(input).toContain('name="newPassword"');
    expect(input).toContain('autoComplete="new-password"');
    expect(input).toContain('aria-describedby="newPassword-hint"');
    expect(attribute(input, 'aria-invalid')).toBeUndefined();
    expect(attribute(input, 'value')).toBeUndefined();
    expect(attribute(input, 'required')).toBeUndefined();
  });

  it('with an error: marked invalid and described by the error, posted under its own name if given', async () => {
    const html = await markup(
      <PasswordField id="off-password" name="password" label="Current password" autoComplete="current-password" required error="Wrong." />,
    );
    const input = inputOf(html);
    expect(input).toContain('name="password"');
    expect(input).toContain('id="off-password"');
    expect(attribute(input, 'required')).toBe('');
    expect(input).toContain('aria-invalid="true"');
    expect(input).toContain('aria-describedby="off-password-error"');
    expect(html).toContain('<p id="off-password-error" aria-live="polite"');
    expect(html).toContain('Wrong.</p>');
  });
});

describe('PendingSubmitButton', () => {
  it('idle: an enabled submit button with its icon and label', async () => {
    const html = await markup(
      <PendingSubmitButton pending={false} pendingLabel="Saving…" icon={<i data-icon="" />}>
        Save
      </PendingSubmitButton>,
    );
    expect(html).toMatch(/^<button type="submit"[^>]*><i data-icon=""><\/i>Save<\/button>$/);
    expect(attribute(openingTag(html), 'disabled')).toBeUndefined();
  });

  it('pending: disabled, a spinner hidden from screen readers in place of the icon, and the pending label', async () => {
    const html = await markup(
      <PendingSubmitButton pending pendingLabel="Saving…" icon={<i data-icon="" />}>
        Save
      </PendingSubmitButton>,
    );
    expect(attribute(openingTag(html), 'disabled')).toBe('');
    // The spinner: spinning and hidden from screen readers, whatever order its attributes come in.
    const spinner = /<svg[^>]*>/.exec(html)?.[0] ?? '';
    expect(spinner).toMatch(/class="[^"]*animate-spin/);
    expect(spinner).toContain('aria-hidden="true"');
    expect(html).not.toContain('data-icon');
    expect(html).toMatch(/>Saving…<\/button>$/);
  });

  it('pending without a pending label keeps its label; `disabled` overrides when it is disabled', async () => {
    const html = await markup(
      <PendingSubmitButton pending disabled={false}>
        Look up
      </PendingSubmitButton>,
    );
    expect(attribute(openingTag(html), 'disabled')).toBeUndefined();
    expect(html).toMatch(/>Look up<\/button>$/);
  });
});

describe('FilterProblemsAlert', () => {
  it('says nothing when every filter was understood', async () => {
    expect(await markup(<FilterProblemsAlert problems={[]} />)).toBe('');
  });

  it('lists each filter it ignores, as a status', async () => {
    const html = await markup(
      <FilterProblemsAlert
        problems={[
          { field: 'status', message: 'The status was not recognised.' },
          { field: 'from', message: 'The start date was not a date.' },
        ]}
      />,
    );
    expect(html).toContain('role="status"');
    expect(html).toContain('Some filters were not understood and are ignored.');
    expect(html).toContain('<li>The status was not recognised.</li><li>The start date was not a date.</li>');
  });

  it('says so in the reader’s language', async () => {
    const problems = [{ field: 'status', message: '…' }];
    expect(await markup(<FilterProblemsAlert problems={problems} />, 'fr')).toContain(
      'Certains filtres n’ont pas été compris et sont ignorés.',
    );
    expect(await markup(<FilterProblemsAlert problems={problems} />, 'nl')).toContain(
      'Sommige filters werden niet begrepen en worden genegeerd.',
    );
  });
});

describe('FilterForm', () => {
  const render = (searchLabel?: string) =>
    markup(
      <FilterForm action="/" clearHref="/" submitLabel="Apply filters" clearLabel="Clear filters" searchLabel={searchLabel}>
        <FilterField id="register-q" label="Search">
          <input id="register-q" name="q" />
        </FilterField>
      </FilterForm>,
    );

  it('is a GET form with labelled fields, a submit button and a plain link that clears the filters', async () => {
    const html = await render();
    const form = openingTag(html);
    expect(attribute(form, 'method')).toBe('get');
    expect(attribute(form, 'action')).toBe('/');
    expect(attribute(form, 'role')).toBeUndefined();
    expect(html).toContain('<label for="register-q" class="block text-sm font-medium text-slate-900">Search</label>');
    expect(html).toMatch(/<button type="submit"[^>]*>Apply filters<\/button>/);
    expect(html).toMatch(/<a [^>]*href="\/"[^>]*>Clear filters<\/a>/);
  });

  it('a label that may change keeps to the width of its control, cut on one line and whole in its title', async () => {
    const html = await markup(
      <FilterField id="from" label="From (America/Argentina/Buenos_Aires)" clipLabel>
        <input id="from" name="from" type="date" />
      </FilterField>,
    );
    const label = openingTag(html.slice(html.indexOf('<label')));
    expect(attribute(label, 'class')?.split(' ')).toEqual(expect.arrayContaining(['w-0', 'min-w-full', 'truncate']));
    expect(attribute(label, 'title')).toBe('From (America/Argentina/Buenos_Aires)');
    expect(html).toContain('>From (America/Argentina/Buenos_Aires)</label>');
  });

  it('with a search label: a named search landmark', async () => {
    const form = openingTag(await render('Filter recent requests'));
    expect(attribute(form, 'role')).toBe('search');
    expect(attribute(form, 'aria-label')).toBe('Filter recent requests');
  });
});
