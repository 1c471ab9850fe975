// citemark/react: citemark/react/core (../react.js) with the message's
// engine defaulting to the default entry (citemark, its wasm inlined): the
// `api` prop picks another, but this module still imports the default
// entry, so an app passing another engine imports citemark/react/core.
import { engine } from "../index.js";
import { CitemarkMessage as MessageWith, useCitemark as useCitemarkWith } from "../react.js";

export * from "../react.js";

/** The props (or the hook's argument) with the default engine unless they name one. */
function withEngine(props) {
  return props?.api ? props : { ...props, api: engine };
}

/** The API's documentation is in react.d.ts here (and ../react.d.ts). */
export function useCitemark(message) {
  return useCitemarkWith(withEngine(message));
}

/** The API's documentation is in react.d.ts here (and ../react.d.ts). */
export function CitemarkMessage(props) {
  // Called as a function, not rendered as an element: its hooks are this
  // component's, in the same order on every render, and the tree is as before.
  return MessageWith(withEngine(props));
}
