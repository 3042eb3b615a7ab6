// The evidence pack's PDF read back as an auditor's tools read it: its text through poppler's
// pdftotext (the names with their accents, the id, the purpose, the outcome, the signature's key),
// in English and in French, and its structure in the file itself (tagged, its language, A4).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { CHECKPOINT_KEY, PACK_KEY, sampleHash, samplePack } from '@/test/support/evidence-pack';
import type { EvidencePack } from './pack-format';
import { renderEvidencePdf } from './pdf.server';

const HAS_PDFTOTEXT = spawnSync('pdftotext', ['-v']).error === undefined;
const dir = mkdtempSync(path.join(tmpdir(), 'evidence-pdf-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function pdfOf(pack: EvidencePack, name: string): Promise<{ file: string; bytes: Buffer }> {
  const bytes = await renderEvidencePdf(pack);
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return { file, bytes };
}

/** The text of a PDF as pdftotext lays it out. */
function textOf(file: string): string {
  return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
}

/** The PDF's objects as text: its compressed streams (the object streams among them) inflated. */
function objectsOf(bytes: Buffer): string {
  const raw = bytes.toString('latin1');
  const parts = [raw];
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = (match.index ?? 0) + match[0].length;
    const end = raw.indexOf('endstream', start);
    try {
      parts.push(inflateSync(bytes.subarray(start, end)).toString('latin1'));
    } catch {
      // Not a deflated stream (or its end ran into its padding): nothing to read there.
    }
  }
  return parts.join('\n');
}

describe('the evidence pack as PDF', () => {
  it.skipIf(!HAS_PDFTOTEXT)('holds the id, the names with their accents, the purpose, the outcome and the keys, in English', async () => {
    const { file } = await pdfOf(samplePack('en'), 'pack-en.pdf');
    const text = textOf(file);
    expect(text).toContain('7f3c9a52-1d4e-4b8a-9c0f-2e5d6a7b8c9d');
    for (const name of ['Joëlle Straß', 'Joëlle Strass-Dvořák', 'Søren Kierkegaard', 'Antonín Dvořák']) expect(text).toContain(name);
    expect(text).toContain('Legal obligation');
    expect(text).toMatch(/Status\s+Completed/);
    expect(text).toMatch(/Method\s+Passport/);
    expect(text).toContain('Same person');
    expect(text).toContain(PACK_KEY);
    expect(text).toContain(CHECKPOINT_KEY);
    // Brussels in November is CET; each history line with its entry's number and hash.
    expect(text).toContain('21 Nov 2026, 17:02 CET');
    expect(text).toContain(`#140 ${sampleHash(2).slice(0, 12)}`);
    expect(text).toContain('No phone number');
    expect(text).toMatch(/Page 1 of \d/);
  });

  it.skipIf(!HAS_PDFTOTEXT)('is written in the staff member’s language: French', async () => {
    const { file } = await pdfOf(samplePack('fr'), 'pack-fr.pdf');
    const text = textOf(file);
    expect(text).toContain('Dossier de preuve');
    expect(text).toContain('7f3c9a52-1d4e-4b8a-9c0f-2e5d6a7b8c9d');
    for (const name of ['Joëlle Straß', 'Søren Kierkegaard', 'Antonín Dvořák']) expect(text).toContain(name);
    expect(text).toContain('Obligation légale');
    expect(text).toContain('Terminée');
    expect(text).toContain('Passeport');
    expect(text).toContain('21 nov. 2026, 17:02 CET');
    expect(text).toContain(PACK_KEY);
    expect(text).toMatch(/Page 1 sur \d/);
  });

  it('is tagged, says its language and title, and prints on A4', async () => {
    const { bytes } = await pdfOf(samplePack('fr'), 'pack-structure.pdf');
    expect(bytes.subarray(0, 8).toString('latin1')).toBe('%PDF-1.7');
    const objects = objectsOf(bytes);
    expect(objects).toMatch(/\/Lang \(fr\)/);
    expect(objects).toMatch(/\/StructTreeRoot \d+ 0 R/);
    expect(objects).toMatch(/\/MarkInfo/);
    expect(objects).toMatch(/\/Marked true/);
    expect(objects).toMatch(/\/DisplayDocTitle true/);
    expect(objects).toMatch(/\/S \/H1/);
    expect(objects).toMatch(/\/S \/Table/);
    expect(objects).toMatch(/\/S \/L\b/);
    expect(objects).toContain('/MediaBox [0 0 595.28 841.89]');
    expect(objects).toMatch(/\/Title/);
  });
});

if (!HAS_PDFTOTEXT) {
  // Said once, where the run shows it: the text checks need poppler-utils (`.ci/run` installs it).
  console.warn('pdftotext is missing: the evidence PDF text tests are skipped (install poppler-utils)');
}
