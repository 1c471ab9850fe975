// citemark's npm package (WASM) against other JavaScript markdown renderers,
// one-shot and streamed, in one Node process on the same documents and
// chunkings (`make bench-node`; README: "Compared with other renderers").
//
// Documents: examples/answer.md repeated (with a newline between copies)
// until it reaches 2 KiB, 20 KiB and 200 KiB, as benches/stream.rs does
// (3,199 / 22,399 / 204,799 bytes). Chunks: 4, 16 and 64 characters (code
// points, so no surrogate pair is split).
//
// Per contender and document: one-shot MB/s (10^6 UTF-8 bytes per second);
// per chunk size: the total time to stream the document, its ratio to the
// contender's own one-shot render, and the prefix rate: the share of pushes
// after which the visible text of the output so far is a prefix of the final
// visible text (`visible()` below, the same for every contender).
//
// Timing: contenders interleaved, median of RUNS runs (RUNS_LARGE on the
// 200 KiB document); a contender whose first run of a cell takes more than
// 2 s is run once there (the quadratic ones at 4 characters). A re-render-everything contender whose 200 KiB run is estimated
// (from its 20 KiB time, quadratically) to take longer than LIMIT_S seconds
// is not run there: its time is extrapolated from the 2 KiB and 20 KiB
// medians with t = a·n + b·n² and marked "~" in the table.
//
// Environment: RUNS (default 5), RUNS_LARGE (default 3), LIMIT_S (default 20).
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { render as citemarkRender, createStream, ready } from "citemark";
import { marked } from "marked";
import MarkdownIt from "markdown-it";
import markdownWasm from "markdown-wasm";
import { createIncremarkParser } from "@incremark/core";
import { toHast } from "mdast-util-to-hast";
import { toHtml } from "hast-util-to-html";
import * as smd from "streaming-markdown";
import remend from "remend";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..", "..");
const RUNS = Number(process.env.RUNS ?? 5);
const RUNS_LARGE = Number(process.env.RUNS_LARGE ?? 3);
const LIMIT_S = Number(process.env.LIMIT_S ?? 20);
const SIZES = [
  ["2 KiB", 2 * 1024],
  ["20 KiB", 20 * 1024],
  ["200 KiB", 200 * 1024],
];
const CHUNKS = [4, 16, 64];
/** Characters between two tail renders in citemark's per-frame mode. */
const FRAME = 256;

await ready;
await markdownWasm.ready;

// ---- documents ----------------------------------------------------------------
const answer = readFileSync(join(repo, "examples", "answer.md"), "utf8");
const sourcesFile = JSON.parse(readFileSync(join(repo, "examples", "sources.json"), "utf8"));
const citemarkOptions = Array.isArray(sourcesFile)
  ? { sources: sourcesFile }
  : { sources: sourcesFile.sources, ...(sourcesFile.aliases ? { aliases: sourcesFile.aliases } : {}) };

function corpus(target) {
  let text = "";
  while (Buffer.byteLength(text) < target) text += answer + "\n";
  return text;
}

function chunked(text, size) {
  const points = Array.from(text);
  const out = [];
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(""));
  return out;
}

// ---- visible text: the same function for every contender ----------------------
const BLOCK = new Set(
  "address article aside blockquote br dd details div dl dt figcaption figure footer h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table tbody td tfoot th thead tr ul".split(" "),
);
const NAMED = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Tags dropped (block-level ones read as a space), entities decoded, whitespace runs as one space. */
function visible(html) {
  const text = html
    .replace(/<\/?([a-zA-Z][a-zA-Z0-9-]*)[^>]*>/g, (_, name) => (BLOCK.has(name.toLowerCase()) ? " " : ""))
    .replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, e) => {
      if (e[0] === "#") return String.fromCodePoint(e[1] === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
      return NAMED[e] ?? whole;
    });
  return text.split(/\s+/).filter(Boolean).join(" ");
}

