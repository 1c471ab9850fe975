// Streaming by shape through the npm package in Node (`make bench-node-shapes`;
// docs/performance.md, "Streaming by shape"): the Node side of
// benches/shapes.rs, on the same texts.
//
// Each shape (benches/support/shapes.rs, printed by the `stream_cost`
// example, so the texts are the native bench's byte for byte) at 16 and
// 256 KiB, with examples/sources.json, cut into 4-character chunks (code
// points), streamed the way a host that repaints after every token does:
// - `changes`: `pushDeferred` then `tailChange()` after every push (what
//   citemark/dom applies; typing the stream vouches for is shown by the glue
//   without crossing into wasm, docs/streaming.md "Typing shown by the host");
// - `tails`: `push`, the whole tail after every push.
// Per shape and size: the final HTML's length, characters handed to the host
// (appends plus the change's HTML, or the whole tail) over it, the stream's
// time over one `render` of the text (medians of RUNS interleaved runs; the
// render timed in batches of at least 50 ms), and whether the appends equal
// the render (checked on an untimed run). Timed twice: in a steady state, and
// (`changes` only, with --expose-gc) each run just after a full garbage
// collection, which costs the streams far more than the render
// (docs/performance.md, "Node: a full collection before each run").
//
// Environment: SHAPES (default: all), SIZES (KiB, default 16,256), RUNS
// (default 5), STREAM_COST (the example's path).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { createStream, ready, render } from "citemark";

import { StringHost, chunked, shapeText } from "./host.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..", "..");
const STREAM_COST = process.env.STREAM_COST ?? join(repo, "target", "release", "examples", "stream_cost");
/** benches/support/shapes.rs's shapes, by name. */
const ALL = execFileSync(STREAM_COST, ["names", "0", "0"]).toString().trim().split("\n");
const list = (value, fallback) => (value ?? fallback).split(",").map((s) => s.trim()).filter(Boolean);
const SHAPES = list(process.env.SHAPES, ALL.join(","));
const SIZES = list(process.env.SIZES, "16,256").map(Number);
const RUNS = Number(process.env.RUNS ?? 5);
const CHUNK = 4;
const sourcesFile = JSON.parse(readFileSync(join(repo, "examples", "sources.json"), "utf8"));
const options = Array.isArray(sourcesFile)
  ? { sources: sourcesFile }
  : { sources: sourcesFile.sources, ...(sourcesFile.aliases ? { aliases: sourcesFile.aliases } : {}) };
for (const name of SHAPES) if (!ALL.includes(name)) throw new Error(`SHAPES: no shape ${name} (${ALL.join(", ")})`);

await ready;

const now = () => process.hrtime.bigint();
const ms = (from, to) => Number(to - from) / 1e6;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** benches/support/shapes.rs's `shape(name, bytes)`. */
const shape = (name, bytes) => shapeText(STREAM_COST, name, bytes);

/** Streams `chunks` the `mode` way; returns [characters handed, the host]. */
function stream(mode, chunks) {
  const s = createStream(options);
  const host = new StringHost();
  let handed = 0;
  for (const chunk of chunks) {
    if (mode === "tails") {
      const patch = s.push(chunk);
      host.apply(patch);
      handed += patch.append.length + patch.tail.length;
    } else {
      const patch = s.pushDeferred(chunk);
      host.apply(patch);
      const change = s.tailChange();
      handed += patch.append.length + (change === undefined ? 0 : "insert" in change ? change.insert.length : change.replace.length);
    }
  }
  const last = s.finish();
  host.apply(last);
  s.free();
  return [handed + last.append.length, host];
}

function oneShot(text) {
  let n = 0;
  const start = now();
  let t;
  do {
    render(text, options);
    n += 1;
    t = ms(start, now());
  } while (t < 50);
  return t / n;
}

const MODES = ["changes", "tails"];
/** A full garbage collection (Node runs with --expose-gc, as make bench-node-shapes does). */
const collect = () => globalThis.gc();
// Warm-up: both paths, so the JIT and the wasm tiers are hot before timing.
{
  const text = shape("short-paragraphs", 16 * 1024);
  for (let i = 0; i < 3; i++) for (const mode of MODES) stream(mode, chunked(text, CHUNK));
}

