// zod compiles object parsers with `new Function` where it can, and finds out whether it can by
// calling `Function('')` once. Pages run under a Content-Security-Policy without 'unsafe-eval'
// (proxy.ts), so in the browser that probe is a CSP violation, reported on every page that parses
// an object (the browser's Issues panel, Lighthouse's best practices). The schemas the browser
// loads import this module first, so zod never tries; on the server the interpreted parsers cost
// nothing measurable for forms of a few fields.
import { z } from 'zod';

z.config({ jitless: true });