/**
 * Counts the steps whose view is a prefix of the final text. A step is
 * (appended, current): `appended` is HTML that became final since the last
 * step (only citemark and incremark have any), `current` the HTML of the rest
 * as it is shown now (for re-render contenders: their whole render).
 */
class PrefixRate {
  constructor(finalHtml) {
    this.final = visible(finalHtml);
    this.done = "";
    this.doneOk = true;
    this.good = 0;
    this.total = 0;
  }
  step(appended, current) {
    if (appended) {
      this.done = (this.done + " " + visible(appended)).trim();
      this.doneOk = this.final.startsWith(this.done);
    }
    const rest = visible(current);
    let ok;
    if (!rest) ok = this.doneOk;
    else if (!this.done) ok = this.final.startsWith(rest);
    else ok = this.doneOk && this.final.startsWith(" " + rest, this.done.length);
    this.total += 1;
    if (ok) this.good += 1;
  }
  get rate() {
    return this.good / this.total;
  }
}

// ---- a minimal DOM for streaming-markdown's default renderer -------------------
// It calls document.createElement/createTextNode, appendChild, setAttribute,
// .children, .parentElement.tagName and sets .type/.disabled on checkboxes.
class FakeText {
  constructor(text) {
    this.text = text;
  }
}
class FakeElement {
  constructor(tag) {
    this.tagName = tag.toUpperCase();
    this.childNodes = [];
    this.children = [];
    this.attributes = [];
    this.parentElement = null;
  }
  appendChild(node) {
    this.childNodes.push(node);
    if (node instanceof FakeElement) {
      this.children.push(node);
      node.parentElement = this;
    }
    return node;
  }
  setAttribute(name, value) {
    this.attributes.push([name, String(value)]);
  }
}
globalThis.document = {
  createElement: (tag) => new FakeElement(tag),
  createTextNode: (text) => new FakeText(text),
};
const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
function outerHtml(node) {
  if (node instanceof FakeText) return esc(node.text);
  const tag = node.tagName.toLowerCase();
  const attrs = node.attributes.map(([k, v]) => ` ${k}="${esc(v)}"`).join("");
  return `<${tag}${attrs}>${node.childNodes.map(outerHtml).join("")}</${tag}>`;
}
const innerHtml = (root) => root.childNodes.map(outerHtml).join("");

// ---- contenders -----------------------------------------------------------------
// oneShot(text) -> HTML. stream(chunks, step?) streams the document; `step`,
// when given (prefix pass only, never timed), is called after every chunk with
// (appendedHtml, currentHtml), and stream returns the final HTML.
const md = new MarkdownIt();
const mdHtml = (node) => toHtml(toHast(node, { allowDangerousHtml: true }), { allowDangerousHtml: true });

function reRender(name, oneShot, note) {
  return {
    name,
    note,
    reRender: true,
    oneShot,
    stream(chunks, step) {
      let text = "";
      let html = "";
      for (const chunk of chunks) {
        text += chunk;
        html = oneShot(text);
        if (step) step("", html);
      }
      return html;
    },
  };
}

function incremark(withHtml) {
  const blocksHtml = (blocks) => blocks.map((b) => mdHtml(b.node)).join("");
  return {
    name: withHtml ? "@incremark/core + mdast→HTML" : "@incremark/core (mdast only)",
    incremental: true,
    oneShot(text) {
      const parser = createIncremarkParser({ gfm: true });
      // render() = reset + append + finalize; its update lists no blocks
      // as completed, so the HTML is made from the whole AST.
      const update = parser.render(text);
      return withHtml ? mdHtml(update.ast) : update;
    },
    stream(chunks, step) {
      const parser = createIncremarkParser({ gfm: true });
      let done = "";
      for (const chunk of chunks) {
        const update = parser.append(chunk);
        if (withHtml || step) {
          const appended = blocksHtml(update.completed);
          const current = blocksHtml(update.pending);
          done += appended;
          if (step) step(appended, current);
        }
      }
      const last = parser.finalize();
      if (withHtml || step) done += blocksHtml(last.completed);
      return done;
    },
  };
}

