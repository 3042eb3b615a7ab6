// The part of oidc-provider's API the test provider uses (the package ships no types).
declare module 'oidc-provider' {
  import type { Server } from 'node:http';

  type Account = { accountId: string; claims(): Promise<Record<string, unknown>> };

  export type ProviderConfiguration = {
    clients: Array<Record<string, unknown>>;
    findAccount(context: unknown, id: string): Promise<Account | undefined>;
    claims?: Record<string, string[]>;
    cookies?: { keys: string[] };
    features?: Record<string, { enabled: boolean }>;
    pkce?: { required(): boolean };
    ttl?: Record<string, number>;
  };

  export default class Provider {
    constructor(issuer: string, configuration: ProviderConfiguration);
    listen(port: number, host?: string): Server;
  }
}
