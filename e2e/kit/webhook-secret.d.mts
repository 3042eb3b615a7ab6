// Types of webhook-secret.mjs for the TypeScript specs (the project's tsconfig does not read JavaScript).

export function newWebhookSecret(): string;
