// citemark/react on a server: renderToString of <CitemarkMessage/> (React 19)
// is the final message, render()'s HTML, streaming or not; no icons (they are
// portalled in the browser).
import assert from "node:assert/strict";
import { test } from "node:test";
import { createElement } from "react";
import { renderToString } from "react-dom/server";

import { render } from "citemark";
import * as lite from "citemark/lite";
import { CitemarkMessage } from "citemark/react";

const markdown = "Rates fell [1] and rose [2].\n\n- a <cite id=\"s2\">list</cite>\n- b\n\n```js\nlet x";
const sources = [
  { id: "s1", index: 1, title: "One", href: "https://one.example/" },
  { id: "s2", index: 2, title: "Two", href: "https://two.example/" },
];

test("renderToString gives render()'s HTML in the message element", () => {
  for (const streaming of [false, true]) {
    const html = renderToString(
      createElement(CitemarkMessage, { markdown, sources, mode: "icon", streaming, renderCitation: () => createElement("b") }),
    );
    assert.equal(html, `<div class="citemark">${render(markdown, { sources, mode: "icon" }).html}</div>`);
  }
});

test("with the lite entry as `api`, and options beside sources and mode", () => {
  const options = { rawHtml: "escape", idPrefix: "m1-" };
  const html = renderToString(createElement(CitemarkMessage, { markdown: "<b>x</b> [1]", sources, options, api: lite, className: "answer" }));
  assert.equal(html, `<div class="answer">${lite.render("<b>x</b> [1]", { ...options, sources }).html}</div>`);
});
