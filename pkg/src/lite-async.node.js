// citemark/lite/async under Node (the "node" export condition): the .wasm file read
// from disk and compiled synchronously on import, so `ready` is already
// resolved and `render` works on the next line, as with the synchronous
// entries (which carry the same binary as base64 instead).
import { readFileSync } from "node:fs";
import { createGlue } from "../dist/lite/citemark.js";
import { makeApi } from "./api.js";

const wasm = readFileSync(new URL("../dist/lite/citemark.wasm", import.meta.url));

// The API's documentation is in async.d.ts (and api.js).
export const { render, createStream, ready, init, memoryBytes, reset, engine } = makeApi(createGlue, wasm);
// The lite wasm leaves the adapters out: `adapt` has a wasm of its own,
// compiled on its first call, and bundled only where it is used.
export { adapt } from "./adapters.js";
