// Two builds of the npm package side by side in one Node process (an A/B of a
// change): each shape of benches/support/shapes.rs streamed the way
// `changes` streams in shapes.mjs (`pushDeferred` + `tailChange()` every 4
// characters), over one render, interleaved runs, medians. Checks first
// that both streams equal their render.
//
//   OLD=/path/to/old/node_modules/citemark NEW=/path/to/new/node_modules/citemark \
//     node benches/node/ab.mjs
//
// (A package dir as `npm pack` + `npm install` leave it: `make
// bench-node-install` puts the current one in benches/node/node_modules.)
// Environment: SHAPES (default: all; a `file:PATH` among them streams that
// document as it is, a chat answer or a README), KIB (default 256), RUNS
// (default 5), STREAM_COST (the example's path).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { StringHost, chunked, shapeText } from "./host.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..", "..");
const STREAM_COST = process.env.STREAM_COST ?? join(repo, "target", "release", "examples", "stream_cost");
if (!process.env.OLD || !process.env.NEW) throw new Error("set OLD and NEW to two installed citemark package dirs");
const old = await import(join(resolve(process.env.OLD), "src", "index.js"));
const neu = await import(join(resolve(process.env.NEW), "src", "index.js"));
await old.ready;
await neu.ready;
const ALL = execFileSync(STREAM_COST, ["names", "0", "0"]).toString().trim().split("\n");
const SHAPES = (process.env.SHAPES ?? ALL.join(",")).split(",");
const KIB = Number(process.env.KIB ?? 256);
const RUNS = Number(process.env.RUNS ?? 5);
const sourcesFile = JSON.parse(readFileSync(join(repo, "examples", "sources.json"), "utf8"));
const options = { sources: Array.isArray(sourcesFile) ? sourcesFile : sourcesFile.sources };

function stream(api, chunks) {
  const s = api.createStream(options);
  const host = new StringHost();
  for (const chunk of chunks) {
    host.apply(s.pushDeferred(chunk));
    s.tailChange();
  }
  host.apply(s.finish());
  s.free();
  return host.html;
}

/** One render's time, in batches of at least 100 ms. */
function oneShot(api, text) {
  const start = performance.now();
  let n = 0;
  do {
    api.render(text, options);
    n += 1;
  } while (performance.now() - start < 100);
  return (performance.now() - start) / n;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(`Node ${process.version}, ${cpus()[0].model}; ${KIB} KiB, 4-character chunks, medians of ${RUNS} interleaved runs`);
console.log("| shape | one render, old / new | stream ÷ one render, old | new |\n|:--|--:|--:|--:|");
for (const name of SHAPES) {
  const text = name.startsWith("file:") ? readFileSync(name.slice(5), "utf8") : shapeText(STREAM_COST, name, KIB * 1024);
  const chunks = chunked(text, 4);
  for (const api of [old, neu]) {
    if (stream(api, chunks) !== api.render(text, options).html) throw new Error(`${name}: a stream differs from its render`);
  }
  const runs = { old: [], neu: [], oneOld: [], oneNew: [] };
  for (let i = 0; i < RUNS; i++) {
    runs.oneOld.push(oneShot(old, text));
    runs.oneNew.push(oneShot(neu, text));
    let start = performance.now();
    stream(old, chunks);
    runs.old.push(performance.now() - start);
    start = performance.now();
    stream(neu, chunks);
    runs.neu.push(performance.now() - start);
  }
  // (Both streams over the one render of both builds: the change is the streams'.)
  const one = median([...runs.oneOld, ...runs.oneNew]);
  console.log(
    `| ${name} | ${median(runs.oneOld).toFixed(2)} / ${median(runs.oneNew).toFixed(2)} ms | ${(median(runs.old) / one).toFixed(1)}x | ${(median(runs.neu) / one).toFixed(1)}x |`,
  );
}
