// Types of server.mjs for the TypeScript specs (the project's tsconfig does not read JavaScript).

export interface NextServer {
  /** `http://localhost:<port>` */
  url: string;
  port: number;
  pid: number;
  /** What the server printed so far (its last part, past `outputLimit`), for failure messages. */
  output(): string;
  /** Settles when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then SIGKILL after `stopGraceMs`; resolves once it has exited. Safe to call twice. */
  stop(): Promise<void>;
}

export interface StartNextServerOptions {
  port: number;
  /** The server's own data directory (DATA_DIR). */
  dataDir: string;
  /** Variables the server needs, on top of what it inherits; APP_URL defaults to the server's URL. */
  env?: Record<string, string>;
  /** Node flags before next's own (e.g. --cpu-prof, which Node refuses in NODE_OPTIONS). */
  nodeArgs?: string[];
  /** The path that must answer 200 before the server counts as started; null: return at once. */
  readyPath?: string | null;
  timeoutMs?: number;
  /** A file every chunk the server prints is appended to, as it comes. */
  logFile?: string;
  /** Also pass what the server prints through to this process's stdout and stderr. */
  echo?: boolean;
  /** Past this many characters of output, only the last half is kept in memory. */
  outputLimit?: number;
  /** A process group of its own (default), or this process's group, for a supervisor that stops the group. */
  ownGroup?: boolean;
  stopGraceMs?: number;
  /** Called with `stop` as soon as the process exists, so the caller's cleanup can stop it. */
  register?: (stop: () => Promise<void>) => unknown;
  /** What to do when the port is busy, for the error message. */
  busyHint?: string;
}

/** The root of the repository, where servers and CLIs run. */
export const ROOT: string;
export function inheritedEnv(): Record<string, string>;
export function sandboxServerEnv(options: { port: number; apiKey: string; webhookSecret: string }): Record<string, string>;
export function startNextServer(options: StartNextServerOptions): Promise<NextServer>;
