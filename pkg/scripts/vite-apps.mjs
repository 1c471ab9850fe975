// What a production Vite build ships for each entry of the package: shared by
// `make size` (pkg/scripts/size.mjs) and `make bench-startup`
// (benches/browser/startup.mjs).
//
// Sets up target/size/ as a user's project: tests/node's pinned dependencies
// (Vite, playwright-core among them) installed with `npm ci` from its
// lockfile (again only when the lockfile changed), and the package packed
// with `npm pack` and installed from the tarball. Then, per entry, a minimal
// app (index.html + main.js: import the entry, await `ready`, render one
// cited answer into the page, record the time) is built by Vite with no
// configuration (production, its default target) into target/size/ENTRY/dist.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, extname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const work = join(repo, "target", "size");

/** The entries measured: name, import specifier, and the size target (bytes, JS + wasm gzipped) from issue 22. */
export const ENTRIES = [
  { name: "default", specifier: "citemark", target: 400_000 },
  { name: "async", specifier: "citemark/async", target: 400_000 },
  { name: "lite", specifier: "citemark/lite", target: 180_000 },
  { name: "lite-async", specifier: "citemark/lite/async", target: 180_000 },
];

/**
 * Apps using a component with an engine (`make size` only): the component's
 * module, the engine's entry (null: the component's own default), and what
 * the app mounts. React alone is the baseline the React rows add to.
 */
export const COMPONENT_APPS = [
  { name: "react-alone", specifier: "react (no citemark)", component: null, engine: null },
  { name: "react-default", specifier: "citemark/react", component: "citemark/react", engine: null },
  { name: "react-async", specifier: "citemark/react/core + citemark/async", component: "citemark/react/core", engine: "citemark/async" },
  { name: "react-lite-async", specifier: "citemark/react/core + citemark/lite/async", component: "citemark/react/core", engine: "citemark/lite/async" },
  { name: "dom-lite-async", specifier: "citemark/dom/core + citemark/lite/async", component: "citemark/dom/core", engine: "citemark/lite/async" },
];

// A cited answer rendered once; the time from before the bundle's first byte
// is evaluated (an inline classic script ahead of the module) to after the
// first render, the page's long tasks (buffered), and the longest the main
// thread went without running a task of its own (a MessageChannel ping-pong
// until the render: the longest gap is the longest blocking task, under 50 ms
// too), for the startup bench.
const INDEX = `<!doctype html><meta charset="utf-8"><title>citemark size</title>
<script>window.t0 = performance.now(); window.longTasks = []; window.gap = 0;
try { new PerformanceObserver((l) => { for (const e of l.getEntries()) window.longTasks.push(e.duration); }).observe({ type: "longtask", buffered: true }); } catch {}
{ const c = new MessageChannel(); let last = performance.now();
  c.port1.onmessage = () => { const now = performance.now(); window.gap = Math.max(window.gap, now - last); last = now; if (!window.result) c.port2.postMessage(0); };
  c.port2.postMessage(0); }</script>
<div id="answer"></div><script type="module" src="./main.js"></script>`;
const main = (specifier) => `import { render, ready } from "${specifier}";
ready.then(() => {
  const t1 = performance.now();
  const { html } = render("Revenue rose 4% in Q3 [1], driven by DACH [2].", {
    sources: [{ title: "Q3 report", href: "https://example.com/q3" }, { title: "DACH", href: "https://example.com/dach" }],
  });
  document.getElementById("answer").innerHTML = html;
  const t2 = performance.now();
  window.result = { firstRender: t2 - window.t0, ready: t1 - window.t0, render: t2 - t1, longTasks: window.longTasks.slice(), gap: window.gap };
});
`;

const ANSWER = `const markdown = "Revenue rose 4% in Q3 [1], driven by DACH [2].";
const sources = [{ title: "Q3 report", href: "https://example.com/q3" }, { title: "DACH", href: "https://example.com/dach" }];
const element = document.getElementById("answer");
`;

/** A component app's main.js: the answer rendered by the component, with the entry's `engine` as `api` (if any). */
function componentMain({ component, engine }) {
  const api = engine ? ", api: engine" : "";
  const head = engine ? `import { engine } from "${engine}";\n` : "";
  const ready = engine ? "engine.ready" : "Promise.resolve()";
  if (component === null) {
    return `import { createElement } from "react";\nimport { createRoot } from "react-dom/client";\n${ANSWER}
createRoot(element).render(createElement("p", null, markdown));\n`;
  }
  if (component.startsWith("citemark/react")) {
    return `import { createElement } from "react";\nimport { createRoot } from "react-dom/client";
import { CitemarkMessage } from "${component}";\n${head}${ANSWER}
${ready}.then(() => createRoot(element).render(createElement(CitemarkMessage, { markdown, sources, mode: "icon"${api} })));\n`;
  }
  return `import { mountStream } from "${component}";\n${head}${ANSWER}
${ready}.then(() => { const view = mountStream(element, { sources }${engine ? ", { api: engine }" : ""}); view.push(markdown); view.finish(); });\n`;
}

const npm = (args, cwd) =>
  execFileSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], { cwd, stdio: ["ignore", "pipe", "inherit"] }).toString();

/** target/size/ with tests/node's dependencies and the freshly packed package installed. */
export function setUp() {
  mkdirSync(work, { recursive: true });
  const lock = join(repo, "tests", "node", "package-lock.json");
  const stamp = join(work, "node_modules", ".package-lock.json");
  if (!existsSync(stamp) || statSync(stamp).mtimeMs < statSync(lock).mtimeMs) {
    copyFileSync(join(repo, "tests", "node", "package.json"), join(work, "package.json"));
    copyFileSync(lock, join(work, "package-lock.json"));
    npm(["ci"], work);
  }
  for (const f of readdirSync(work)) if (f.endsWith(".tgz")) rmSync(join(work, f));
  const [packed] = JSON.parse(npm(["pack", "--json", "--pack-destination", work], join(repo, "pkg")));
  npm(["install", "--no-save", join(work, packed.filename)], work);
  return work;
}

/**
 * Builds each entry's app (and each of `components`, COMPONENT_APPS) with
 * Vite (production, no config); returns each build's shipped files, measured.
 */
export async function buildApps({ components = [] } = {}) {
  setUp();
  const { build } = await import(pathToFileURL(join(work, "node_modules", "vite", "dist", "node", "index.js")).href);
  const built = [];
  for (const entry of [...ENTRIES, ...components]) {
    const dir = join(work, entry.name);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "index.html"), INDEX);
    writeFileSync(join(dir, "main.js"), "component" in entry ? componentMain(entry) : main(entry.specifier));
    await build({ root: dir, logLevel: "error", configFile: false });
    const dist = join(dir, "dist");
    const files = readdirSync(dist, { recursive: true })
      .map((f) => join(dist, f))
      .filter((f) => statSync(f).isFile() && [".js", ".wasm"].includes(extname(f)))
      .map((f) => measure(relative(dist, f), readFileSync(f)));
    built.push({ ...entry, dist, files });
  }
  return built;
}

/** A file's raw, gzip -9 and brotli (quality 11) sizes in bytes, as a server compresses each file. */
export function measure(name, bytes) {
  return {
    name,
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}
