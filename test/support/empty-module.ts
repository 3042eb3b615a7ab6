// Stands in for the `server-only` package under Vitest, where every module runs on the server.
export {};
