// A throwaway PostgreSQL server for tests: the machine's own binaries (Debian's `postgresql`;
// .ci/run installs it where it is missing), a fresh cluster in a temporary directory, a free port
// on loopback, stopped and removed afterwards. PostgreSQL refuses to run as root, and work on these
// machines runs as root: the cluster then belongs to the `postgres` user and its programs run as
// that user.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';

export type PostgresServer = {
  /** postgres://postgres@127.0.0.1:<port>/postgres, trust authentication on loopback only. */
  url: string;
  port: number;
  /** The server's major version, e.g. 15. */
  majorVersion: number;
  /** Stops the server but keeps its data, to show what an outage does; `resume` starts it again on the same port. */
  halt(): void;
  resume(): void;
  stop(): Promise<void>;
};

/** Where initdb and pg_ctl are: on PATH, else in Debian's versioned directory (newest first). */
export function findPostgresBinaries(): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl'))) return dir;
  }
  const debian = '/usr/lib/postgresql';
  if (!existsSync(debian)) return null;
  const versions = readdirSync(debian)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const dir = path.join(debian, version, 'bin');
    if (existsSync(path.join(dir, 'initdb'))) return dir;
  }
  return null;
}

/** The user the cluster runs as: ourselves, or `postgres` when we are root. */
function clusterUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

export async function startPostgresServer(): Promise<PostgresServer> {
  const bin = findPostgresBinaries();
  if (!bin) throw new Error('PostgreSQL is not installed: no initdb on PATH or in /usr/lib/postgresql/*/bin (apt-get install postgresql)');
  const user = clusterUser();
  const root = mkdtempSync(path.join(os.tmpdir(), 'verification-desk-pg-'));
  if (user) chownSync(root, user.uid, user.gid);
  const dataDir = path.join(root, 'data');
  const run = (program: string, args: string[]) => {
    const result = spawnSync(path.join(bin, program), args, {
      encoding: 'utf8',
      ...(user ?? {}),
      // initdb and pg_ctl look for their siblings and locale settings; a root HOME is not theirs.
      env: { ...process.env, HOME: root, LC_ALL: 'C.UTF-8' },
      cwd: root,
    });
    if (result.status !== 0) throw new Error(`${program} failed (${result.status}): ${result.stderr || result.stdout}`);
    return result.stdout;
  };

  run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  // fsync off: a test cluster is thrown away, and durability costs seconds on a busy disk.
  const options = `-k ${root} -c listen_addresses=127.0.0.1 -p ${port} -c fsync=off -c max_connections=100`;
  const start = () => run('pg_ctl', ['-D', dataDir, '-o', options, '-l', path.join(root, 'server.log'), '-w', '-t', '60', 'start']);
  start();
  const majorVersion = Number(/\d+/.exec(run('pg_ctl', ['--version']))?.[0] ?? Number.NaN);

  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    majorVersion,
    halt() {
      run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
    },
    resume() {
      start();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}
