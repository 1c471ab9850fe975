// citemark's npm package (WASM) against other JavaScript markdown renderers,
// one-shot and streamed, in one Node process on the same documents and
// chunkings (`make bench-node`; docs/performance.md: "In Node: against other
// JavaScript renderers").
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
// Then the shapes citemark's streaming core commits line by line inside
// their open element (docs/streaming.md), each as an answer: an intro
// paragraph, the shape, a closing paragraph. The shape is the one
// benches/support/shapes.rs generates (the same xorshift, ported below, so
// the same text): one long fenced code block (4, 20 and 100 KiB), one table
// and one tight list (4, 16 and 64 KiB). Chunks of 4 characters, the tail
// after every push (citemark: `createStream().push`, the patches applied as
// `StreamedHtml` does, rewinds included). Per contender: the stream's time,
// its ratio to the contender's own one-shot render and to citemark's, and the
// characters handed to the host (citemark: every append plus the whole tail
// after every push; re-render contenders: their whole render after every
// push; incremark + HTML: completed blocks once plus the pending blocks after
// every push) over the final HTML's length. streaming-markdown writes DOM
// nodes, so it has no such count. citemark's stream is checked against its
// render (byte for byte) and its rewinds counted. The realistic answer's
// row in that table is the 4-character column of the table above.
// A contender whose run at a workload's last size is estimated
// (quadratically, from the size before) to take more than SHAPES_LIMIT_S is
// extrapolated there with t = a·n + b·n² from the two sizes before, marked
// "~" (LIMIT_S applies at the sizes before).
//
// Environment: RUNS (default 5), RUNS_LARGE (default 3), LIMIT_S (default 20),
// SHAPES_LIMIT_S (default 5), WORKLOADS (default answer,code,table,list: which
// workloads run; `answer` is the first table).
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

import { StringHost, chunked } from "./host.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..", "..");
const RUNS = Number(process.env.RUNS ?? 5);
const RUNS_LARGE = Number(process.env.RUNS_LARGE ?? 3);
const LIMIT_S = Number(process.env.LIMIT_S ?? 20);
const SHAPES_LIMIT_S = Number(process.env.SHAPES_LIMIT_S ?? 5);
const WORKLOADS = new Set((process.env.WORKLOADS ?? "answer,code,table,list").split(",").map((w) => w.trim()));
/** [workload, shape in benches/support/shapes.rs, what it is, sizes in KiB]. */
const SHAPES = [
  ["code", "fenced-code", "one long fenced code block", [4, 20, 100]],
  ["table", "table", "one long table", [4, 16, 64]],
  ["list", "tight-list", "one long tight list", [4, 16, 64]],
].filter(([workload]) => WORKLOADS.has(workload));
const SHAPE_CHUNK = 4;
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

// ---- the shapes of benches/support/shapes.rs, ported -------------------------------
// The same word lists and xorshift (seeded by FNV-1a of the shape's name), so
// `shape(name, size)` is the Rust `shape(name, size)`, byte for byte.
const NOUNS = "revenue conversion latency rollout checkout churn pipeline forecast cohort region quarter migration index cache request budget renewal contract dashboard query funnel margin backlog release schema replica invoice customer segment baseline threshold incident trial account workload deployment estimate survey metric sample".split(" ");
const VERBS = "fell rose shifted stalled recovered doubled slipped improved dropped grew lagged spiked settled narrowed widened held".split(" ");
const ADJECTIVES = "quarterly regional median self-serve enterprise weekly nightly largest smaller constant-currency cold warm stale new legacy annual".split(" ");
const ADVERBS = "sharply slightly steadily briefly mostly again unexpectedly overall".split(" ");
const CONNECTIVES = "after because while although once since before until".split(" ");
const PLACES = ["in EMEA", "in DACH", "in the Nordics", "across APAC", "in North America", "on mobile", "for new accounts", "in the US-East cluster", "during the pilot", "after the freeze"];
const CODE = ["VAT_ID", "retry_after", "p95_ms", "max_connections", "region_id", "fx_rate", "checkout_v2", "SELECT", "--dry-run", "Cargo.toml", "trial_days", "cache_hit"];
const M64 = (1n << 64n) - 1n;

