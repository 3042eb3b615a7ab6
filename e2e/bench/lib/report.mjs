// The bench's report: one row per budgeted figure (measured, budget, PASS/FAIL) as an aligned
// text table for the terminal, the same as Markdown, and everything measured as JSON.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function textTable(rows) {
  const header = ['Figure', 'Measured', 'Budget', 'Result'];
  const cells = rows.map((r) => [r.figure, r.measured, r.budget, r.result]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (values) =>
    values
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

const md = (text) => String(text).replaceAll('|', '\\|');

export function markdown({ rows, meta, notes }) {
  const passed = rows.filter((r) => r.result === 'PASS').length;
  return [
    '# Benchmark results',
    '',
    `Run ${meta.finishedAt} · ${meta.elapsedS} s · ${meta.machine} · load average before the run ${meta.loadAverageBefore} · ${passed}/${rows.length} budgets passed`,
    '',
    'Budgets are ratios or differences against a baseline measured in the same run, interleaved, because absolute times drift on a shared machine.',
    '',
    '| Figure | Measured | Budget | Result |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${md(r.figure)} | ${md(r.measured)} | ${md(r.budget)} | ${r.result === 'PASS' ? 'PASS' : `**${r.result}**`} |`),
    '',
    '## Notes',
    '',
    ...notes.map((n) => `- ${n}`),
    '',
  ].join('\n');
}

export function writeResults(dir, { rows, meta, notes, figures, errors }) {
  mkdirSync(dir, { recursive: true });
  // Written whole to a temporary name, then renamed: an interrupted run never leaves half a file.
  const write = (name, text) => {
    const target = path.join(dir, name);
    writeFileSync(`${target}.tmp`, text);
    renameSync(`${target}.tmp`, target);
  };
  write('latest.md', markdown({ rows, meta, notes }));
  write('latest.json', `${JSON.stringify({ meta, rows, figures, errors, notes }, null, 2)}\n`);
}