const rows = [];
const started = now();
for (const name of SHAPES) {
  for (const kib of SIZES) {
    const text = shape(name, kib * 1024);
    const chunks = chunked(text, CHUNK);
    const html = render(text, options).html;
    const row = { name, kib, html: html.length, handed: {}, same: {}, ms: {}, once: [] };
    for (const mode of MODES) {
      const [handed, host] = stream(mode, chunks);
      row.handed[mode] = handed / html.length;
      row.same[mode] = host.html === html;
      row.ms[mode] = [];
    }
    // Steady state, as in a page that has been streaming: no collection
    // forced, the render and the streams interleaved.
    for (let r = 0; r < RUNS; r++) {
      row.once.push(oneShot(text));
      for (const mode of MODES) {
        const start = now();
        stream(mode, chunks);
        row.ms[mode].push(ms(start, now()));
      }
    }
    // Then each run just after a full collection (with --expose-gc), as at a
    // page's first message: V8 drops type feedback and optimized code in it
    // (--trace-deopt: "Insufficient type feedback"), which the next few
    // streams pay to rebuild; the render, one long call, pays it once.
    if (globalThis.gc) {
      row.onceGc = [];
      row.msGc = [];
      for (let r = 0; r < RUNS; r++) {
        collect();
        row.onceGc.push(oneShot(text));
        collect();
        const start = now();
        stream("changes", chunks);
        row.msGc.push(ms(start, now()));
      }
    }
    rows.push(row);
    process.stderr.write(`${name} ${kib} KiB done after ${(ms(started, now()) / 1e3).toFixed(0)} s\n`);
  }
}

const fmt = (x, digits = 1) => x.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ratio = (row, mode) => median(row.ms[mode]) / median(row.once);
console.log(
  `\nNode ${process.version}, ${cpus()[0]?.model ?? "unknown CPU"} (${cpus().length} cores), ${new Date().toISOString().slice(0, 10)}; ` +
    `${CHUNK}-character chunks, medians of ${RUNS} interleaved runs\n`,
);
console.log(
  "| shape | size | final HTML | one-shot ms | handed ÷ HTML (changes) | stream ÷ one-shot (changes) | the same, each after a full GC | handed ÷ HTML (tails) | stream ÷ one-shot (tails) | stream = render |",
);
console.log("|:--|--:|--:|--:|--:|--:|--:|--:|--:|:--|");
for (const row of rows) {
  const same = MODES.every((mode) => row.same[mode]) ? "yes" : `NO (${MODES.filter((m) => !row.same[m]).join(", ")})`;
  console.log(
    `| ${row.name} | ${row.kib} KiB | ${fmt(row.html, 0)} B | ${fmt(median(row.once), 2)} | ${fmt(row.handed.changes)}x | ${fmt(ratio(row, "changes"))}x | ` +
      `${row.msGc ? `${fmt(median(row.msGc) / median(row.onceGc))}x` : "–"} | ` +
      `${fmt(row.handed.tails)}x | ${fmt(ratio(row, "tails"))}x | ${same} |`,
  );
}
if (SIZES.length > 1) {
  console.log(`\nGrowth from ${SIZES[0]} to ${SIZES[SIZES.length - 1]} KiB (changes: handed ÷ HTML, stream ÷ one-shot):`);
  for (const name of SHAPES) {
    const [a, b] = [rows.find((r) => r.name === name && r.kib === SIZES[0]), rows.find((r) => r.name === name && r.kib === SIZES[SIZES.length - 1])];
    console.log(`- ${name}: ${fmt(b.handed.changes / a.handed.changes, 2)}x, ${fmt(ratio(b, "changes") / ratio(a, "changes"), 2)}x`);
  }
}
if (rows.some((row) => MODES.some((mode) => !row.same[mode]))) process.exitCode = 1;
