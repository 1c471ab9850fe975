// citemark/dom: citemark/dom/core (../dom.js) with `mountStream`'s streams
// from the default entry (citemark, its wasm inlined) unless `api` names
// another engine. An app passing another engine imports citemark/dom/core,
// so that its bundle does not hold the default entry as well.
import { engine } from "../index.js";
import { mountStream as mountWith } from "../dom.js";

export * from "../dom.js";

/** The API's documentation is in dom.d.ts here (and ../dom.d.ts). */
export function mountStream(element, options, { api, typeset } = {}) {
  return mountWith(element, options, { api: api ?? engine, typeset });
}
