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

// The asynchronous entries in a plain page: the .wasm fetched beside the
// module (served here as application/octet-stream, so the entry takes its
// fallback: the bytes read, then compiled; the bundler tests serve
// application/wasm, which compiles while streaming).
const PAGE_ASYNC = `<!doctype html><meta charset="utf-8">
<script type="importmap">{"imports": {"citemark/async": "/node_modules/citemark/src/async.js",
  "citemark/lite/async": "/node_modules/citemark/src/lite-async.js"}}</script>
<script type="module">
  const t0 = performance.now();
  const { render, ready, createStream } = await import("citemark/async");
  let early;
  try { render("x"); early = "rendered before ready"; } catch (e) { early = e.message; }
  const lite = await import("citemark/lite/async");
  await Promise.all([ready, lite.ready]);
  const out = render("Up 4% [1] <b onclick=x>bold</b>.", { sources: [{ title: "Q3", href: "https://q.example/3" }] });
  const s = createStream(); let html = ""; for (const c of ["Hel", "lo [1", "]\\n\\nNext\\n"]) html += s.push(c).append; html += s.finish().append;
  window.result = { html: out.html, lite: lite.render("<b>x</b>").html, streamed: html, early, ms: performance.now() - t0 };
</script>`;

/** Serves `page` at / and the test project's files (node_modules/citemark among them) under it. */
function servePage(page) {
  const root = process.cwd();
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (path === "/favicon.ico") {
      res.writeHead(204).end();
      return;
    }
    if (path === "/") {
      res.writeHead(200, { "content-type": "text/html" }).end(page);
      return;
    }
    const file = normalize(join(root, path));
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

test("a plain browser page imports citemark and renders synchronously", { skip: chromiumThere ? false : "no chromium" }, async () => {
  const server = await servePage(PAGE);
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

test("a plain browser page imports citemark/async, awaits ready and renders", { skip: chromiumThere ? false : "no chromium" }, async () => {
  const server = await servePage(PAGE_ASYNC);
  try {
    const { result } = await pageResult(`http://127.0.0.1:${server.address().port}/`, 30000);
    assert.ok(result, "the page produced a result");
    const expected = citemark.render("Up 4% [1] <b onclick=x>bold</b>.", { sources: [{ title: "Q3", href: "https://q.example/3" }] });
    assert.equal(result.early, "citemark: the WebAssembly module is still compiling; `await ready` (or `await init()`) first");
    assert.equal(result.html, expected.html);
    assert.equal(result.lite, "<p>&lt;b&gt;x&lt;/b&gt;</p>\n");
    assert.equal(result.streamed, citemark.render("Hello [1]\n\nNext\n").html);
    console.log(`browser: citemark/async imported, loaded and rendered in ${result.ms.toFixed(0)} ms`);
  } finally {
    server.close();
  }
});
