// `make soak` (docs/reliability.md "Memory over a long session"): one Node
// process plays a long chat session through the package as `make pkg` built it.
//
//   node --expose-gc benches/soak/soak.mjs      (MESSAGES=10000 ENTRY=default|lite FORGET=half|none|all GC=1|0)
//
// Each message (the answers in tests/samples, examples/answer.md and
// www/follow-up.md in turn, with a line of its own and 50 sources of its own)
// is rendered once and streamed once in 4-character chunks with push(); the
// even messages' streams are freed, the odd ones' dropped without free() (FORGET=none:
// every stream freed; all: none freed), left to the garbage collector (wasm-bindgen's glue registers every stream with a
// FinalizationRegistry that frees it in wasm when the JS object is collected).
// At the start and every 1,000 messages (after three forced GCs, each with a
// pause for the finalizers; GC=0: none, only the engine's own): wasm linear
// memory (`memoryBytes()`, which never shrinks: a high-water mark), the JS
// heap in use, and how many of the dropped streams were collected so far. Then two checks
// of the measurement itself and of the remedy:
// - control: 1,000 streams kept alive (never freed, still referenced): how
//   much linear memory that holds, so that a leak would show;
// - a 10 MB message rendered by a fresh instance (`reset()` first): the peak
//   linear memory (it never shrinks, so its size after the render is the peak),
//   then `reset()` and one small render: the memory a fresh instance holds.
import { readFileSync, readdirSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const MESSAGES = Number(process.env.MESSAGES ?? 10_000);
const ENTRY = process.env.ENTRY ?? "default";
const CHUNK = 4;
const SAMPLE_EVERY = 1_000;
const FORGET = process.env.FORGET ?? "half";
const FORCE_GC = process.env.GC !== "0";
if (!["half", "none", "all"].includes(FORGET)) throw new Error(`FORGET=${FORGET}: expected half, none or all`);
const forgets = (i) => FORGET === "all" || (FORGET === "half" && i % 2 === 1);

if (typeof globalThis.gc !== "function") {
  console.error("soak: run with node --expose-gc (make soak does)");
  process.exit(2);
}
const citemark = await import(pathToFileURL(join(repo, "pkg", "src", ENTRY === "lite" ? "lite.js" : "index.js")));

const samples = join(repo, "tests", "samples");
const documents = [
  ...readdirSync(samples)
    .filter((f) => f.endsWith(".md") && f !== "README.md")
    .sort()
    .map((f) => readFileSync(join(samples, f), "utf8")),
  readFileSync(join(repo, "examples", "answer.md"), "utf8"),
  readFileSync(join(repo, "www", "follow-up.md"), "utf8"),
];

/** Message `i`: a document, a line of its own citing two of its 50 sources. */
function message(i) {
  const markdown = `${documents[i % documents.length]}\n\nMessage ${i}: see [${1 + (i % 50)}] and [${1 + ((i * 7) % 50)}].\n`;
  const sources = Array.from({ length: 50 }, (_, k) => ({
    index: k + 1,
    title: `Source ${k + 1} of message ${i}`,
    href: `https://example.org/messages/${i}/sources/${k + 1}`,
    excerpt: `What source ${k + 1} says, at some length, as a search result's snippet would (message ${i}).`,
  }));
  return { markdown, sources };
}

/** Collected JS streams (of the dropped ones), counted by our own registry. */
let collected = 0;
const watch = new FinalizationRegistry(() => collected++);

async function settle(force = FORCE_GC) {
  if (!force) return new Promise((r) => setTimeout(r, 30));
  for (let i = 0; i < 3; i++) {
    globalThis.gc();
    // FinalizationRegistry callbacks run as tasks after the collection.
    await new Promise((r) => setTimeout(r, 30));
  }
}

const mib = (n) => (n / 2 ** 20).toFixed(2);
const rows = [];
let dropped = 0;
let bytes = 0;
let pushes = 0;
async function sample(done) {
  await settle();
  const mem = process.memoryUsage();
  rows.push({ done, wasm: citemark.memoryBytes(), heap: mem.heapUsed, rss: mem.rss, dropped, collected });
}

await sample(0);
const start = performance.now();
for (let i = 0; i < MESSAGES; i++) {
  const { markdown, sources } = message(i);
  bytes += markdown.length;
  const rendered = citemark.render(markdown, { sources, mode: "icon" });
  const stream = citemark.createStream({ sources, mode: "icon" });
  // (Stream = render is the tests' business: tests/node/patches.test.mjs.)
  let appended = 0;
  for (let at = 0; at < markdown.length; at += CHUNK) {
    appended += stream.push(markdown.slice(at, at + CHUNK)).append.length;
    pushes++;
  }
  appended += stream.finish().append.length;
  if (appended === 0 || rendered.html.length === 0) throw new Error(`soak: message ${i} rendered nothing`);
  if (!forgets(i)) {
    stream.free();
  } else {
    watch.register(stream, i);
    dropped++;
  }
  if ((i + 1) % SAMPLE_EVERY === 0 || i + 1 === MESSAGES) await sample(i + 1);
}
const seconds = (performance.now() - start) / 1000;

// Control, on a fresh instance (freed space in the old one would absorb it):
// streams kept alive hold their memory, and it shows.
await settle(true);
citemark.reset();
citemark.render("");
const before = citemark.memoryBytes();
const kept = [];
for (let i = 0; i < 1_000; i++) {
  const { markdown, sources } = message(i);
  const stream = citemark.createStream({ sources, mode: "icon" });
  for (let at = 0; at < markdown.length; at += CHUNK) stream.push(markdown.slice(at, at + CHUNK));
  kept.push(stream);
}
await settle(true);
const keptBytes = citemark.memoryBytes() - before;
for (const stream of kept) stream.free();
kept.length = 0;

// A 10 MB message on a fresh instance: the peak; then the remedy.
citemark.reset();
const big = (() => {
  const unit = documents.join("\n\n");
  let text = "";
  while (text.length < 10 * 2 ** 20) text += unit + "\n\n";
  return text;
})();
const t0 = performance.now();
const bigOut = citemark.render(big, { sources: message(0).sources });
const bigSeconds = (performance.now() - t0) / 1000;
const bigPeak = citemark.memoryBytes();
const bigHtml = bigOut.html.length;
citemark.reset();
citemark.render("*fresh*");
const fresh = citemark.memoryBytes();

console.log(`soak: ${MESSAGES} messages (${(bytes / 1e6).toFixed(1)} M characters, ${pushes} pushes of ${CHUNK}) through citemark (${ENTRY}, FORGET=${FORGET}, GC=${FORCE_GC ? 1 : 0}) ` +
  `in ${seconds.toFixed(1)} s; Node ${process.version}, ${cpus()[0]?.model ?? "unknown CPU"} (${cpus().length} cores)`);
console.log("\n| messages | wasm memory (MiB) | JS heap used (MiB) | RSS (MiB) | streams dropped | collected |");
console.log("| ---: | ---: | ---: | ---: | ---: | ---: |");
for (const r of rows) {
  console.log(`| ${r.done} | ${mib(r.wasm)} | ${mib(r.heap)} | ${mib(r.rss)} | ${r.dropped} | ${r.collected} |`);
}
console.log(`\ncontrol: 1,000 streams kept alive (not freed, still referenced) hold ${mib(keptBytes)} MiB more of wasm memory`);
console.log(`10 MB message (${big.length} characters, ${bigHtml} of HTML): rendered in ${bigSeconds.toFixed(2)} s, ` +
  `peak wasm memory ${mib(bigPeak)} MiB; after reset() and one small render: ${mib(fresh)} MiB`);
