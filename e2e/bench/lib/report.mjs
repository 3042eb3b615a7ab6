// The bench's report: for each store measured, one row per figure (measured, budget, PASS/FAIL,
// or "reported" for a row without a budget) as an aligned text table for the terminal, the same
// as Markdown, and everything measured as JSON.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The result of a row that is reported, not budgeted: it counts neither as passed nor as failed. */
export const REPORTED = 'reported';

/** The rows with a budget (a reported row has none), and how many of them passed. */
export function budgetCount(rows) {
  const budgeted = rows.filter((r) => r.result !== REPORTED);
  return { passed: budgeted.filter((r) => r.result === 'PASS').length, budgeted: budgeted.length };
}

/** PASS and reported plain, anything else in bold. */
const markedResult = (result) => (result === 'PASS' || result === REPORTED ? result : `**${result}**`);

export function textTable(rows) {
  return textGrid(
    ['Figure', 'Measured', 'Budget', 'Result'],
    rows.map((r) => [r.figure, r.measured, r.budget, r.result]),
  );
}

/** Any table (a header, rows of cells) aligned for the terminal. */
export function textGrid(header, cells) {
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (values) =>
    values
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

const md = (text) => String(text).replaceAll('|', '\\|');

/** A store's other tables (`tables`: { title, header, rows }), e.g. the data-scale phase's, as Markdown. */
const markdownTables = (tables = []) =>
  tables.flatMap(({ title, header, rows }) => [
    '',
    `### ${md(title)}`,
    '',
    `| ${header.map(md).join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((cells) => `| ${cells.map(md).join(' | ')} |`),
  ]);

export function markdown({ meta, stores }) {
  const summary = stores
    .map((s) => {
      const { passed, budgeted } = budgetCount(s.rows);
      return `${s.store} ${passed}/${budgeted}`;
    })
    .join(', ');
  return [
    '# Benchmark results',
    '',
    `Run ${meta.finishedAt} · ${meta.elapsedS} s · ${meta.machine} · load average before the run ${meta.loadAverageBefore} · budgets passed: ${summary}`,
    '',
    'Budgets are ratios or differences against a baseline measured in the same run, interleaved, because absolute times drift on a shared machine.',
    ...stores.flatMap(({ label, rows, tables }) => [
      '',
      `## ${label}`,
      '',
      '| Figure | Measured | Budget | Result |',
      '|---|---|---|---|',
      ...rows.map((r) => `| ${md(r.figure)} | ${md(r.measured)} | ${md(r.budget)} | ${markedResult(r.result)} |`),
      ...markdownTables(tables),
    ]),
    ...stores.flatMap(({ label, notes }) => ['', `## Notes: ${label}`, '', ...notes.map((n) => `- ${n}`)]),
    '',
  ].join('\n');
}

/** `stores`: one report per store measured ({ store, label, rows, tables, notes, figures, errors }), in the order run. */
export function writeResults(dir, { meta, stores }) {
  mkdirSync(dir, { recursive: true });
  // Written whole to a temporary name, then renamed: an interrupted run never leaves half a file.
  const write = (name, text) => {
    const target = path.join(dir, name);
    writeFileSync(`${target}.tmp`, text);
    renameSync(`${target}.tmp`, target);
  };
  write('latest.md', markdown({ meta, stores }));
  write('latest.json', `${JSON.stringify({ meta, stores }, null, 2)}\n`);
}

/** Prints each store's table (and its extra tables) to stdout; did a budget fail, a figure err? */
export function printReports(reports) {
  let failed = false;
  let erred = false;
  for (const report of reports) {
    const { passed, budgeted } = budgetCount(report.rows);
    console.log(`\n${report.label}: ${passed}/${budgeted} budgets passed\n\n${textTable(report.rows)}`);
    for (const table of report.tables) console.log(`\n${table.title}\n\n${textGrid(table.header, table.rows)}`);
    failed ||= passed < budgeted;
    erred ||= Object.keys(report.errors).length > 0;
  }
  return { failed, erred };
}
