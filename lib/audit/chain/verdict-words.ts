// The verifier's verdict in plain English lines, for the command line and the logs. (Staff read
// the same verdict on the audit page in their own language, from the catalogs.)
import type { ChainBreak, ChainVerdict } from './verify-chain';

const number = (value: number) => value.toLocaleString('en-GB');

const BREAKS: Record<ChainBreak['kind'], (failure: ChainBreak) => string> = {
  changed: (f) => `entry ${number(f.seq)} was changed: its content or place no longer gives the hash it was written with`,
  deleted: (f) =>
    f.checkpointSeq !== undefined
      ? `entries from ${number(f.seq)} on are missing: the checkpoint at entry ${number(f.checkpointSeq)} was signed over them`
      : `an entry was deleted at ${number(f.seq)}: the entry there follows a hash that no entry has`,
  inserted: (f) =>
    `an entry was inserted at ${number(f.seq)}: it is not part of the chain, and the entry after it follows the one before it`,
  reordered: (f) => `entries were reordered at ${number(f.seq)}: the entry there comes before the entry it follows`,
  'checkpoint-signature': (f) =>
    `the checkpoint at entry ${number(f.checkpointSeq ?? f.seq)} is not signed by any of the public keys given (a wrong or unknown key, or a changed checkpoint)`,
  'checkpoint-mismatch': (f) =>
    `the chain at entry ${number(f.seq)} is not what the checkpoint there signed: it was rewritten after signing`,
  'anchor-unsigned': (f) => `the entries before ${number(f.seq + 1)} were purged, but no signed checkpoint attests where the rest begins`,
};

export function describeBreak(failure: ChainBreak): string {
  return BREAKS[failure.kind](failure) + (failure.entryId ? ` (entry id ${failure.entryId})` : '');
}

export function describeVerdict(verdict: ChainVerdict): string[] {
  const lines: string[] = [];
  const first = verdict.anchor.seq + 1;
  const checkpoint = verdict.lastCheckpoint;
  const signed = checkpoint
    ? `checkpoint at entry ${number(checkpoint.seq)}, signed ${checkpoint.at} by key ${checkpoint.keyFingerprint.slice(0, 16)}…`
    : 'no checkpoint';
  if (verdict.break) {
    lines.push(`Chain NOT intact: ${describeBreak(verdict.break)}.`);
    lines.push(
      verdict.verifiedSeq >= first
        ? `Intact up to entry ${number(verdict.verifiedSeq)} / ${signed}.`
        : `Nothing after entry ${number(verdict.anchor.seq)} could be verified.`,
    );
  } else if (verdict.verifiedSeq < first) {
    lines.push(`Chain intact: no entries ${verdict.anchor.seq > 0 ? `after entry ${number(verdict.anchor.seq)}` : 'yet'}.`);
  } else {
    lines.push(`Chain intact: entries ${number(first)} to ${number(verdict.verifiedSeq)} (${number(verdict.entries)}), up to ${signed}.`);
    if (verdict.unsignedEntries > 0)
      lines.push(`${number(verdict.unsignedEntries)} entries after the last checkpoint are linked but not yet signed.`);
  }
  if (verdict.anchor.seq > 0) {
    lines.push(
      `Entries 1 to ${number(verdict.anchor.seq)} were purged under the retention policy; verification starts from the hash of entry ${number(verdict.anchor.seq)}, which the first checkpoint at or after it attests.`,
    );
  }
  return lines;
}
