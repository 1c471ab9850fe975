// citemark/svelte: citemark/svelte/core (../svelte.js) with the `citemark`
// action's engine defaulting to the default entry (citemark, its wasm
// inlined): `api` picks another, but this module still imports the default
// entry, so an app passing another engine imports citemark/svelte/core.
import { engine } from "../index.js";
import { citemark as citemarkWith } from "../svelte.js";

export * from "../svelte.js";

/** The API's documentation is in svelte.d.ts here (and ../svelte.d.ts). */
export function citemark(node, params) {
  // `api` is read once, at mount; updates go to the core action as they are.
  return citemarkWith(node, params?.api ? params : { ...params, api: engine });
}
