// citemark's index entry (raw HTML sanitized with ammonia).
// The WebAssembly binary is inlined as base64 (dist/default/citemark.wasm.js) and
// instantiated synchronously when this module is first imported: no fetch, no
// bundler plugin, no top-level await. See the README's "JavaScript package".
import * as glue from "../dist/default/citemark.js";
import payload from "../dist/default/citemark.wasm.js";
import { makeApi } from "./api.js";

const api = makeApi(glue, payload);

/** Markdown to sanitized HTML and the citation index. */
export const render = api.render;
/** A provider's raw response to citemark's input (markdown, sources, aliases, warnings). */
export const adapt = api.adapt;
/** An incremental renderer for a message arriving in chunks. */
export const createStream = api.createStream;
/** Resolves once the WebAssembly module is ready (already resolved where it compiles synchronously). */
export const ready = api.ready;
/** Returns `ready`. */
export const init = api.init;
