// `make size`: what each entry weighs and how fast it renders under Node.
//
//   node pkg/scripts/size.mjs
//
// Sizes, first as a production Vite build ships each entry to a browser
// (pkg/scripts/vite-apps.mjs: a minimal app per entry, `citemark`,
// `citemark/async`, `citemark/lite`, `citemark/lite/async`, built by Vite
// with no configuration from the packed package): every .js and .wasm file
// in its dist/, each compressed on its own as a server sends it, raw, gzip -9
// and brotli (quality 11), summed and set against issue 22's targets (JS +
// wasm gzipped: default ≤ 400 KB, lite ≤ 180 KB; 1 KB = 1000 bytes); and
// so for apps using a component with an engine (COMPONENT_APPS: React's
// CitemarkMessage from citemark/react, or from citemark/react/core with an
// entry's `engine`, the DOM applier from citemark/dom/core, React alone as
// the baseline). Then the wasm binary alone per entry (and the adapters'
// own, which the lite entries' `adapt` loads), and the package's own files
// for the synchronous entries (entry module, api.js, glue, base64 payload
// module).
// Speed: render() over the
// answers in tests/samples/ (with their sources) and examples/answer.md: after
// a one-second warm-up (V8 compiles wasm with its baseline tier first and
// optimizes hot functions later), the best of five 0.4 s rounds; MB/s of
// markdown (1 MB = 10^6 bytes) and MiB/s. It includes the JS side: options
// to JSON, strings in and out, the index's JSON.parse. Also: that neither
// entry's wasm holds the test-only feature `test-trap` (its magic input;
// pkg/scripts/build.mjs refuses to build such a package, this says so again).
// Exits non-zero only on that; a size over its target is reported, as
// README.md says why.
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { COMPONENT_APPS, buildApps } from "./vite-apps.mjs";

const pkg = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const repo = resolve(pkg, "..");

