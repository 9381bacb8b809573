// grammY's Node build types its `fetch` option as node-fetch v2's default export, but node-fetch v2
// ships no types (and @types/node-fetch is not installed), so that option was typed as an error
// `any`. The bot only ever passes a WHATWG-style fetch (Node's global one or a test fake), which
// is what this declares, so passing one is type-checked instead of silently `any`.
declare module "node-fetch" {
  const fetch: typeof globalThis.fetch;
  export default fetch;
}
