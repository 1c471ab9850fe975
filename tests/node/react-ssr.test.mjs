// citemark/react on a server: renderToString of <CitemarkMessage/> (React 19)
// is the final message, render()'s HTML, streaming or not; no icons (they are
// portalled in the browser). So is citemark/react/core's with an entry's
// `engine`; without one, it and the other /core modules throw a TypeError
// naming `api`.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createElement } from "react";
import { renderToString } from "react-dom/server";

import { render } from "citemark";
import * as lite from "citemark/lite";
import { CitemarkMessage } from "citemark/react";
import * as core from "citemark/react/core";
import { mountMessage } from "citemark/message/core";
import { mountStream } from "citemark/dom/core";
import * as liteAsync from "citemark/lite/async";

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

test("citemark/react/core renders with the engine it is given, the lite async entry's under Node", () => {
  assert.notEqual(core.CitemarkMessage, CitemarkMessage);
  const html = renderToString(createElement(core.CitemarkMessage, { markdown: "<b>x</b> [1]", sources, api: liteAsync.engine }));
  assert.equal(html, `<div class="citemark">${liteAsync.render("<b>x</b> [1]", { sources }).html}</div>`);
});

test("the /core modules without an engine throw a TypeError naming `api`", () => {
  const noApi = { name: "TypeError", message: /^api: \w+ needs an entry's functions .*, got undefined$/ };
  assert.throws(() => renderToString(createElement(core.CitemarkMessage, { markdown: "x" })), noApi);
  assert.throws(() => mountMessage({}, {}), noApi);
  assert.throws(() => mountStream({}, null, {}), noApi);
  assert.throws(() => mountStream({}, null, { api: { render: liteAsync.render } }), {
    name: "TypeError",
    message: /^api: mountStream needs an entry's functions .*, got an object without createStream\(\)$/,
  });
});
