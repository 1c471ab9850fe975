// citemark/lite/async: the lite entry (no ammonia: rawHtml "sanitize" escapes raw HTML instead),
// its WebAssembly binary loaded as a file: bundlers (Vite, webpack, Rollup,
// esbuild) see the `new URL(…, import.meta.url)` below, copy the .wasm into
// the build as an asset and rewrite the URL; a plain page fetches it beside
// this module. It is fetched and compiled asynchronously (streaming, off the
// main thread, where the server sends application/wasm) when this module is
// first imported: `await ready` before the first call. Under Node the
// "node" condition loads lite-async.node.js instead. See docs/javascript.md, "Loading".
import { createGlue } from "../dist/lite/citemark.js";
import { fetchModule, makeApi } from "./api.js";

const wasm = new URL("../dist/lite/citemark.wasm", import.meta.url);

// The API's documentation is in async.d.ts (and api.js).
export const { render, createStream, ready, init, memoryBytes, reset, engine } = makeApi(createGlue, () => fetchModule(wasm));
// The lite wasm leaves the adapters out: `adapt` has a wasm of its own,
// compiled on its first call, and bundled only where it is used.
export { adapt } from "./adapters.js";
