// `npm run audit -- …`: checks what the Desk hands to an auditor, offline. It reads only the
// files it is given — no database, no server, no configuration — so an auditor can run it (or
// their own verifier, docs/audit-chain.md) on a machine the Desk never touched.
//
//   audit verify <export.jsonl> --public-key <keys.pem>
//   audit verify-pack <pack.json> --public-key <keys.pem>   (docs/evidence-pack.md)
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { type CliLines, runAsProgram } from '@/lib/platform/cli-program';
import { publicKeysFromPem } from './chain/keys';
import { describeVerdict } from './chain/verdict-words';
import { ExportFormatError, verifyExportFile } from './chain/verify-export';
import { verifyPack } from './chain/verify-pack';

const USAGE = `Usage:
  npm run audit -- verify <export.jsonl> --public-key <keys.pem>
      Checks an audit trail export (JSON Lines, from the audit page) against the public keys you
      hold (a PEM file; give --public-key again, or put several keys in one file, for the keys
      used before a rotation). Exit 0: intact; 1: broken; 2: the files could not be read.
  npm run audit -- verify-pack <pack.json> --public-key <keys.pem>
      Checks a verification's evidence pack (the signed JSON from its detail page, docs/evidence-pack.md):
      its signature, each audit entry's hash and the checkpoint that signs them. Same exit codes.`;

export async function runAuditCli(argv: string[], { out, err }: CliLines): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== 'verify' && command !== 'verify-pack') {
    err(command ? `Unknown command: ${command}` : 'No command given.');
    err(USAGE);
    return 2;
  }
  let parsed: ReturnType<typeof parseArguments>;
  try {
    parsed = parseArguments(rest);
  } catch (error) {
    err(error instanceof Error ? error.message : String(error));
    err(USAGE);
    return 2;
  }
  return command === 'verify' ? verifyCommand(parsed, { out, err }) : verifyPackCommand(parsed, { out, err });
}

function parseArguments(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    options: { 'public-key': { type: 'string', multiple: true } },
    allowPositionals: true,
  });
  const keyFiles = values['public-key'] ?? [];
  if (positionals.length !== 1) throw new Error('Give exactly one file to check.');
  if (keyFiles.length === 0) throw new Error('Give the public key to check against: --public-key <file>.');
  return { file: positionals[0]!, keyFiles };
}

async function readKeys(keyFiles: string[]) {
  const keys = new Map();
  for (const file of keyFiles) for (const [fingerprint, key] of publicKeysFromPem(await readFile(file, 'utf8'))) keys.set(fingerprint, key);
  if (keys.size === 0) throw new Error(`No Ed25519 public key (-----BEGIN PUBLIC KEY-----) in ${keyFiles.join(', ')}.`);
  return keys;
}

async function verifyCommand({ file, keyFiles }: { file: string; keyFiles: string[] }, { out, err }: CliLines): Promise<number> {
  try {
    const verdict = await verifyExportFile(file, await readKeys(keyFiles));
    for (const line of describeVerdict(verdict)) (verdict.intact ? out : err)(line);
    return verdict.intact ? 0 : 1;
  } catch (error) {
    err(error instanceof ExportFormatError ? `${file}, ${error.message}` : error instanceof Error ? error.message : String(error));
    return 2;
  }
}

async function verifyPackCommand({ file, keyFiles }: { file: string; keyFiles: string[] }, { out, err }: CliLines): Promise<number> {
  let pack: unknown;
  let keys: Awaited<ReturnType<typeof readKeys>>;
  try {
    keys = await readKeys(keyFiles);
    pack = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    err(`${error instanceof SyntaxError ? `${file} is not JSON: ` : ''}${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  const verdict = verifyPack(pack, keys);
  if (!verdict.ok) {
    err(`Pack NOT intact: ${verdict.reason}`);
    return 1;
  }
  const { checkpoint } = verdict;
  out(
    `Pack intact: verification ${verdict.verificationId}, ${verdict.entries} audit ${verdict.entries === 1 ? 'entry' : 'entries'}, ` +
      `covered by checkpoint ${checkpoint.seq} of ${checkpoint.at} (key ${checkpoint.keyFingerprint}); pack signed with key ${verdict.keyFingerprint}.`,
  );
  return 0;
}

void runAsProgram(import.meta.url, runAuditCli);