const gz = (b) => gzipSync(b, { level: 9 }).length;
const br = (b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;

const rows = [];
// src/wasm.rs TEST_TRAP, the input that makes a test-trap build panic.
const TEST_TRAP_MARKER = Buffer.from("citemark-test-trap:panic");
const trapChecks = [];
for (const [entry, file] of [["default", "index.js"], ["lite", "lite.js"], ["adapters", "adapters.js"]]) {
  const payloadJs = readFileSync(join(pkg, "dist", entry, "citemark.wasm.js"), "utf8");
  const wasm = Buffer.from(/"([A-Za-z0-9+/=]+)"/.exec(payloadJs)[1], "base64");
  if (wasm.includes(TEST_TRAP_MARKER)) {
    console.error(`${entry}: the wasm holds the test-only feature test-trap: never publish it`);
    process.exit(1);
  }
  trapChecks.push(entry);
  const shipped = Buffer.concat(
    [join("src", file), join("src", "api.js"), join("dist", entry, "citemark.js"), join("dist", entry, "citemark.wasm.js")].map(
      (f) => readFileSync(join(pkg, f)),
    ),
  );
  rows.push([`${entry}: wasm`, wasm.length, gz(wasm), br(wasm)]);
  rows.push([`${entry}: JS shipped (base64 inlined)`, shipped.length, gz(shipped), br(shipped)]);
}
const apps = await buildApps({ components: COMPONENT_APPS });
const sum = (files, key) => files.reduce((n, f) => n + f[key], 0);
const header = "| files | raw | gzip -9 | brotli 11 |";
const cells = (app) => {
  const gzip = sum(app.files, "gzip");
  const files = app.files.map((f) => `${f.name.replace(/^assets\//, "")} ${kb(f.gzip)}`).join(", ");
  return `${files} | ${kb(sum(app.files, "raw"))} | ${kb(gzip)} = ${(gzip / 1000).toFixed(1)} KB | ${kb(sum(app.files, "brotli"))} |`;
};
console.log("As a production Vite build ships each entry (every .js and .wasm of its dist/, each compressed alone):\n");
console.log(`| entry ${header} target (gzip) | |\n| --- | --- | ---: | ---: | ---: | ---: | --- |`);
for (const app of apps.filter((a) => !("component" in a))) {
  const gzip = sum(app.files, "gzip");
  const verdict = gzip <= app.target ? "within" : `over by ${((gzip - app.target) / 1000).toFixed(1)} KB`;
  console.log(`| \`${app.specifier}\` | ${cells(app)} ${app.target / 1000} KB | ${verdict} |`);
}
console.log("\nApps using a component with an engine (passed as `api`; React's own runtime in every React row):\n");
console.log(`| app ${header}\n| --- | --- | ---: | ---: | ---: |`);
for (const app of apps.filter((a) => "component" in a)) console.log(`| \`${app.specifier}\` | ${cells(app)}`);
console.log("\nThe package's files:\n");
console.log("| what | raw | gzip -9 | brotli 11 |\n| --- | ---: | ---: | ---: |");
for (const [what, raw, g, b] of rows) console.log(`| ${what} | ${kb(raw)} | ${kb(g)} | ${kb(b)} |`);
console.log(`\ntest-only feature test-trap: absent from ${trapChecks.join(", ")} (no "${TEST_TRAP_MARKER}" in the wasm)`);

const samplesDir = join(repo, "tests", "samples");
const samples = readdirSync(samplesDir)
  .filter((f) => f.endsWith(".md") && f !== "README.md")
  .map((f) => {
    const markdown = readFileSync(join(samplesDir, f), "utf8");
    const sourcesPath = join(samplesDir, f.replace(/\.md$/, ".sources.json"));
    let options = {};
    if (existsSync(sourcesPath)) {
      const json = JSON.parse(readFileSync(sourcesPath, "utf8"));
      options = Array.isArray(json) ? { sources: json } : { sources: json.sources ?? [], aliases: json.aliases ?? {} };
    }
    return { markdown, options, bytes: Buffer.byteLength(markdown) };
  });
const answer = readFileSync(join(repo, "examples", "answer.md"), "utf8");
const answerJson = JSON.parse(readFileSync(join(repo, "examples", "sources.json"), "utf8"));
const answerSources = Array.isArray(answerJson) ? answerJson : answerJson.sources;

function measure(render, inputs) {
  const bytes = inputs.reduce((n, s) => n + s.bytes, 0);
  const run = (seconds) => {
    let rounds = 0;
    const start = performance.now();
    let elapsed = 0;
    while (elapsed < seconds) {
      for (const s of inputs) render(s.markdown, s.options);
      rounds++;
      elapsed = (performance.now() - start) / 1000;
    }
    return (bytes * rounds) / elapsed;
  };
  run(1.0);
  let best = 0;
  for (let i = 0; i < 5; i++) best = Math.max(best, run(0.4));
  return { mbps: best / 1e6, mibps: best / 2 ** 20 };
}

console.log(`\nrender() under Node ${process.version} on ${cpus()[0]?.model ?? "unknown CPU"}:`);
console.log("| entry | input | bytes | MB/s | MiB/s |\n| --- | --- | ---: | ---: | ---: |");
for (const [entry, file] of [["default", "index.js"], ["lite", "lite.js"]]) {
  const t0 = performance.now();
  const api = await import(pathToFileURL(join(pkg, "src", file)).href);
  const loadMs = performance.now() - t0;
  const inputs = [
    ["tests/samples (all)", samples],
    ["examples/answer.md", [{ markdown: answer, options: { sources: answerSources }, bytes: Buffer.byteLength(answer) }]],
    ["examples/answer.md ×64", [{ markdown: answer.repeat(64), options: { sources: answerSources }, bytes: Buffer.byteLength(answer) * 64 }]],
  ];
  for (const [name, list] of inputs) {
    const { mbps, mibps } = measure(api.render, list);
    const bytes = list.reduce((n, s) => n + s.bytes, 0);
    console.log(`| ${entry} | ${name} | ${bytes} | ${mbps.toFixed(1)} | ${mibps.toFixed(1)} |`);
  }
  console.log(`| ${entry} | (import incl. base64 decode + sync compile) | | ${loadMs.toFixed(0)} ms | |`);
}