const contenders = [
  {
    name: "citemark push (tail every push)",
    incremental: true,
    oneShot: (text) => citemarkRender(text, citemarkOptions).html,
    stream(chunks, step) {
      const stream = createStream(citemarkOptions);
      let done = "";
      for (const chunk of chunks) {
        const patch = stream.push(chunk);
        done += patch.append;
        if (step) step(patch.append, patch.tail);
      }
      done += stream.finish().append;
      stream.free();
      return done;
    },
  },
  {
    name: `citemark pushDeferred + tail() per ${FRAME} chars`,
    incremental: true,
    oneShot: (text) => citemarkRender(text, citemarkOptions).html,
    stream(chunks, step) {
      const stream = createStream(citemarkOptions);
      let done = "";
      let since = 0;
      let tail = "";
      for (const chunk of chunks) {
        const patch = stream.pushDeferred(chunk);
        done += patch.append;
        // What the reader sees: the appends at once, and the tail as last
        // painted, dropped when what it showed is appended (until the next frame).
        if (patch.append) tail = "";
        since += chunk.length;
        if (since >= FRAME) {
          tail = stream.tail();
          since = 0;
        }
        if (step) step(patch.append, tail);
      }
      done += stream.finish().append;
      stream.free();
      return done;
    },
  },
  incremark(false),
  incremark(true),
  {
    name: "streaming-markdown (fake DOM)",
    oneShot(text) {
      const root = new FakeElement("div");
      const parser = smd.parser(smd.default_renderer(root));
      smd.parser_write(parser, text);
      smd.parser_end(parser);
      return root;
    },
    stream(chunks, step) {
      const root = new FakeElement("div");
      const parser = smd.parser(smd.default_renderer(root));
      for (const chunk of chunks) {
        smd.parser_write(parser, chunk);
        if (step) step("", innerHtml(root));
      }
      smd.parser_end(parser);
      return root;
    },
  },
  reRender("Streamdown: remend + marked, re-render", (text) => marked.parse(remend(text))),
  reRender("marked, re-render", (text) => marked.parse(text)),
  reRender("markdown-it, re-render", (text) => md.render(text)),
  reRender("markdown-wasm, re-render", (text) => markdownWasm.parse(text)),
];
const asHtml = (out) => (out instanceof FakeElement ? innerHtml(out) : typeof out === "string" ? out : mdHtml(out.ast));

// ---- timing ---------------------------------------------------------------------
const now = () => process.hrtime.bigint();
const ms = (from, to) => Number(to - from) / 1e6;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One-shot: ms per render, from a batch of at least 50 ms. */
function timeOneShot(c, text) {
  let n = 0;
  const start = now();
  let t;
  do {
    c.oneShot(text);
    n += 1;
    t = ms(start, now());
  } while (t < 50);
  return t / n;
}

function timeStream(c, chunks) {
  const start = now();
  c.stream(chunks);
  return ms(start, now());
}

const wallStart = now();
const results = new Map(); // `${name}|${size}` -> { bytes, oneShot, streams: { [chunk]: { ms, extrapolated, prefix } } }
const key = (c, label) => `${c.name}|${label}`;

// Warm-up: every path a few times, so the JIT and the wasm (Liftoff, then
// TurboFan) are hot before timing.
{
  const text = corpus(2048);
  for (let i = 0; i < 3; i++) for (const c of contenders) for (const size of CHUNKS) c.stream(chunked(text, size));
}

