// The package in a plain browser page: `<script type="module">` with an import
// map naming `citemark` (no bundler), in headless Chromium driven by
// playwright-core. It checks that the wasm compiles synchronously on the main
// thread at import (so `render` works without awaiting `ready`) and renders
// as in Node. Needs /usr/bin/chromium (Debian's `chromium`); without it the
// test is skipped loudly, and fails under CI=true.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { test } from "node:test";

import * as citemark from "citemark";
import { haveChromium, pageResult } from "./helpers.mjs";

const chromiumThere = haveChromium("browser test");

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".json": "application/json" };
const PAGE = `<!doctype html><meta charset="utf-8">
<script type="importmap">{"imports": {"citemark": "/node_modules/citemark/src/index.js",
  "citemark/lite": "/node_modules/citemark/src/lite.js"}}</script>
<script type="module">
  const t0 = performance.now();
  const { render, ready, createStream } = await import("citemark");
  const lite = await import("citemark/lite");
  // No await of ready: the module must be usable as soon as it is imported.
  const out = render("Up 4% [1] <b onclick=x>bold</b>.", { sources: [{ title: "Q3", href: "https://q.example/3" }] });
  const s = createStream(); let html = ""; for (const c of ["Hel", "lo [1", "]\\n\\nNext\\n"]) html += s.push(c).append; html += s.finish().append;
  window.result = { html: out.html, lite: lite.render("<b>x</b>").html, streamed: html, ms: performance.now() - t0 };
  await ready;
</script>`;

test("a plain browser page imports citemark and renders synchronously", { skip: chromiumThere ? false : "no chromium" }, async () => {
  const root = process.cwd();
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (path === "/favicon.ico") {
      res.writeHead(204).end();
      return;
    }
    if (path === "/") {
      res.writeHead(200, { "content-type": "text/html" }).end(PAGE);
      return;
    }
    const file = normalize(join(root, path));
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { result, version } = await pageResult(`http://127.0.0.1:${server.address().port}/`, 30000);
    assert.ok(result, "the page produced a result");
    const expected = citemark.render("Up 4% [1] <b onclick=x>bold</b>.", { sources: [{ title: "Q3", href: "https://q.example/3" }] });
    assert.equal(result.html, expected.html);
    assert.equal(result.lite, "<p>&lt;b&gt;x&lt;/b&gt;</p>\n");
    assert.equal(result.streamed, citemark.render("Hello [1]\n\nNext\n").html);
    console.log(`browser: imported and rendered in ${result.ms.toFixed(0)} ms (${version})`);
  } finally {
    server.close();
  }
});
