// Types for `citemark/async` and `citemark/lite/async`: the same API as
// `citemark` (and `citemark/lite`), with the WebAssembly binary loaded as a
// file and compiled asynchronously in browsers: `await ready` (or
// `await init()`) before the first call, which throws until then. Under Node
// it is read from disk and compiled on import, and `ready` is resolved at once.
export * from "./index.js";