class Gen {
  constructor(seed) {
    let state = 0xcbf29ce484222325n;
    for (const byte of Buffer.from(seed)) state = ((state ^ BigInt(byte)) * 0x100000001b3n) & M64;
    this.state = state | 1n;
  }
  next() {
    this.state ^= (this.state << 13n) & M64;
    this.state ^= this.state >> 7n;
    this.state ^= (this.state << 17n) & M64;
    return this.state;
  }
  below(n) {
    return Number(this.next() % BigInt(n));
  }
  chance(percent) {
    return this.below(100) < percent;
  }
  pick(words) {
    return words[this.below(words.length)];
  }
  number() {
    switch (this.below(4)) {
      case 0: {
        const a = this.below(30);
        return `${a}.${this.below(10)}%`;
      }
      case 1:
        return `€${10 + this.below(900)}k`;
      case 2:
        return `${5 + this.below(400)} ms`;
      default:
        return `${2 + this.below(5000)}`;
    }
  }
  phrase() {
    const adjective = this.pick(ADJECTIVES);
    const phrase = `${adjective} ${this.pick(NOUNS)}`;
    switch (this.below(10)) {
      case 0:
        return `**${phrase}**`;
      case 1:
        return `\`${this.pick(CODE)}\``;
      default:
        return phrase;
    }
  }
  clause() {
    let out = "the " + this.phrase() + " " + this.pick(VERBS);
    if (this.chance(40)) out += " " + this.pick(ADVERBS);
    if (this.chance(50)) out += " " + this.pick(PLACES);
    if (this.chance(35)) out += " to **" + this.number() + "**";
    return out;
  }
  sentence() {
    let out = this.clause();
    if (this.chance(45)) out += " " + this.pick(CONNECTIVES) + " " + this.clause();
    out = "T" + out.slice(1);
    if (this.chance(25)) out += ` [${1 + this.below(5)}]`;
    return out + ".";
  }
  codeLine(indent) {
    const noun = this.pick(NOUNS).replace(/-/g, "_");
    const other = this.pick(NOUNS).replace(/-/g, "_");
    const cap = (w) => w[0].toUpperCase() + w.slice(1);
    let line;
    switch (this.below(8)) {
      case 0:
        line = `let ${noun} = ${other}.iter().map(|x| x * ${this.below(100)}).sum::<u64>();`;
        break;
      case 1:
        line = `if ${noun}.len() > ${this.below(4096)} && !${other}.is_empty() { return Err(Error::${cap(other)}); }`;
        break;
      case 2: {
        const adjective = this.pick(ADJECTIVES);
        line = `// ${adjective} [${1 + this.below(5)}]: keep the ${noun} ${other} stable`;
        break;
      }
      case 3: {
        const code = this.pick(CODE);
        line = `${noun}.insert("${code}".to_owned(), ${other}.get(${this.below(64)}).copied().unwrap_or_default());`;
        break;
      }
      case 4:
        line = `let ${noun}_ms = started.elapsed().as_millis() as f64 / ${1 + this.below(9)}.0;`;
        break;
      case 5: {
        const verb = this.pick(VERBS);
        line = `println!("{} ${verb} <${this.pick(CODE)}> {:?}", ${noun}, ${other});`;
        break;
      }
      case 6:
        line = `match ${noun} { Some(v) if v > ${this.below(500)} => v, _ => ${other}_default() };`;
        break;
      default:
        line = `fn ${noun}_${this.pick(VERBS)}(&self, ${other}: &[u8]) -> Option<usize> { ${other}.iter().position(|&b| b == b'*') }`;
    }
    return "    ".repeat(indent) + line + "\n";
  }
}

