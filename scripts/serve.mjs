// A tiny dependency-free static file server for the demo (www/) and the
// browser tests (which import `serveStatic` and listen on port 0).
//
//   node scripts/serve.mjs            serves the demo on http://127.0.0.1:8080/ ($PORT overrides)
//
// It serves a fixed set of mounts, never the whole checkout: the demo needs
// www/, the package's ES modules (pkg/src, pkg/dist, as `make pkg` builds
// them) and the sample answer in examples/, nothing else. Loopback only.

import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** What the demo page needs: URL prefix → folder of the repo. */
export const DEMO_MOUNTS = {
  "/pkg/src/": path.join(REPO, "pkg/src"),
  "/pkg/dist/": path.join(REPO, "pkg/dist"),
  "/examples/": path.join(REPO, "examples"),
  // KaTeX, for the math page (www/math.html): a devDependency of pkg/.
  "/vendor/katex/": path.join(REPO, "pkg/node_modules/katex/dist"),
  "/": path.join(REPO, "www"),
};

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".wasm": "application/wasm",
  ".txt": "text/plain; charset=utf-8",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".ttf": "font/ttf",
};

/** The file a URL path names under `mounts` (longest prefix first), or null. */
async function locate(mounts, pathname) {
  const prefixes = Object.keys(mounts).sort((a, b) => b.length - a.length);
  const prefix = prefixes.find((p) => pathname.startsWith(p));
  if (!prefix) return null;
  const root = mounts[prefix];
  const file = path.resolve(root, "." + pathname.slice(prefix.length - 1));
  // `..` segments (URL-encoded or not) must not climb out of the mount.
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  const info = await stat(file).catch(() => null);
  if (info?.isDirectory()) return isFile(path.join(file, "index.html"));
  return info?.isFile() ? file : null;
}

async function isFile(file) {
  const info = await stat(file).catch(() => null);
  return info?.isFile() ? file : null;
}

/**
 * Starts a server for `mounts` ({"/url/prefix/": "/abs/folder"}) on
 * 127.0.0.1:`port` (0: any free port), with `headers` added to every file it
 * serves (a Content-Security-Policy, say). Resolves to {origin, server, close}.
 */
export async function serveStatic(mounts = DEMO_MOUNTS, port = 0, headers = {}) {
  const server = createServer(async (request, response) => {
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(request.url, "http://127.0.0.1").pathname);
    } catch {
      pathname = null; // malformed %-escape
    }
    const file = pathname && (request.method === "GET" || request.method === "HEAD") ? await locate(mounts, pathname) : null;
    if (!file) {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
      response.end("not found\n");
      return;
    }
    const body = await readFile(file);
    response.writeHead(200, {
      ...headers,
      "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
      "content-length": body.length,
      // A demo under development: always the file as it is now.
      "cache-control": "no-store",
    });
    response.end(request.method === "HEAD" ? undefined : body);
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    server,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

// `node scripts/serve.mjs`: the demo, until Ctrl-C.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const port = Number(process.env.PORT ?? 8080);
  const { origin } = await serveStatic(DEMO_MOUNTS, port).catch((error) => {
    console.error(`serve: cannot listen on 127.0.0.1:${port}: ${error.message} (set PORT to another port)`);
    process.exit(1);
  });
  console.log(`citemark demo: ${origin}/  (Ctrl-C to stop)`);
}
