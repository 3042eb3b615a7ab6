// Types of processes.mjs for the TypeScript specs and scripts (the project's tsconfig does not read JavaScript).
import type { ChildProcess } from 'node:child_process';

export function stopProcess(child: ChildProcess, exited: Promise<unknown>, options?: { group?: boolean; graceMs?: number }): Promise<void>;
export function rssMb(pid: number, digits?: number): number;
export function findServingProcess(rootPid: number): { pid: number; title: string; tree: Array<{ pid: number; cmd: string }> };
