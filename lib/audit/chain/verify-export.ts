// The offline verifier: checks a JSON Lines export of the chain against the public keys the auditor
// holds, with no database and no server. It reads the file a line at a time (the checkpoints come
// before the entries, so the entries can be checked as they stream past).
import type { KeyObject } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Checkpoint } from './checkpoint';
import { chainExportLine } from './export-format';
import { type ChainAnchor, type ChainVerdict, ChainVerifier } from './verify-chain';

export class ExportFormatError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
    this.name = 'ExportFormatError';
  }
}

export type ExportVerdict = ChainVerdict & { head: ChainAnchor; exportedAt: string };

/** Verifies the export's lines (an async iterable of text lines) with the given public keys. */
export async function verifyExportLines(lines: AsyncIterable<string>, keys: ReadonlyMap<string, KeyObject>): Promise<ExportVerdict> {
  let header: { anchor: ChainAnchor; head: ChainAnchor; exportedAt: string } | undefined;
  const checkpoints: Checkpoint[] = [];
  let verifier: ChainVerifier | undefined;
  let number = 0;
  for await (const text of lines) {
    number++;
    if (text.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ExportFormatError(number, 'is not JSON');
    }
    const result = chainExportLine.safeParse(parsed);
    if (!result.success)
      throw new ExportFormatError(number, result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; '));
    const line = result.data;
    if (line.type === 'export') {
      if (header) throw new ExportFormatError(number, 'a second header');
      header = { anchor: line.anchor, head: line.head, exportedAt: line.exportedAt };
      continue;
    }
    if (!header) throw new ExportFormatError(number, 'comes before the header line');
    if (line.type === 'public-key') continue; // The auditor's own copy of the keys is what counts.
    if (line.type === 'checkpoint') {
      if (verifier) throw new ExportFormatError(number, 'a checkpoint after the entries began');
      const { type: _, ...checkpoint } = line;
      checkpoints.push(checkpoint);
      continue;
    }
    verifier ??= new ChainVerifier(header.anchor, checkpoints, keys);
    const { type: _, ...entry } = line;
    if (!verifier.push(entry)) break;
  }
  if (!header) throw new ExportFormatError(number, 'no header line: not an audit chain export');
  verifier ??= new ChainVerifier(header.anchor, checkpoints, keys);
  return { ...verifier.finish(header.head), head: header.head, exportedAt: header.exportedAt };
}

/** Verifies an export file. */
export function verifyExportFile(file: string, keys: ReadonlyMap<string, KeyObject>): Promise<ExportVerdict> {
  return verifyExportLines(createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY }), keys);
}
