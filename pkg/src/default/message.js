// citemark/message: citemark/message/core (../message.js) with its streams
// from the default entry (citemark, its wasm inlined) unless `api` names
// another engine. An app passing another engine imports
// citemark/message/core, so that its bundle does not hold the default entry.
import { engine } from "../index.js";
import { mountMessage as mountWith } from "../message.js";

export * from "../message.js";

/** The API's documentation is in message.d.ts here (and ../message.d.ts). */
export function mountMessage(element, options) {
  return mountWith(element, { ...options, api: options?.api ?? engine });
}
