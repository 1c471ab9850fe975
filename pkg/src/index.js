// citemark's index entry (raw HTML sanitized with ammonia).
// The WebAssembly binary is inlined as base64 (dist/default/citemark.wasm.js) and
// instantiated synchronously when this module is first imported: no fetch, no
// bundler plugin, no top-level await. See docs/javascript.md, "Loading".
import { createGlue } from "../dist/default/citemark.js";
import payload from "../dist/default/citemark.wasm.js";
import { makeApi } from "./api.js";

// The API's documentation is in index.d.ts / lite.d.ts (and api.js).
export const { render, adapt, createStream, ready, init, memoryBytes, reset, engine } = makeApi(createGlue, payload);
