// citemark's lite entry (no ammonia: rawHtml "sanitize" escapes raw HTML instead).
// The WebAssembly binary is inlined as base64 (dist/lite/citemark.wasm.js) and
// instantiated synchronously when this module is first imported: no fetch, no
// bundler plugin, no top-level await. See docs/javascript.md, "Loading".
import { createGlue } from "../dist/lite/citemark.js";
import payload from "../dist/lite/citemark.wasm.js";
import { makeApi } from "./api.js";

// The API's documentation is in index.d.ts / lite.d.ts (and api.js).
export const { render, createStream, ready, init, memoryBytes, reset, engine } = makeApi(createGlue, payload);
// The lite wasm leaves the adapters out: `adapt` has a wasm of its own,
// compiled on its first call, and bundled only where it is used.
export { adapt } from "./adapters.js";