/** benches/support/shapes.rs's `shape(name, size)` for the shapes used here. */
function shape(name, size) {
  const g = new Gen(name);
  let text = "";
  let bytes = 0;
  const push = (s) => {
    text += s;
    bytes += Buffer.byteLength(s);
  };
  if (name === "fenced-code") {
    push("```rust\n");
    let depth = 0;
    while (bytes + 4 < size) {
      push(g.codeLine(depth));
      depth = Math.min(Math.max(depth + g.below(3) - 1, 0), 3);
    }
    push("```\n");
  } else if (name === "table") {
    push("| Driver | Impact | Share | Evidence |\n|:-------|-------:|------:|:---------|\n");
    while (bytes < size) {
      let row = "| " + g.phrase() + " " + g.pick(VERBS);
      if (g.chance(30)) row += " " + g.pick(PLACES);
      const impact = g.number();
      row += ` | −${impact} | ${g.below(100)}% | `;
      switch (g.below(4)) {
        case 0:
          row += `[${1 + g.below(5)}]`;
          break;
        case 1: {
          const a = 1 + g.below(5);
          row += `[${a}][${1 + g.below(5)}]`;
          break;
        }
        case 2:
          row += `\`${g.pick(CODE)}\``;
          break;
        default: {
          const adjective = g.pick(ADJECTIVES);
          row += `${adjective} ${g.pick(NOUNS)}`;
        }
      }
      push(row + " |\n");
    }
  } else if (name === "tight-list") {
    while (bytes < size) push("- " + g.sentence() + "\n");
  } else throw new Error(`no shape ${name}`);
  return text;
}

/** The shape as an answer: a paragraph before it and one after (their own seed). */
function shapeAnswer(name, size) {
  const g = new Gen(`${name}-answer`);
  const intro = `${g.sentence()} ${g.sentence()} Here it is:\n\n`;
  const outro = `\n${g.sentence()} ${g.sentence()}\n`;
  return intro + shape(name, size) + outro;
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
    this.marked = { done: "", doneOk: true };
  }
  /** `patch`: citemark's patch, whose `rewind` and `mark` apply before `appended`. */
  step(appended, current, patch) {
    if (patch?.rewind) ({ done: this.done, doneOk: this.doneOk } = this.marked);
    if (patch?.mark) this.marked = { done: this.done, doneOk: this.doneOk };
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
// Characters handed to the host while streaming, where that means something
// (`handed: true`): every contender adds to it in its loop, timed or not (the
// cost is one addition per push).
let handed = 0;

let lastHost = null;

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
    handed: true,
    oneShot,
    stream(chunks, step) {
      let text = "";
      let html = "";
      for (const chunk of chunks) {
        text += chunk;
        html = oneShot(text);
        handed += html.length;
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
    handed: withHtml,
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
          handed += appended.length + current.length;
          if (step) step(appended, current);
        }
      }
      const last = parser.finalize();
      if (withHtml || step) {
        const appended = blocksHtml(last.completed);
        done += appended;
        handed += appended.length;
      }
      return done;
    },
  };
}

/**
 * A citemark contender: `pusher(stream, showing)` makes the function that
 * pushes one chunk to `stream`, counts what it hands over beside the patch's
 * `append` and returns the patch and, when `showing` (the prefix-rate runs),
 * the tail the reader sees after it. The patches are applied as StreamedHtml
 * does.
 */
function citemark(name, pusher) {
  return {
    name,
    incremental: true,
    handed: true,
    oneShot: (text) => citemarkRender(text, citemarkOptions).html,
    stream(chunks, step) {
      const stream = createStream(citemarkOptions);
      const host = new StringHost();
      const push = pusher(stream, Boolean(step));
      for (const chunk of chunks) {
        const { patch, tail } = push(chunk);
        host.apply(patch);
        handed += patch.append.length;
        if (step) step(patch.append, tail, patch);
      }
      const last = stream.finish();
      host.apply(last);
      handed += last.append.length;
      stream.free();
      lastHost = host;
      return host.html;
    },
  };
}

