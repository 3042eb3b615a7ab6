// Types of browser.mjs for the TypeScript specs (the project's tsconfig does not read JavaScript).
export function findChromium(): string;
export function findHeadlessChromium(): string;
export const CHROMIUM_ARGS: string[];
