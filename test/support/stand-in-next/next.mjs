// @ts-check
// Test support: a stand-in for Next.js's custom-server API, for tests of what lib/cli/server.mjs
// itself does with a request before the app sees it. Its handler does what Next does with a body
// it has no use for, at worst: reads all of it. It answers with what it received, and prints a
// line per request, so a test can tell which requests reached the app and with how many bytes.

/** @returns {{ prepare(): Promise<void>, close(): Promise<void>, getRequestHandler(): (request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse) => Promise<void> }} */
export default function next() {
  return {
    prepare: async () => {},
    close: async () => {},
    getRequestHandler: () => async (request, response) => {
      let received = 0;
      for await (const chunk of request) received += /** @type {Buffer} */ (chunk).byteLength;
      console.log(JSON.stringify({ reached: request.url, method: request.method, received }));
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      response.end(`received ${received}`);
    },
  };
}