const contenders = [
  citemark("citemark push (tail every push)", (stream) => (chunk) => {
    const patch = stream.push(chunk);
    handed += patch.tail.length;
    return { patch, tail: patch.tail };
  }),
  // The tail handed over as its change (what citemark/dom applies): a DOM host
  // inserts it where it goes, so the tail is built as a string here only for
  // the prefix rate (untimed runs).
  citemark("citemark pushDeferred + tailChange() every push", (stream, showing) => {
    let tail = "";
    return (chunk) => {
      const patch = stream.pushDeferred(chunk);
      const change = stream.tailChange();
      if (change) handed += ("insert" in change ? change.insert : change.replace).length;
      if (showing) {
        if (patch.append || patch.rewind || patch.mark || patch.empty !== undefined) tail = "";
        if (change && "replace" in change) tail = change.replace;
        else if (change) tail = tail.slice(0, tail.length - change.before) + change.insert + tail.slice(tail.length - change.before);
      }
      return { patch, tail };
    };
  }),
  citemark(`citemark pushDeferred + tail() per ${FRAME} chars`, (stream) => {
    let since = 0;
    let tail = "";
    return (chunk) => {
      const patch = stream.pushDeferred(chunk);
      // What the reader sees: the appends at once, and the tail as last
      // painted, dropped when what it showed is appended (until the next frame).
      if (patch.append || patch.rewind) tail = "";
      since += chunk.length;
      if (since >= FRAME) {
        tail = stream.tail();
        handed += tail.length;
        since = 0;
      }
      return { patch, tail };
    };
  }),
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
/** Column heads for the shapes' tables. */
const SHORT = new Map([
  [contenders[0].name, "citemark push"],
  [contenders[1].name, "citemark changes"],
  [contenders[2].name, `citemark per ${FRAME}`],
  [contenders[3].name, "incremark (mdast)"],
  [contenders[4].name, "incremark + HTML"],
  [contenders[5].name, "streaming-markdown"],
  [contenders[6].name, "remend + marked"],
  [contenders[7].name, "marked"],
  [contenders[8].name, "markdown-it"],
  [contenders[9].name, "markdown-wasm"],
]);
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

/** ms of one stream run; what it handed to the host goes to `lastHanded`. */
let lastHanded = 0;
function timeStream(c, chunks) {
  handed = 0;
  const start = now();
  c.stream(chunks);
  const t = ms(start, now());
  lastHanded = handed;
  return t;
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

for (const [label, target] of WORKLOADS.has("answer") ? SIZES : []) {
  const text = corpus(target);
  const bytes = Buffer.byteLength(text);
  const large = target > 100 * 1024;
  const runs = large ? RUNS_LARGE : RUNS;
  for (const c of contenders) {
    const htmlLength = asHtml(c.oneShot(text)).length;
    results.set(key(c, label), { bytes, htmlLength, oneShot: 0, streams: {} });
  }

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
    const handedBy = new Map();
    for (let r = 0; r < runs; r++) {
      for (const c of running) {
        // A run of more than 2 s is measured once (the quadratic contenders).
        if (r > 0 && times.get(c.name)[0] > 2000) continue;
        times.get(c.name).push(timeStream(c, chunks));
        if (r === 0) handedBy.set(c.name, lastHanded);
      }
    }
    for (const c of contenders) {
      const entry = { ms: NaN, extrapolated: false, prefix: NaN, handed: NaN };
      if (times.has(c.name)) {
        entry.ms = median(times.get(c.name));
        if (c.handed) entry.handed = handedBy.get(c.name);
      }
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
        c.stream(chunks, (appended, current, patch) => rate.step(appended, current, patch));
        entry.prefix = rate.rate;
      }
      results.get(key(c, label)).streams[size] = entry;
    }
  }
  process.stderr.write(`${label} done after ${(ms(wallStart, now()) / 1e3).toFixed(0)} s\n`);
}


