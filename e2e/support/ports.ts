// Every server a browser test starts gets its port from the run's base port (E2E_PORT), so two
// runs with different base ports (e.g. two worktrees on one machine) never collide.
export const BASE_PORT = Number(process.env.E2E_PORT ?? 3100);

/** The port `offset` above the shared server's; each spec owns a block of ten. */
export const portFor = (offset: number) => BASE_PORT + offset;
