// Types of ports.mjs for the TypeScript specs (the project's tsconfig does not read JavaScript).

export function isListening(port: number): Promise<boolean>;
export function assertPortFree(port: number, hint?: string): Promise<void>;
export function findFreePort(range: { from: number; to: number }): Promise<number>;