for (const [label, target] of SIZES) {
  const text = corpus(target);
  const bytes = Buffer.byteLength(text);
  const large = target > 100 * 1024;
  const runs = large ? RUNS_LARGE : RUNS;
  for (const c of contenders) results.set(key(c, label), { bytes, oneShot: 0, streams: {} });

  const once = new Map(contenders.map((c) => [c.name, []]));
  for (let r = 0; r < runs; r++) for (const c of contenders) once.get(c.name).push(timeOneShot(c, text));
  for (const c of contenders) results.get(key(c, label)).oneShot = median(once.get(c.name));

  for (const size of CHUNKS) {
    const chunks = chunked(text, size);
    // Which contenders run here; the others are extrapolated below.
    const running = contenders.filter((c) => {
      if (!c.reRender || !large) return true;
      const small = results.get(key(c, "20 KiB"));
      const estimate = small.streams[size].ms * (bytes / small.bytes) ** 2;
      return estimate / 1e3 <= LIMIT_S;
    });
    const times = new Map(running.map((c) => [c.name, []]));
    for (let r = 0; r < runs; r++) {
      for (const c of running) {
        // A run of more than 2 s is measured once (the quadratic contenders).
        if (r > 0 && times.get(c.name)[0] > 2000) continue;
        times.get(c.name).push(timeStream(c, chunks));
      }
    }
    for (const c of contenders) {
      const entry = { ms: NaN, extrapolated: false, prefix: NaN };
      if (times.has(c.name)) entry.ms = median(times.get(c.name));
      else {
        // t = a·n + b·n² through the 2 KiB and 20 KiB medians.
        const p1 = results.get(key(c, "2 KiB"));
        const p2 = results.get(key(c, "20 KiB"));
        const [n1, t1, n2, t2] = [p1.bytes, p1.streams[size].ms, p2.bytes, p2.streams[size].ms];
        const b = (t2 / n2 - t1 / n1) / (n2 - n1);
        const a = t1 / n1 - b * n1;
        entry.ms = a * bytes + b * bytes * bytes;
        entry.extrapolated = true;
      }
      // Prefix rate (untimed): every contender on the 2 and 20 KiB documents;
      // on 200 KiB only those whose check is incremental (the others would
      // re-read the whole output after each of up to 51,200 pushes).
      if (!large || c.incremental) {
        const rate = new PrefixRate(asHtml(c.oneShot(text)));
        c.stream(chunks, (appended, current) => rate.step(appended, current));
        entry.prefix = rate.rate;
      }
      results.get(key(c, label)).streams[size] = entry;
    }
  }
  process.stderr.write(`${label} done after ${(ms(wallStart, now()) / 1e3).toFixed(0)} s\n`);
}

// ---- the table ------------------------------------------------------------------
const fmt = (x, digits) => x.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const cpu = cpus()[0]?.model ?? "unknown CPU";
console.log(
  `\nNode ${process.version}, ${cpu} (${cpus().length} cores), ${new Date().toISOString().slice(0, 10)}; ` +
    `medians of ${RUNS} interleaved runs (${RUNS_LARGE} at 200 KiB; 1 where a run takes > 2 s)\n`,
);
const head = ["contender", "document", "one-shot MB/s"];
for (const size of CHUNKS) head.push(`${size}-char: ms`, "× one-shot", "prefix");
console.log(`| ${head.join(" | ")} |`);
console.log(`| ${head.map((_, i) => (i < 2 ? "---" : "---:")).join(" | ")} |`);
for (const c of contenders) {
  for (const [label] of SIZES) {
    const r = results.get(key(c, label));
    const row = [c.name, `${label} (${fmt(r.bytes, 0)} B)`, fmt(r.bytes / 1e6 / (r.oneShot / 1e3), 1)];
    for (const size of CHUNKS) {
      const s = r.streams[size];
      const mark = s.extrapolated ? "~" : "";
      row.push(`${mark}${fmt(s.ms, s.ms < 100 ? 1 : 0)}`, `${mark}${fmt(s.ms / r.oneShot, 1)}`);
      row.push(Number.isNaN(s.prefix) ? "n/m" : `${fmt(100 * s.prefix, 1)}%`);
    }
    console.log(`| ${row.join(" | ")} |`);
  }
}
console.log(
  `\n~ extrapolated (t = a·n + b·n² from the 2 and 20 KiB medians): a run was estimated at more than ${LIMIT_S} s.` +
    `\nn/m: prefix rate not measured at 200 KiB for contenders whose output must be re-read whole after every push.` +
    `\ntotal runtime ${(ms(wallStart, now()) / 1e3).toFixed(0)} s`,
);
