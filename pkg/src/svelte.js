// citemark/svelte: the hydration core as a Svelte action.
//
//   <div use:citations={{ citations, onActivate, resolve }}>{@html html}</div>
//
// Plain JS, no svelte import: an action is just (node, params) => {update, destroy}.

import { hydrate } from "./hydrate.js";

export function citations(node, params) {
  const handle = hydrate(node, params.citations, params);
  return {
    // Svelte calls this when the parameters change (a new index, new handlers).
    update(next) {
      handle.update(next.citations, next);
    },
    destroy() {
      handle.destroy();
    },
  };
}
