// Startup in Chromium (docs/performance.md, "Startup in Chromium"): how long
// from the page's first script to the first render(), per entry, as a
// production Vite build ships it?
//
//   make bench-startup                   (builds the package, installs what it needs)
//   node benches/browser/startup.mjs     (after make pkg)
//
// The apps are `make size`'s (pkg/scripts/vite-apps.mjs): per entry
// (`citemark`, `citemark/async`, `citemark/lite`, `citemark/lite/async`), a
// page whose inline classic script records performance.now() before the
// module bundle runs, and whose module imports the entry, awaits `ready` and
// renders one cited answer into the page. Served from 127.0.0.1, every file
// gzip -9 as a production server sends it, .wasm as `application/wasm` (so
// the async entries compile while streaming); MBPS=20 (then LATENCY_MS=40 by
// default) emulates a network through Chromium's DevTools protocol, none by
// default. Each run in a fresh browser context (an empty HTTP cache, so no
// cached compiled wasm), entries interleaved run by run. Reported per entry,
// the median and range over RUNS (default 9) of: inline script → `ready`
// (download, parse, compile), → first render done, the first render() call
// alone, the longest the main thread was blocked (the longest gap in a
// MessageChannel ping-pong the page runs until the render, or a longer
// 'longtask' entry), and how many runs had a long task (PerformanceObserver
// 'longtask': over 50 ms). Debian's headless Chromium, the browser tests' flags.
import { createServer } from "node:http";
import { readFileSync, existsSync } from "node:fs";
import { cpus } from "node:os";
import { extname, join, normalize } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

import { buildApps, work } from "../../pkg/scripts/vite-apps.mjs";

const RUNS = Number(process.env.RUNS ?? 9);
// A network to emulate (Chromium's throttling, as DevTools does): MBPS megabits per second
// down, LATENCY_MS round trip; none by default.
const MBPS = Number(process.env.MBPS ?? 0);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? (MBPS ? 40 : 0));
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };

const apps = await buildApps();
const { chromium } = await import(pathToFileURL(join(work, "node_modules", "playwright-core", "index.mjs")).href);

function serve(root) {
  const gzipped = new Map();
  const server = createServer((req, res) => {
    let path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (path === "/") path = "/index.html";
    const file = normalize(join(root, path));
    if (!file.startsWith(root) || !existsSync(file)) return res.writeHead(path === "/favicon.ico" ? 204 : 404).end();
    const headers = { "content-type": TYPES[extname(file)] ?? "application/octet-stream" };
    if (!/\bgzip\b/.test(req.headers["accept-encoding"] ?? "")) return res.writeHead(200, headers).end(readFileSync(file));
    if (!gzipped.has(file)) gzipped.set(file, gzipSync(readFileSync(file), { level: 9 }));
    res.writeHead(200, { ...headers, "content-encoding": "gzip" }).end(gzipped.get(file));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

const servers = await Promise.all(apps.map((app) => serve(app.dist)));
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const version = browser.version();
const results = apps.map(() => []);
try {
  for (let run = 0; run < RUNS; run++) {
    for (const [i, server] of servers.entries()) {
      const context = await browser.newContext();
      const page = await context.newPage();
      if (MBPS) {
        const cdp = await context.newCDPSession(page);
        const bytesPerSecond = (MBPS * 1e6) / 8;
        await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: LATENCY_MS, downloadThroughput: bytesPerSecond, uploadThroughput: bytesPerSecond });
      }
      const errors = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await page.goto(`http://127.0.0.1:${server.address().port}/`);
      await page.waitForFunction(() => window.result !== undefined, null, { timeout: 30000 });
      // Long tasks are reported after they end: give the observer a moment.
      await page.waitForTimeout(100);
      const result = await page.evaluate(() => ({ ...window.result, longTasks: window.longTasks.slice(), gap: window.gap }));
      const html = await page.evaluate(() => document.getElementById("answer").innerHTML);
      await context.close();
      if (errors.length || !html.includes('data-citation-key="2"')) throw new Error(`${apps[i].specifier}: ${errors.join("; ") || "no citation rendered"}`);
      results[i].push(result);
    }
  }
} finally {
  await browser.close();
  for (const server of servers) server.close();
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x) => `${x.toFixed(0)}`;
const spread = (xs) => `${ms(median(xs))} (${ms(Math.min(...xs))}–${ms(Math.max(...xs))})`;
const network = MBPS ? `${MBPS} Mbit/s, ${LATENCY_MS} ms round trip (emulated)` : "localhost, no throttling";
console.log(`Chromium ${version}, ${cpus().length} cores (${cpus()[0]?.model ?? "unknown CPU"}), ${network}, files gzipped; ${RUNS} runs per entry, medians (range), ms:\n`);
console.log("| entry | → ready | → first render done | first render() alone | main thread's longest block | runs with a long task (> 50 ms) |\n| --- | ---: | ---: | ---: | ---: | ---: |");
for (const [i, app] of apps.entries()) {
  const rs = results[i];
  const longest = rs.map((r) => Math.max(r.gap, ...r.longTasks));
  const withLong = rs.filter((r) => r.longTasks.length > 0).length;
  console.log(`| \`${app.specifier}\` | ${spread(rs.map((r) => r.ready))} | ${spread(rs.map((r) => r.firstRender))} | ${spread(rs.map((r) => r.render))} | ${spread(longest)} | ${withLong} of ${rs.length} |`);
}
