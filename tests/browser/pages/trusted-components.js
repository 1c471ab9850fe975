// The Trusted Types components page's module (tests/browser/strict.test.mjs):
// citemark/react's CitemarkMessage and citemark/svelte's citemark action,
// fed the accumulated text with `options: { trustedTypes: true }`, on a page
// that enforces Trusted Types. React is the UMD build (react-shim.js).
import { createElement as h } from "react";
import { createRoot, flushSync } from "react-dom";
import * as citemark from "/pkg/src/index.js";
import { CitemarkMessage } from "/pkg/src/default/react.js";
import { citemark as citemarkAction } from "/pkg/src/default/svelte.js";

const violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  violations.push(`${event.violatedDirective}: ${event.blockedURI} ${event.sample}`);
});

/** `markdown` streamed into a component in `step`-character growths of the accumulated text, then finished. */
function streamReact(element, markdown, options, step) {
  const root = createRoot(element);
  const show = (text, streaming) =>
    flushSync(() => root.render(h(CitemarkMessage, { markdown: text, options, mode: "icon", streaming })));
  for (let at = step; at < markdown.length; at += step) show(markdown.slice(0, at), true);
  show(markdown, false);
  return root;
}

function streamSvelte(element, markdown, options, step) {
  const params = (text, streaming) => ({ markdown: text, options, mode: "icon", streaming });
  const action = citemarkAction(element, params(markdown.slice(0, step), true));
  for (let at = 2 * step; at < markdown.length; at += step) action.update(params(markdown.slice(0, at), true));
  action.update(params(markdown, false));
  return action;
}

/** What `render` gives, as this browser serializes it (through the citemark policy). */
function expected(markdown, options) {
  const template = document.createElement("template");
  template.innerHTML = citemark.render(markdown, { ...options, mode: "icon", trustedTypes: true }).html;
  return template.innerHTML;
}

window.test = { citemark, streamReact, streamSvelte, expected, violations };
document.documentElement.dataset.ready = "1";
