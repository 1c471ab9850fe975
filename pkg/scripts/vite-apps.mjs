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

/** Builds each entry's app with Vite (production, no config); returns each build's shipped files, measured. */
export async function buildApps() {
  setUp();
  const { build } = await import(pathToFileURL(join(work, "node_modules", "vite", "dist", "node", "index.js")).href);
  const built = [];
  for (const entry of ENTRIES) {
    const dir = join(work, entry.name);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "index.html"), INDEX);
    writeFileSync(join(dir, "main.js"), main(entry.specifier));
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
