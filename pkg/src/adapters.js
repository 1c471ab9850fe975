// citemark/adapters: `adapt(provider, response)`, the provider adapters in a
// WebAssembly binary of their own (inlined as base64, like the synchronous
// entries), compiled synchronously on the first call rather than on import.
// The lite entries re-export `adapt` from here, so that their own wasm does
// not carry the adapters: a bundle holds this module (139 KB gzipped) only
// when the app uses `adapt` (package.json's `sideEffects: false`). The
// default entries' wasm holds the adapters itself. See docs/javascript.md.
import { createGlue } from "../dist/adapters/citemark.js";
import payload from "../dist/adapters/citemark.wasm.js";
import { makeApi } from "./api.js";

let api = null;

/** The API's documentation is in index.d.ts (`adapt`). */
export function adapt(provider, response) {
  api ??= makeApi(createGlue, payload);
  return api.adapt(provider, response);
}
