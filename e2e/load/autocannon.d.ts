// The part of autocannon's API the two-instance load run uses (the package ships no types, and
// the JavaScript load test and bench do not need them).
declare module 'autocannon' {
  namespace autocannon {
    interface Client {
      on(event: 'body', listener: (body: Buffer) => void): void;
    }
    interface RequestParams {
      path?: string;
      [key: string]: unknown;
    }
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      setupClient?: (client: Client) => void;
      requests?: Array<{ setupRequest?: (request: RequestParams) => RequestParams }>;
    }
    interface Histogram {
      average: number;
      total: number;
      p50: number;
      p99: number;
    }
    interface Result {
      requests: Histogram;
      latency: Histogram;
      '2xx': number;
      non2xx: number;
      '5xx': number;
      errors: number;
      timeouts: number;
    }
  }
  function autocannon(options: autocannon.Options, done: (error: Error | null, result: autocannon.Result) => void): unknown;
  namespace autocannon {
    function track(instance: unknown, options: Record<string, boolean>): void;
  }
  export default autocannon;
}
