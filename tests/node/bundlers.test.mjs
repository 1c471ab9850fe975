// Zero-config bundling: a tiny app that imports `citemark` and
// `citemark/lite` is built with Vite (production build, default target: no
// top-level await allowed), served by Vite's dev server, and bundled by
// webpack 5 (production), each with no configuration about wasm, and run in
// headless Chromium; so is one importing the asynchronous entries
// (`citemark/async`, `citemark/lite/async`), whose .wasm the bundler must emit
// as an asset and the page fetch and compile; and a React app streaming
// with citemark/react/core and citemark/lite/async, whose build must hold
// the lite engine alone. Skipped loudly without
// /usr/bin/chromium (fails under CI=true).
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { test } from "node:test";

import * as citemark from "citemark";
import { haveChromium, pageResult, repo } from "./helpers.mjs";

const skip = haveChromium("bundler tests") ? false : "no chromium";

// The lite entry's adapt loads citemark/adapters' own wasm.
const PROVIDER = "perplexity";
const RESPONSE = { choices: [{ message: { content: "Rates fell [1]." } }], search_results: [{ title: "Fed", url: "https://fed.example/" }] };
const MAIN = `import { render, createStream } from "citemark";
import { render as renderLite, adapt } from "citemark/lite";
const out = render("Up 4% [1] <b onclick=x>bold</b>.", { sources: [{ title: "Q3", href: "https://q.example/3" }] });
const s = createStream(); let streamed = "";
for (const c of ["Hel", "lo [1", "]\\n\\nNext\\n"]) streamed += s.push(c).append;
streamed += s.finish().append;
window.result = { html: out.html, lite: renderLite("<b>x</b>").html, streamed, adapted: adapt(${JSON.stringify(PROVIDER)}, ${JSON.stringify(RESPONSE)}) };
`;
const EXPECTED = {
  html: citemark.render("Up 4% [1] <b onclick=x>bold</b>.", { sources: [{ title: "Q3", href: "https://q.example/3" }] }).html,
  lite: "<p>&lt;b&gt;x&lt;/b&gt;</p>\n",
  streamed: citemark.render("Hello [1]\n\nNext\n").html,
  adapted: citemark.adapt(PROVIDER, RESPONSE),
};

// The asynchronous entries: not ready on import in a browser (the .wasm is
// fetched), ready after `await ready`, then the same results as the sync ones.
const MAIN_ASYNC = `import { render, createStream, ready } from "citemark/async";
import * as lite from "citemark/lite/async";
let early;
try { render("x"); early = "rendered before ready"; } catch (e) { early = e.message; }
async function main() {
  await Promise.all([ready, lite.init()]);
  const out = render("Up 4% [1] <b onclick=x>bold</b>.", { sources: [{ title: "Q3", href: "https://q.example/3" }] });
  const s = createStream(); let streamed = "";
  for (const c of ["Hel", "lo [1", "]\\n\\nNext\\n"]) streamed += s.push(c).append;
  streamed += s.finish().append;
  const wasm = performance.getEntriesByType("resource").filter((r) => /\\.wasm(\\?|$)/.test(r.name)).length;
  window.result = { html: out.html, lite: lite.render("<b>x</b>").html, streamed, early, wasm };
}
main().catch((e) => { window.result = { error: String(e) }; });
`;
const { adapted: _, ...SYNC_RESULTS } = EXPECTED;
const EXPECTED_ASYNC = {
  ...SYNC_RESULTS,
  early: "citemark: the WebAssembly module is still compiling; `await ready` (or `await init()`) first",
  wasm: 2,
};

function app(name, main = MAIN) {
  const dir = join(process.cwd(), "bundler-apps", name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "main.js"), main);
  return dir;
}

/** The files under `dir` (recursively) by extension: how many, and their total bytes. */
function filesByType(dir) {
  const found = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const ext = extname(entry.name);
    const bytes = statSync(join(entry.parentPath ?? entry.path, entry.name)).size;
    found[ext] = { count: (found[ext]?.count ?? 0) + 1, bytes: (found[ext]?.bytes ?? 0) + bytes };
  }
  return found;
}

