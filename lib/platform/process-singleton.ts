// One value per server process, whichever bundle asks for it. Next.js bundles instrumentation,
// each route handler, page and server action separately, and every bundle gets its own copy of
// module-level state: a cache, a limiter or a database handle kept in a module variable would
// exist several times in one process. Keeping it on globalThis under a registry-wide symbol
// makes every bundle find the same one.

/**
 * The process's value for `name`, created by `create` on first use. `name` is the identity:
 * two call sites that pass the same name share one value, so each name belongs to one module.
 */
export function processSingleton<T>(name: string, create: () => T): T {
  const holder = globalThis as unknown as Record<symbol, T | undefined>;
  const key = Symbol.for(`verification-desk.${name}`);
  if (holder[key] === undefined) holder[key] = create();
  return holder[key] as T;
}
