// A starting point for in-memory databases: the dump (`PGlite.dumpDataDir`) of one that is
// already initialised and migrated, so that each new one skips both. Tests open an in-memory
// database per file, and creating each from nothing is most of their start-up time. Migrations
// still run on open and find nothing left to do. Kept apart from embedded-database.ts so that
// registering a template costs a test file nothing until it opens a database.
import { processSingleton } from '@/lib/platform/process-singleton';

type TemplateSlot = { load: (() => Promise<Blob>) | undefined };

const slot = () => processSingleton<TemplateSlot>('in-memory-template', () => ({ load: undefined }));

/** Registers how to read the template; it is read when the first in-memory database opens. */
export function setInMemoryTemplateLoader(load: (() => Promise<Blob>) | undefined): void {
  slot().load = load;
}

/** The template for a new in-memory database, or undefined to start from nothing. */
export function loadInMemoryTemplate(): Promise<Blob | undefined> {
  return slot().load?.() ?? Promise.resolve(undefined);
}