/**
 * A build of the async entries: two .wasm assets, and JS without a base64
 * payload (not even the adapters', which the app does not use).
 */
function assertAssets(dist) {
  const found = filesByType(dist);
  assert.equal(found[".wasm"]?.count, 2, `two .wasm assets in ${dist}: ${JSON.stringify(found)}`);
  assert.ok(found[".js"].bytes < 50_000, `no base64 payload in the JS: ${JSON.stringify(found)}`);
}

function serveStatic(root) {
  const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm" };
  const server = createServer((req, res) => {
    let path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (path === "/") path = "/index.html";
    const file = normalize(join(root, path));
    if (!file.startsWith(root) || !existsSync(file)) return res.writeHead(path === "/favicon.ico" ? 204 : 404).end();
    res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" }).end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function resultOf(url) {
  return (await pageResult(url)).result;
}

const PAGE = '<!doctype html><meta charset="utf-8"><script type="module" src="./main.js"></script>';

/** `dir` built by Vite (production, no config), served, and its page's result in Chromium; `check(dist)` first. */
async function viteBuildResult(dir, check = () => {}) {
  writeFileSync(join(dir, "index.html"), PAGE);
  const { build } = await import("vite");
  await build({ root: dir, logLevel: "warn", configFile: false });
  check(join(dir, "dist"));
  const server = await serveStatic(join(dir, "dist"));
  try {
    return await resultOf(`http://127.0.0.1:${server.address().port}/`);
  } finally {
    server.close();
  }
}

/** `dir` served by Vite's dev server (no config), and its page's result in Chromium. */
async function viteDevResult(dir) {
  writeFileSync(join(dir, "index.html"), PAGE);
  const { createServer: createViteServer } = await import("vite");
  const server = await createViteServer({ root: dir, logLevel: "warn", configFile: false, server: { port: 0, host: "127.0.0.1" } });
  await server.listen();
  try {
    return await resultOf(server.resolvedUrls.local[0]);
  } finally {
    await server.close();
  }
}

/** `dir` bundled by webpack 5 (production, no wasm config), served, and its page's result in Chromium; `check(dist)` first. */
async function webpackResult(dir, check = () => {}) {
  const { default: webpack } = await import("webpack");
  const stats = await new Promise((resolve, reject) =>
    webpack(
      { mode: "production", context: dir, entry: "./main.js", output: { path: join(dir, "dist"), filename: "main.js" }, performance: { hints: false } },
      (err, s) => (err ? reject(err) : resolve(s)),
    ),
  );
  assert.equal(stats.hasErrors(), false, stats.toString("errors-only"));
  check(join(dir, "dist"));
  writeFileSync(join(dir, "dist", "index.html"), '<!doctype html><meta charset="utf-8"><script src="main.js"></script>');
  const server = await serveStatic(join(dir, "dist"));
  try {
    return await resultOf(`http://127.0.0.1:${server.address().port}/`);
  } finally {
    server.close();
  }
}

test("Vite production build (default config) runs in Chromium", { skip }, async () => {
  assert.deepEqual(await viteBuildResult(app("vite")), EXPECTED);
});

test("Vite dev server (default config) runs in Chromium", { skip }, async () => {
  assert.deepEqual(await viteDevResult(app("vite-dev")), EXPECTED);
});

test("a React app rendering a finished answer with render() built by Vite renders the citations", { skip }, async () => {
  const dir = app("vite-react");
  writeFileSync(
    join(dir, "main.jsx"),
    `import { useMemo } from "react";
import { createRoot } from "react-dom/client";
import { flushSync } from "react-dom";
import { render } from "citemark";

function Answer({ markdown, sources }) {
  const { html } = useMemo(() => render(markdown, { sources }), [markdown, sources]);
  return <div className="answer" dangerouslySetInnerHTML={{ __html: html }} />;
}

const root = createRoot(document.getElementById("root"));
flushSync(() => root.render(<Answer markdown="Up 4% [1]." sources={[{ title: "Q3", href: "https://q.example/3" }]} />));
const link = document.querySelector(".answer a.citation");
window.result = { key: link?.dataset.citationKey, href: link?.getAttribute("href"), text: link?.textContent };
`,
  );
  writeFileSync(join(dir, "index.html"), '<!doctype html><meta charset="utf-8"><div id="root"></div><script type="module" src="./main.jsx"></script>');
  const { build } = await import("vite");
  await build({ root: dir, logLevel: "warn", configFile: false });
  const server = await serveStatic(join(dir, "dist"));
  try {
    assert.deepEqual(await resultOf(`http://127.0.0.1:${server.address().port}/`), { key: "1", href: "https://q.example/3", text: "1" });
  } finally {
    server.close();
  }
});

test("the README's streamed React answer (<CitemarkMessage/>) works as written in a new Vite React app", { skip }, async () => {
  // The README's first React snippet, as a user would paste it, plus the two names it leaves to the app.
  const readme = readFileSync(join(repo, "README.md"), "utf8");
  const snippet = /### React\n[\s\S]*?```jsx\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(snippet?.includes("<CitemarkMessage"), "README: the React section opens with <CitemarkMessage/>");
  assert.ok(snippet.split("\n").filter(Boolean).length <= 10, `README: ${snippet.split("\n").length} lines`);
  const dir = app("vite-react-stream");
  writeFileSync(
    join(dir, "Answer.jsx"),
    `${snippet}
function MyIcon({ title }) { return <i className="my-icon">{title}</i>; }
function showSource(source) { window.shown = source?.title; }
`,
  );
  const text = "Rates fell [1] in Q3.\n\nThen rose [2], see the table:\n\n| a | b |\n|---|---|\n| x [1] | y |\n";
  const sources = [
    { title: "One", href: "https://one.example/" },
    { title: "Two", href: "https://two.example/" },
  ];
  const expected = citemark.render(text, { sources, mode: "icon" }).html;
  writeFileSync(
    join(dir, "main.jsx"),
    `import { createRoot } from "react-dom/client";
import { flushSync } from "react-dom";
import { Answer } from "./Answer.jsx";

const text = ${JSON.stringify(text)};
const sources = ${JSON.stringify(sources)};
const root = createRoot(document.getElementById("root"));

async function main() {
  // The accumulated text, 3 more characters per update, a frame now and then.
  for (let at = 3; at < text.length; at += 3) {
    flushSync(() => root.render(<Answer text={text.slice(0, at)} sources={sources} isStreaming />));
    if (at % 12 === 0) await new Promise(requestAnimationFrame);
  }
  flushSync(() => root.render(<Answer text={text} sources={sources} isStreaming={false} />));
  const element = document.querySelector(".citemark");
  element.querySelector("[data-citation-ordinal='2']").click();
  const icons = [...element.querySelectorAll(".citation-icon")].map((slot) => slot.querySelector("i.my-icon")?.textContent ?? null);
  const clone = element.cloneNode(true);
  for (const slot of clone.querySelectorAll(".citation-icon")) slot.replaceChildren();
  const template = document.createElement("template");
  template.innerHTML = ${JSON.stringify(expected)};
  window.result = { icons, shown: window.shown ?? null, same: clone.innerHTML === template.innerHTML };
}
main();
`,
  );
  writeFileSync(join(dir, "index.html"), '<!doctype html><meta charset="utf-8"><div id="root"></div><script type="module" src="./main.jsx"></script>');
  const { build } = await import("vite");
  await build({ root: dir, logLevel: "warn", configFile: false });
  const server = await serveStatic(join(dir, "dist"));
  try {
    assert.deepEqual(await resultOf(`http://127.0.0.1:${server.address().port}/`), { icons: ["One", "Two", "One"], shown: "Two", same: true });
  } finally {
    server.close();
  }
});

test("a Vite React app streaming with citemark/react/core and citemark/lite/async ships the lite engine alone", { skip }, async () => {
  const dir = app("vite-react-core");
  const text = "Rates fell [1] <b>a lot</b>.\n\n| a | b |\n|---|---|\n| x [1] | y |\n";
  const sources = [{ title: "One", href: "https://one.example/" }];
  writeFileSync(
    join(dir, "main.jsx"),
    `import { createRoot } from "react-dom/client";
import { flushSync } from "react-dom";
import { engine, render } from "citemark/lite/async";
import { CitemarkMessage } from "citemark/react/core";

const text = ${JSON.stringify(text)};
const sources = ${JSON.stringify(sources)};
async function main() {
  let missing;
  try { CitemarkMessage({ markdown: "x" }); } catch (e) { missing = e.constructor.name + ": " + e.message.split(" (")[0]; }
  await engine.ready;
  const root = createRoot(document.getElementById("root"));
  for (let at = 4; at < text.length; at += 4) {
    flushSync(() => root.render(<CitemarkMessage api={engine} markdown={text.slice(0, at)} sources={sources} streaming />));
    if (at % 16 === 0) await new Promise(requestAnimationFrame);
  }
  flushSync(() => root.render(<CitemarkMessage api={engine} markdown={text} sources={sources} streaming={false} />));
  const html = document.querySelector(".citemark").innerHTML;
  const template = document.createElement("template");
  template.innerHTML = render(text, { sources }).html;
  window.result = { html, same: html === template.innerHTML, missing };
}
main().catch((e) => { window.result = { error: String(e) }; });
`,
  );
  writeFileSync(join(dir, "index.html"), '<!doctype html><meta charset="utf-8"><div id="root"></div><script type="module" src="./main.jsx"></script>');
  const { build } = await import("vite");
  await build({ root: dir, logLevel: "warn", configFile: false });
  const dist = join(dir, "dist");
  const wasm = readdirSync(dist, { recursive: true }).filter((f) => f.endsWith(".wasm"));
  assert.equal(wasm.length, 1, `one .wasm asset: ${wasm}`);
  const lite = readFileSync(join(process.cwd(), "node_modules", "citemark", "dist", "lite", "citemark.wasm"));
  assert.ok(readFileSync(join(dist, wasm[0])).equals(lite), "the asset is the lite entry's wasm");
  // React and citemark's glue: ~0.2 MB; the default entry's inlined wasm alone would be 1.6 MB,
  // the adapters' (which `adapt` of a lite entry's namespace would keep) 0.4 MB.
  const js = filesByType(dist)[".js"];
  assert.ok(js.bytes < 400_000, `no base64 payload in the JS: ${JSON.stringify(js)}`);
  const server = await serveStatic(dist);
  try {
    const result = await resultOf(`http://127.0.0.1:${server.address().port}/`);
    assert.equal(result.error, undefined);
    assert.equal(result.missing, "TypeError: api: useCitemark needs an entry's functions");
    assert.ok(result.html.includes("&lt;b&gt;"), `lite escapes raw HTML: ${result.html}`);
    assert.equal(result.same, true, "the streamed DOM is render()'s");
  } finally {
    server.close();
  }
});

test("webpack 5 production bundle (no wasm config) runs in Chromium", { skip }, async () => {
  assert.deepEqual(await webpackResult(app("webpack")), EXPECTED);
});

test("Vite production build of the async entries emits the .wasm as assets and runs in Chromium", { skip }, async () => {
  assert.deepEqual(await viteBuildResult(app("vite-async", MAIN_ASYNC), assertAssets), EXPECTED_ASYNC);
});

test("Vite dev server (default config) serves the async entries' .wasm and runs in Chromium", { skip }, async () => {
  assert.deepEqual(await viteDevResult(app("vite-dev-async", MAIN_ASYNC)), EXPECTED_ASYNC);
});

test("webpack 5 production bundle of the async entries (no wasm config) emits the .wasm as assets and runs in Chromium", { skip }, async () => {
  assert.deepEqual(await webpackResult(app("webpack-async", MAIN_ASYNC), assertAssets), EXPECTED_ASYNC);
});
