// Vitest setup file, run in each test file's worker: new in-memory databases start from the
// template the global setup built (test/support/pglite-template.global-setup.ts). Only the file's
// path is registered here; a test file that never opens a database never reads it.
import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import { setInMemoryTemplateLoader } from '@/lib/platform/in-memory-template';

const file = inject('pgliteTemplate');
if (file) setInMemoryTemplateLoader(async () => new Blob([await readFile(file)]));
