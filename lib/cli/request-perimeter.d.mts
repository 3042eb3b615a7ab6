// Types of request-perimeter.mjs for the TypeScript side (the project's tsconfig does not read JavaScript).
import type { IncomingMessage, ServerResponse } from 'node:http';

export const FORM_BODY_LIMIT_BYTES: number;
export const WEBHOOK_BODY_LIMIT_BYTES: number;
export const SANDBOX_API_BODY_LIMIT_BYTES: number;
export const FORM_TOO_LARGE_MESSAGE: string;
export const CLOSE_AFTER_REFUSAL_MS: number;

export type Answer = { status: number; headers: Record<string, string>; body: string };
export type BodyRule = { kind: 'pass' } | { kind: 'limit'; limit: number; tooLarge: Answer } | { kind: 'refuse'; answer: Answer };

export function bodyRuleFor(method: string | undefined, pathname: string): BodyRule;
export function admitRequest(
  request: IncomingMessage,
  response: ServerResponse,
  serve: () => void,
  options?: { expectsContinue?: boolean },
): void;
