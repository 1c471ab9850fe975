// The engine a component or the DOM applier was given as `api`: one entry's
// functions, as its `engine` export gives them (`import { engine } from
// "citemark/lite/async"`; a namespace, `import * as`, works too). The
// engine-free modules (dom.js, message.js, react.js, svelte.js: the
// `…/core` entries) import no entry, so that a bundle holds only the engine
// the app passes; src/default/ binds them to the default entry.

/**
 * Returns `api` when it has the functions named in `needs`; else throws a
 * TypeError naming `api`, said by `who`.
 */
export function expectEngine(api, who, needs = ["createStream"]) {
  const missing = needs.find((name) => typeof api?.[name] !== "function");
  if (missing !== undefined) {
    const got = api === undefined || api === null ? String(api) : `an object without ${missing}()`;
    throw new TypeError(
      `api: ${who} needs an entry's functions (import { engine } from "citemark/lite/async"), got ${got}`,
    );
  }
  return api;
}
