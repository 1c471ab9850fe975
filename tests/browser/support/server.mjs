// The test pages' server: 127.0.0.1 only, a random port, a fixed set of
// routes (everything else is a 404, e.g. the `x` of `<img src=x onerror=…>`).

import { createServer } from "node:http";
import { existsSync, readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { REPO } from "./citemark.mjs";
import { launch, openPage } from "./browser.mjs";
import { serveStatic } from "../../../scripts/serve.mjs";

const HERE = path.join(REPO, "tests/browser");
const NONCE = "citemark-test";

// Report-only, so nothing is blocked: every inline script, event handler,
// javascript: URL, eval, plugin, frame or form a payload gets to run or load
// is *reported* (a `securitypolicyviolation` event) while it still runs and
// trips the page's hooks. Only the pages' own nonce'd and same-origin scripts pass.
const CSP = [
  `script-src 'self' 'nonce-${NONCE}'`,
  "object-src 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

const FILES = {
  "/vendor/react.js": path.join(HERE, "node_modules/react/umd/react.development.js"),
  "/vendor/react-dom.js": path.join(HERE, "node_modules/react-dom/umd/react-dom.development.js"),
};
// Every module of the package (citemark/react and citemark/svelte import the streaming ones;
// src/default/ holds the entries bound to the default engine).
for (const name of readdirSync(path.join(REPO, "pkg/src"), { recursive: true }).filter((f) => f.endsWith(".js"))) {
  FILES[`/pkg/src/${name.split(path.sep).join("/")}`] = path.join(REPO, "pkg/src", name);
}
for (const name of ["citemark.js", "citemark.wasm.js"]) {
  FILES[`/pkg/dist/default/${name}`] = path.join(REPO, "pkg/dist/default", name);
}
for (const name of ["hooks.js", "harness.js", "react-shim.js", "react-dom-shim.js", "svelte-shim.js", "react-app.js", "xss-page.js"]) {
  FILES[`/pages/${name}`] = path.join(HERE, "pages", name);
}

/**
 * A page loading `modules` (ES modules, in order) after the classic
 * `scripts`; bare `react`/`react-dom` imports map to the UMD builds' shims, `svelte` to a stand-in.
 */
export function page({ scripts = [], modules = [] }) {
  const importMap = {
    imports: { react: "/pages/react-shim.js", "react-dom": "/pages/react-dom-shim.js", svelte: "/pages/svelte-shim.js" },
  };
  return `<!doctype html><html><head><meta charset="utf-8"><title>citemark browser test</title>
${scripts.map((src) => `<script src="${src}"></script>`).join("\n")}
<script type="importmap" nonce="${NONCE}">${JSON.stringify(importMap)}</script>
${modules.map((src) => `<script type="module" src="${src}"></script>`).join("\n")}
</head><body><div id="root"></div></body></html>`;
}

/** Starts the server with `pages` ({path: html}); resolves to {origin, close}. */
export async function serve(pages) {
  const server = createServer(async (request, response) => {
    const { pathname } = new URL(request.url, "http://127.0.0.1");
    if (pages[pathname]) {
      response.writeHead(200, {
        "content-type": "text/html; charset=utf-8",
        "content-security-policy-report-only": CSP,
      });
      response.end(pages[pathname]);
    } else if (FILES[pathname]) {
      response.writeHead(200, { "content-type": "text/javascript; charset=utf-8" });
      response.end(await readFile(FILES[pathname]));
    } else {
      response.writeHead(404, { "content-type": "text/plain" });
      response.end("not found");
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * The citemark/dom test page (pages/dom.html) with the package as built
 * (pkg/src, pkg/dist), served as files; resolves to {server, browser, page,
 * errors} with the page open and ready.
 */
export async function openDomPage() {
  const entry = path.join(REPO, "pkg/dist/default/citemark.js");
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`make pkg\` (make test-browser does)`);
  const server = await serveStatic({
    "/pkg/src/": path.join(REPO, "pkg/src"),
    "/pkg/dist/": path.join(REPO, "pkg/dist"),
    "/pages/": path.join(REPO, "tests/browser/pages"),
  });
  const browser = await launch();
  const { page, errors } = await openPage(browser, server.origin, "/pages/dom.html");
  return { server, browser, page, errors };
}
