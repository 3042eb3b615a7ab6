import { spawn } from 'node:child_process';
// Runs one of the bench's runner scripts (load-runner.mjs, lighthouse-runner.mjs) in a Node
// process of its own. The job goes in as JSON on stdin, never on the command line, because jobs
// hold an API key or a session cookie and `ps` shows command lines. The script answers with
// JSON lines on stdout.

/**
 * Resolves with the parsed stdout lines once the script exits 0. Otherwise it rejects with the
 * end of stderr; the lines it did print are on the error as `lines`.
 * `register(undo)` (optional) lets the bench's cleanup stop the process; `timeoutMs` (optional)
 * kills it if it overruns, so the bench's deadline holds.
 */
export function runJob(script, job, { what, register, timeoutMs } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'pipe'] });
    const unregister = register ? register(() => child.kill('SIGKILL')) : () => {};
    const timer = timeoutMs ? setTimeout(() => child.kill('SIGKILL'), timeoutMs) : undefined;
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const settle = () => {
      clearTimeout(timer);
      unregister();
    };
    child.once('error', (error) => {
      settle();
      reject(error);
    });
    child.once('exit', (code, signal) => {
      settle();
      const lines = stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line));
      if (code === 0) return resolve(lines);
      const error = new Error(`${what ?? script} failed (${code ?? signal}):\n${stderr.slice(-2000)}`);
      error.lines = lines;
      reject(error);
    });
    child.stdin.end(JSON.stringify(job));
  });
}
