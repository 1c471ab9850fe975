// citemark/react's <CitemarkMessage/> under React 18's renderToString, in
// Node (React 19's is tests/node/react-ssr.test.mjs): the message element
// holds render()'s HTML, and React logs nothing (no layout-effect warning).
// pkg/src/react.js imports `react` and `react-dom`; a resolve hook has them
// come from this folder's pinned React 18.

import { test } from "node:test";
import assert from "node:assert/strict";
import { register } from "node:module";
import { pathToFileURL } from "node:url";
import path from "node:path";
import { REPO } from "./support/citemark.mjs";

const here = pathToFileURL(path.join(REPO, "tests/browser/package.json")).href;
const hook = `
export async function resolve(specifier, context, next) {
  if (/^(react|react-dom)(\\/|$)/.test(specifier)) return next(specifier, { ...context, parentURL: ${JSON.stringify(here)} });
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);

const { createElement, version } = await import("react");
const { renderToString } = await import("react-dom/server");
const { CitemarkMessage } = await import("../../pkg/src/default/react.js");
const { render } = await import("../../pkg/src/index.js");

test("React 18's renderToString gives render()'s HTML, streaming or not, and logs nothing", () => {
  assert.ok(version.startsWith("18."), version);
  const markdown = 'Rates fell [1] and rose [2].\n\n- a <cite id="s2">list</cite>\n- b\n\n```js\nlet x';
  const sources = [
    { id: "s1", index: 1, title: "One", href: "https://one.example/" },
    { id: "s2", index: 2, title: "Two", href: "https://two.example/" },
  ];
  const logged = [];
  const original = console.error;
  console.error = (...args) => logged.push(args.join(" "));
  try {
    for (const streaming of [false, true]) {
      const html = renderToString(
        createElement(CitemarkMessage, { markdown, sources, mode: "icon", streaming, renderCitation: () => createElement("b") }),
      );
      assert.equal(html, `<div class="citemark">${render(markdown, { sources, mode: "icon" }).html}</div>`);
    }
  } finally {
    console.error = original;
  }
  assert.deepEqual(logged, []);
});