// ---- shapes: one long code block, table, list -------------------------------------
// Per workload and size: the rows of the shapes' tables (the answer's come
// from `results` above, at 4 characters).
const shapeRows = []; // { workload, what, label, bytes, cells: Map(name -> { ms, extrapolated, oneShot, handed, htmlLength }) }
const shapeChecks = []; // { workload, label, same, rewinds } per citemark contender
for (const [workload, name, what, sizes] of SHAPES) {
  const history = new Map(contenders.map((c) => [c.name, []])); // { bytes, ms } per size so far
  for (const kib of sizes) {
    const text = shapeAnswer(name, kib * 1024);
    const bytes = Buffer.byteLength(text);
    const label = `${kib} KiB`;
    const chunks = chunked(text, SHAPE_CHUNK);
    const cells = new Map();

    const once = new Map(contenders.map((c) => [c.name, []]));
    for (let r = 0; r < RUNS; r++) for (const c of contenders) once.get(c.name).push(timeOneShot(c, text));

    // Which contenders run here: those whose run is estimated, quadratically
    // from the size before, at SHAPES_LIMIT_S or less (LIMIT_S at the sizes
    // before the last, so that an extrapolation has two measured sizes).
    const limit = kib === sizes[sizes.length - 1] ? SHAPES_LIMIT_S : LIMIT_S;
    const running = contenders.filter((c) => {
      const h = history.get(c.name);
      if (!h.length) return true;
      const prev = h[h.length - 1];
      return (prev.ms * (bytes / prev.bytes) ** 2) / 1e3 <= limit;
    });
    const times = new Map(running.map((c) => [c.name, []]));
    const handedBy = new Map();
    for (let r = 0; r < RUNS; r++) {
      for (const c of running) {
        if (r > 0 && times.get(c.name)[0] > 2000) continue;
        times.get(c.name).push(timeStream(c, chunks));
        if (r === 0) handedBy.set(c.name, lastHanded);
      }
    }
    for (const c of contenders) {
      const h = history.get(c.name);
      const cell = {
        ms: NaN,
        extrapolated: false,
        oneShot: median(once.get(c.name)),
        handed: NaN,
        htmlLength: asHtml(c.oneShot(text)).length,
      };
      if (times.has(c.name)) {
        cell.ms = median(times.get(c.name));
        if (c.handed) cell.handed = handedBy.get(c.name);
      } else {
        // t = a·n + b·n² through the two sizes before (b·n² alone after one).
        cell.extrapolated = true;
        const [p1, p2] = h.length >= 2 ? h.slice(-2) : [null, h[0]];
        if (p1) {
          const b = (p2.ms / p2.bytes - p1.ms / p1.bytes) / (p2.bytes - p1.bytes);
          const a = p1.ms / p1.bytes - b * p1.bytes;
          cell.ms = a * bytes + b * bytes * bytes;
        } else cell.ms = p2.ms * (bytes / p2.bytes) ** 2;
      }
      h.push({ bytes, ms: cell.ms });
      cells.set(c.name, cell);
    }

    // citemark's streams, applied as StreamedHtml does, against its render (untimed).
    const expected = contenders[0].oneShot(text);
    for (const c of contenders.slice(0, 3)) {
      const got = c.stream(chunks);
      shapeChecks.push({ workload, label, contender: c.name, same: got === expected, rewinds: lastHost.rewinds });
    }
    shapeRows.push({ workload, what, label, bytes, cells });
    process.stderr.write(`${workload} ${label} done after ${(ms(wallStart, now()) / 1e3).toFixed(0)} s\n`);
  }
}

// ---- the tables -----------------------------------------------------------------
const fmt = (x, digits) => x.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const cpu = cpus()[0]?.model ?? "unknown CPU";
console.log(
  `\nNode ${process.version}, ${cpu} (${cpus().length} cores), ${new Date().toISOString().slice(0, 10)}; ` +
    `medians of ${RUNS} interleaved runs (${RUNS_LARGE} at 200 KiB; 1 where a run takes > 2 s)\n`,
);
if (WORKLOADS.has("answer")) {
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
    `\nn/m: prefix rate not measured at 200 KiB for contenders whose output must be re-read whole after every push.`,
);
}

