// Next.js start-up hook. Only the Node.js server does work here; the composition root itself
// lives in instrumentation-node.ts so the edge bundle never sees its imports.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // `next build` may load this file while collecting pages: open nothing then.
  if (process.env.NEXT_PHASE === 'phase-production-build') return;
  const { startVerificationDesk } = await import('./instrumentation-node');
  await startVerificationDesk();
}
