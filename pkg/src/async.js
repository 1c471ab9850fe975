// citemark/async: the index entry (raw HTML sanitized with ammonia),
// its WebAssembly binary loaded as a file: bundlers (Vite, webpack, Rollup,
// esbuild) see the `new URL(…, import.meta.url)` below, copy the .wasm into
// the build as an asset and rewrite the URL; a plain page fetches it beside
// this module. It is fetched and compiled asynchronously (streaming, off the
// main thread, where the server sends application/wasm) when this module is
// first imported: `await ready` before the first call. Under Node the
// "node" condition loads async.node.js instead. See docs/javascript.md, "Loading".
import { createGlue } from "../dist/default/citemark.js";
import { fetchModule, makeApi } from "./api.js";

const wasm = new URL("../dist/default/citemark.wasm", import.meta.url);

// The API's documentation is in async.d.ts (and api.js).
export const { render, adapt, createStream, ready, init, memoryBytes, reset, engine } = makeApi(createGlue, () => fetchModule(wasm));