// The shapes, with the answer (4-character column of the table above) first.
const allRows = [];
if (WORKLOADS.has("answer")) {
  for (const [label] of SIZES) {
    const cells = new Map();
    for (const c of contenders) {
      const r = results.get(key(c, label));
      const s = r.streams[SHAPE_CHUNK];
      cells.set(c.name, { ms: s.ms, extrapolated: s.extrapolated, oneShot: r.oneShot, handed: s.handed, htmlLength: r.htmlLength });
    }
    allRows.push({ workload: "answer", what: "examples/answer.md repeated", label, bytes: results.get(key(contenders[0], label)).bytes, cells });
  }
}
allRows.push(...shapeRows);
if (shapeRows.length) {
  const names = contenders.map((c) => c.name);
  const cmOnce = (row) => row.cells.get(contenders[0].name).oneShot;
  const table = (title, value, which = names, stream = true) => {
    const cell = (row, name) => {
      const x = row.cells.get(name);
      const v = value(x, row);
      return Number.isNaN(v) ? "—" : `${stream && x.extrapolated ? "~" : ""}${fmt(v, v < 10 ? 2 : v < 1000 ? 1 : 0)}`;
    };
    console.log(`\n${title}\n`);
    const head = ["workload", "size", ...which.map((n) => SHORT.get(n))];
    console.log(`| ${head.join(" | ")} |`);
    console.log(`| ${head.map((_, i) => (i < 2 ? "---" : "---:")).join(" | ")} |`);
    for (const row of allRows) {
      const cells = which.map((n) => cell(row, n));
      console.log(`| ${row.workload} | ${row.label} (${fmt(row.bytes, 0)} B) | ${cells.join(" | ")} |`);
    }
  };
  console.log(
    `\nStreaming by shape, ${SHAPE_CHUNK}-character chunks, the tail after every push. ` +
      `Workloads: ${["answer: examples/answer.md repeated (the table above)", ...SHAPES.map(([w, , what]) => `${w}: ${what} between two paragraphs`)].join("; ")}. ` +
      `Medians of ${RUNS} interleaved runs (1 where a run takes > 2 s).`,
  );
  table("Stream time ÷ the same renderer's one-shot render", (x) => x.ms / x.oneShot);
  table("Stream time ÷ citemark's one-shot render", (x, row) => x.ms / cmOnce(row));
  table("One-shot render, ms", (x) => x.oneShot, names, false);
  table("Stream, ms", (x) => x.ms);
  table(
    "Characters handed to the host ÷ the final HTML's length (— where not meaningful or not measured)",
    (x) => x.handed / x.htmlLength,
    names.filter((n) => contenders.find((c) => c.name === n).handed),
  );
  // citemark's growth: its ratios at the largest size over the size before.
  console.log("\ncitemark push, growth from one size to the next (stream ÷ one-shot; handed ÷ HTML):");
  for (const [workload, , , sizes] of SHAPES) {
    const rows = shapeRows.filter((r) => r.workload === workload);
    const parts = [];
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1].cells.get(contenders[0].name), rows[i].cells.get(contenders[0].name)];
      parts.push(
        `${rows[i - 1].label} → ${rows[i].label}: time ratio ${fmt(a.ms / a.oneShot, 2)} → ${fmt(b.ms / b.oneShot, 2)}, ` +
          `handed ratio ${fmt(a.handed / a.htmlLength, 2)} → ${fmt(b.handed / b.htmlLength, 2)}, ` +
          `stream ms ×${fmt(b.ms / a.ms, 1)} for input ×${fmt(rows[i].bytes / rows[i - 1].bytes, 1)}`,
      );
    }
    console.log(`- ${workload}: ${parts.join("; ")}`);
  }
  console.log("\ncitemark's streams (patches applied with rewinds, as StreamedHtml does) against its render:");
  for (const check of shapeChecks) {
    console.log(
      `- ${check.workload} ${check.label}, ${SHORT.get(check.contender)}: ${check.same ? "equal" : "DIFFERENT"}, ${check.rewinds} rewind(s)`,
    );
  }
  console.log(`\n~ extrapolated (t = a·n + b·n² from the two sizes before): a run was estimated at more than ${SHAPES_LIMIT_S} s.`);
}
console.log(`\ntotal runtime ${(ms(wallStart, now()) / 1e3).toFixed(0)} s`);
