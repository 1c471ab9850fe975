// Streaming in Chromium (docs/performance.md): the demo page streams a ~100 KB
// fenced code block, table and tight list in 4-character chunks; how long do
// the main thread's tasks get? Issue 20's target: no task over 50 ms.
//
//   make bench-browser                  (builds the package, installs what it needs)
//   node benches/browser/longtasks.mjs  (after make pkg and tests/browser's npm ci)
//
// Each case opens the demo page (www/, served as `make demo` serves it) in
// Debian's headless Chromium with the bench's driver (driver.js) in place of
// the demo's scripted conversation, and streams one answer, a sentence then
// one long block, through the demo's own MessageView: `pushDeferred` per chunk
// (citemark/dom appends what became final), the tail painted once per
// animation frame. Two pacings:
//
//   task   one chunk per task (MessageChannel), back to back: as many pushes
//          and frames as the main thread fits
//   frame  a model writing PER_FRAME chunks per 1/60 s, delivered in one task
//          per animation frame (every chunk due by then)
//
// Measured: tasks over 50 ms as the page sees them (PerformanceObserver
// 'longtask', the browser's own rendering tasks included); every task of the
// page's main thread in a Chromium trace (category toplevel), with its wall
// time and its CPU time: on a shared machine a task is stretched while the
// core runs something else, and its CPU time says how much was work;
// performance.now() around each push, each of the demo's frame callbacks
// (tail, index, sources list) and between animation frames. After `finish`
// the message's DOM must equal render()'s HTML parsed by the same browser,
// and the code block's textContent the code; otherwise the bench fails.
//
// Environment: RUNS (3; the table gives medians), SHAPES (code,table,list),
// PACINGS (task,frame), PER_FRAME (16), SIZE (100000 characters), CHUNK (4);
// DETAIL=1 prints each long task; TRACE=1 records the timeline too (layout,
// paint, script, GC: slower), says what the longest tasks spent their time
// on, and keeps the traces in target/bench-browser/ (DevTools: Performance,
// Load profile); CSS adds a stylesheet to the demo's, for experiments
// (CSS='.body pre { overflow: visible }').

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch, openPage } from "../../tests/browser/support/browser.mjs";
import { DEMO_MOUNTS, REPO, serveStatic } from "../../scripts/serve.mjs";

const DRIVER = path.join(path.dirname(fileURLToPath(import.meta.url)), "driver.js");
const TRACE_DIR = path.join(REPO, "target/bench-browser");

const env = (name, fallback) => process.env[name] || fallback;
const RUNS = Number(env("RUNS", "3"));
const SHAPES = env("SHAPES", "code,table,list").split(",");
const PACINGS = env("PACINGS", "task,frame").split(",");
const PER_FRAME = Number(env("PER_FRAME", "16"));
const SIZE = Number(env("SIZE", "100000"));
const CHUNK = Number(env("CHUNK", "4"));
const DETAIL = env("DETAIL", "") === "1";
const TRACE = env("TRACE", "") === "1";
const CSS = env("CSS", "");
const LONG_MS = 50;
/** What Chromium does to show a frame once the page's scripts have run (trace event names). */
const RENDERING = ["UpdateLayoutTree", "Layout", "PrePaint", "Paint", "Layerize"];
/** The steps whose CPU per laid-out frame TRACE prints by tenth of the run: rendering, then script (the demo's frame callbacks; the pushes' tasks). */
const STEPS = [...RENDERING, "FireAnimationFrame", "FunctionCall"];
const CATEGORIES = ["toplevel", "blink.user_timing", ...(TRACE ? ["devtools.timeline", "v8.gc"] : [])];

// ---- the shapes: deterministic, answer-like ---------------------------------

/** A xorshift32 generator seeded by `name`: the same text every run. */
function generator(name) {
  let x = 2166136261;
  for (const c of name) x = Math.imul(x ^ c.charCodeAt(0), 16777619) >>> 0;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
  return { int: (n) => next() % n, pick: (list) => list[next() % list.length] };
}

const WORDS = ["revenue", "region", "latency", "cohort", "rollout", "checkout", "churn", "pipeline", "forecast", "cache", "index", "quarter", "migration", "renewal", "tier", "ledger", "invoice", "shard", "backlog", "signal"];
const REGIONS = ["EMEA", "APAC", "DACH", "LATAM", "NA east", "NA west", "Nordics", "Benelux", "Iberia", "ANZ"];
const TYPES = ["f64", "u32", "usize", "String", "Vec<Row>", "Option<&str>", "HashMap<u32, f64>"];

/** One line of Rust-like code: indentation, strings, generics, `<`, `&`, comments, blank lines. */
function codeLine(g, i) {
  const w = g.pick(WORDS);
  const v = `${w}_${i}`;
  switch (g.int(9)) {
    case 0:
      return `    let ${v}: ${g.pick(TYPES)} = rows.iter().filter(|r| r.region == "${g.pick(REGIONS)}").map(|r| r.amount).sum();`;
    case 1:
      return `    if ${v} < limit && !seen.contains(&${i}) {`;
    case 2:
      return `        out.push(format!("{} -> {} ({}%)", ${w}, ${v}, ${g.int(100)})); // <${w}> & "${g.pick(WORDS)}"`;
    case 3:
      return "    }";
    case 4:
      return `    // ${g.pick(WORDS)} of the ${g.pick(WORDS)}: keep the ${g.pick(WORDS)} below ${g.int(1000)} ms — é ✓`;
    case 5:
      return `fn ${v}(input: &[${g.pick(TYPES)}], ctx: &mut Context<'_>) -> Result<${g.pick(TYPES)}, Error> {`;
    case 6:
      return "";
    case 7:
      return `        let ${w} = match ctx.get("${w}") { Some(x) => x * ${g.int(50)}, None => return Err(Error::Missing("${w}")) };`;
    default:
      return `    assert!(${v}.len() <= ${g.int(4096)}, "{} too long: {:?}", "${w}", ${v});`;
  }
}

/** Inline text as answers write it: words, some `**bold**` and `code`, a `[n]` marker (sources 1-3) in one of three. */
function phrase(g, words) {
  const out = [];
  for (let i = 0; i < words; i++) {
    const w = g.pick(WORDS);
    const r = g.int(20);
    out.push(r === 0 ? `**${w}**` : r === 1 ? `\`${w}()\`` : w);
  }
  if (g.int(3) === 0) out.push(`[${1 + g.int(3)}]`);
  return out.join(" ");
}

/** {markdown, code?, items?}: a sentence, then one block of at least `size` characters. */
function shape(name, size) {
  const g = generator(name);
  const lines = [];
  let length = 0;
  const add = (line) => {
    lines.push(line);
    length += line.length + 1;
  };
  if (name === "code") {
    for (let i = 0; length < size; i++) add(codeLine(g, i));
    const code = lines.join("\n") + "\n";
    return { markdown: `Here is the whole module, as asked [1]:\n\n\`\`\`rust\n${code}\`\`\`\n`, code };
  }
  if (name === "table") {
    for (let i = 1; length < size; i++) {
      add(`| ${i} | ${g.pick(REGIONS)} | Q${1 + g.int(4)} ${2020 + g.int(6)} | ${g.int(900)}.${g.int(10)} M | ${phrase(g, 3 + g.int(5))} |`);
    }
    const head = "| # | region | quarter | revenue | note |\n| ---: | --- | --- | ---: | --- |\n";
    return { markdown: `The figures by region, row by row [2]:\n\n${head}${lines.join("\n")}\n`, items: lines.length };
  }
  if (name === "list") {
    while (length < size) add(`- ${phrase(g, 5 + g.int(8))}`);
    return { markdown: `Every change in the release, one per line [3]:\n\n${lines.join("\n")}\n`, items: lines.length };
  }
  throw new Error(`unknown shape ${name} (SHAPES: code, table, list)`);
}

// ---- the machine ------------------------------------------------------------

/** The CPU as /proc/cpuinfo names it, and how many logical CPUs. */
function cpu() {
  try {
    const info = readFileSync("/proc/cpuinfo", "utf8");
    const model = info.match(/^model name\s*:\s*(.+)$/m)?.[1].trim() ?? "unknown CPU";
    const count = info.match(/^processor\s*:/gm)?.length ?? 0;
    return `${model}, ${count} logical CPU${count === 1 ? "" : "s"}`;
  } catch {
    return "unknown CPU (no /proc/cpuinfo)";
  }
}

/** The 1-minute load average (the machine is shared). */
function load() {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ")[0];
  } catch {
    return "?";
  }
}

function commit() {
  const git = (...args) => execFileSync("git", ["-C", REPO, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  try {
    const dirty = git("status", "--porcelain", "--", "src", "pkg/src", "www", "Cargo.toml", "Cargo.lock");
    return `${git("rev-parse", "--short", "HEAD")}${dirty ? " with uncommitted changes in src/, pkg/src/ or www/" : ""}`;
  } catch {
    return "unknown";
  }
}

// ---- the trace ----------------------------------------------------------------

/** Complete events nested in `task` (depth 1 only), summed by name: [[name, wall µs, CPU µs]], largest first. */
function children(task, events) {
  const sums = new Map();
  let end = -1;
  for (const e of events) {
    if (e === task || e.ts < task.ts || e.ts >= task.ts + task.dur || e.ts < end) continue;
    end = e.ts + e.dur;
    const sum = sums.get(e.name) ?? [e.name, 0, 0];
    sum[1] += e.dur;
    sum[2] += e.tdur ?? 0;
    sums.set(e.name, sum);
  }
  return [...sums.values()].sort((a, b) => b[1] - a[1]);
}

/**
 * The page's main-thread tasks between the bench's marks: their count, the
 * longest wall and CPU times, the tasks over 50 ms of wall and of CPU time;
 * with TRACE, what the longest tasks and the whole run spent their time on.
 */
function analyze(buffer) {
  const events = JSON.parse(buffer.toString("utf8")).traceEvents;
  const mark = (name) => events.find((e) => e.name === name && e.cat.includes("blink.user_timing"));
  const start = mark("bench-start");
  const end = mark("bench-end");
  const main = events
    .filter((e) => e.ph === "X" && e.pid === start.pid && e.tid === start.tid && e.ts >= start.ts && e.ts <= end.ts)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  // Top-level tasks only (a nested run loop's tasks are inside another). A
  // few events carry a thread time a little over their wall time: capped.
  const tasks = [];
  let until = -1;
  for (const e of main) {
    if (e.tdur > e.dur) e.tdur = e.dur;
    if (e.name !== "ThreadControllerImpl::RunTask" || e.ts < until) continue;
    tasks.push(e);
    until = e.ts + e.dur;
  }
  const ms = (us) => us / 1000;
  const result = {
    tasks: tasks.length,
    longestWall: ms(tasks.reduce((max, t) => Math.max(max, t.dur), 0)),
    longestCpu: ms(tasks.reduce((max, t) => Math.max(max, t.tdur ?? 0), 0)),
    overWall: tasks.filter((t) => t.dur > LONG_MS * 1000).length,
    overCpu: tasks.filter((t) => (t.tdur ?? 0) > LONG_MS * 1000).length,
    busyCpu: ms(tasks.reduce((sum, t) => sum + (t.tdur ?? 0), 0)),
  };
  if (TRACE) {
    const top = [...tasks].sort((a, b) => (b.tdur ?? 0) - (a.tdur ?? 0)).slice(0, 5);
    result.longest = top.map((t) => ({
      at: ms(t.ts - start.ts),
      wall: ms(t.dur),
      cpu: ms(t.tdur ?? 0),
      parts: children(t, main).slice(0, 6).map(([name, wall, cpu]) => [name, ms(wall), ms(cpu)]),
    }));
    // The whole run's CPU time by activity (every event directly inside a
    // task), and the rendering's CPU time per frame laid out in each tenth of
    // the run (with "frame" pacing, each tenth of the block).
    const sums = new Map();
    const tenths = Array.from({ length: 10 }, () => ({ cpu: 0, frames: 0, steps: new Map() }));
    let i = 0;
    for (const task of tasks) {
      while (i < main.length && main[i].ts < task.ts) i++;
      const inside = [];
      for (let j = i; j < main.length && main[j].ts < task.ts + task.dur; j++) inside.push(main[j]);
      const tenth = tenths[Math.min(9, Math.floor(((task.ts - start.ts) / (end.ts - start.ts)) * 10))];
      for (const [name, , cpu] of children(task, inside)) {
        sums.set(name, (sums.get(name) ?? 0) + cpu);
        if (RENDERING.includes(name)) tenth.cpu += cpu;
        if (STEPS.includes(name)) tenth.steps.set(name, (tenth.steps.get(name) ?? 0) + cpu);
        if (name === "Layout") tenth.frames++;
      }
    }
    result.activities = [...sums].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([name, cpu]) => [name, ms(cpu)]);
    result.frames = tenths.reduce((n, t) => n + t.frames, 0);
    result.tenths = tenths.map((t) => (t.frames ? ms(t.cpu / t.frames) : 0));
    result.steps = STEPS.map((name) => [name, tenths.map((t) => (t.frames ? ms((t.steps.get(name) ?? 0) / t.frames) : 0))]);
  }
  return result;
}

// ---- running ------------------------------------------------------------------

/**
 * Opens the demo as the browser tests do, then loads it again with the driver
 * in place of www/main.js, cross-origin isolated (COOP and COEP on the
 * document) so that performance.now() counts in 5 µs steps, not 100 µs.
 */
async function openBench(browser, origin) {
  const opened = await openPage(browser, origin, "/");
  const { page } = opened;
  await page.route(`${origin}/`, async (route) => {
    const response = await route.fetch();
    const isolation = { "cross-origin-opener-policy": "same-origin", "cross-origin-embedder-policy": "require-corp" };
    await route.fulfill({ response, headers: { ...response.headers(), ...isolation } });
  });
  await page.route(`${origin}/main.js`, (route) => route.fulfill({ path: DRIVER, contentType: "text/javascript; charset=utf-8" }));
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => document.documentElement.dataset.bench === "ready");
  if (CSS) await page.addStyleTag({ content: CSS });
  return opened;
}

async function runCase(browser, origin, name, input, pacing, run) {
  const { context, page, errors } = await openBench(browser, origin);
  try {
    const before = load();
    await browser.startTracing(page, { categories: CATEGORIES });
    const result = await page.evaluate(
      ({ input, chunk, pacing, perFrame }) => window.bench.run({ ...input, chunk, pacing, perFrame }),
      { input, chunk: CHUNK, pacing, perFrame: PER_FRAME },
    );
    const trace = await browser.stopTracing();
    if (TRACE) {
      mkdirSync(TRACE_DIR, { recursive: true });
      writeFileSync(path.join(TRACE_DIR, `${name}-${pacing}-${run}.json`), trace);
    }
    return { ...result, trace: analyze(trace), load: `${before}→${load()}`, errors: errors.slice() };
  } finally {
    await context.close();
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
/** A time in ms, or in µs under 1 ms. */
const time = (ms) => (ms < 1 ? `${Math.round(ms * 1000)} µs` : ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`);

const COLUMNS = [
  "shape",
  "pacing",
  "pushes",
  "tasks > 50 ms",
  "longest task (median / max)",
  "most CPU in a task (median / max)",
  "tasks > 50 ms of CPU",
  "push median",
  "push mean",
  "push p99",
  "frame callback p99",
  "frame interval median / p99",
  "total",
  "DOM = render",
];

/** One row: times are medians of the runs (and the longest, the maximum); counts are per run, separated by /. */
function row(name, pacing, runs) {
  const m = (get) => time(median(runs.map(get)));
  const perRun = (get) => runs.map(get).join(" / ");
  const ok = runs.every((r) => r.checks.html && r.checks.code !== false && r.checks.items !== false);
  return [
    name, pacing, String(runs[0].pushes.count),
    perRun((r) => r.longtasks.length),
    `${m((r) => r.trace.longestWall)} / ${time(Math.max(...runs.map((r) => r.trace.longestWall)))}`,
    `${m((r) => r.trace.longestCpu)} / ${time(Math.max(...runs.map((r) => r.trace.longestCpu)))}`,
    perRun((r) => r.trace.overCpu),
    // performance.now() counts in 5 µs steps here: a median of 0 is under 5 µs.
    runs.every((r) => r.pushes.median === 0) ? "< 5 µs" : m((r) => r.pushes.median),
    m((r) => r.pushes.mean),
    m((r) => r.pushes.p99),
    m((r) => r.callbacks.p99),
    `${m((r) => r.frames.median)} / ${m((r) => r.frames.p99)}`,
    `${(median(runs.map((r) => r.total)) / 1000).toFixed(1)} s`,
    ok ? "yes" : "NO",
  ];
}

function table(rows) {
  return [
    `| ${COLUMNS.join(" | ")} |`,
    `|${COLUMNS.map((_, i) => (i < 2 ? ":--" : "--:")).join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");
}

/** The progress line of one run (stderr), with DETAIL and TRACE's findings. */
function progress(r, label, problems) {
  const t = r.trace;
  const lines = [
    `${label}: ${r.longtasks.length} tasks > ${LONG_MS} ms; trace: ${t.tasks} tasks, longest ${time(t.longestWall)} ` +
      `(most CPU in one: ${time(t.longestCpu)}), ${t.overWall} over ${LONG_MS} ms of wall time, ${t.overCpu} of CPU time; ` +
      `push p99 ${time(r.pushes.p99)}; total ${(r.total / 1000).toFixed(1)} s, main thread CPU ${(t.busyCpu / 1000).toFixed(1)} s; load ${r.load}`,
  ];
  if (DETAIL) {
    for (const task of r.longtasks) lines.push(`  long task at ${(task.start / 1000).toFixed(2)} s: ${time(task.duration)}`);
    lines.push(
      `  push mean ${time(r.pushes.mean)}, max ${time(r.pushes.max)}; host tasks median ${time(r.tasks.median)}, max ${time(r.tasks.max)}; ` +
        `frame callbacks ${r.callbacks.count}, median ${time(r.callbacks.median)}, max ${time(r.callbacks.max)}; ` +
        `finish ${time(r.finish)}; cross-origin isolated: ${r.isolated}`,
    );
  }
  if (t.longest) {
    lines.push(`  main thread CPU by activity (${t.frames} frames laid out): ${t.activities.map(([n, cpu]) => `${n} ${(cpu / 1000).toFixed(2)} s`).join(", ")}`);
    lines.push(`  rendering (${RENDERING.join(", ")}) CPU per frame laid out, by tenth of the run: ${t.tenths.map(time).join(", ")}`);
    for (const [name, tenths] of t.steps) lines.push(`    ${name}: ${tenths.map(time).join(", ")}`);
    for (const task of t.longest) {
      const parts = task.parts.map(([n, wall, cpu]) => `${n} ${time(wall)} (CPU ${time(cpu)})`).join(", ");
      lines.push(`  task at ${(task.at / 1000).toFixed(2)} s: ${time(task.wall)}, CPU ${time(task.cpu)}: ${parts}`);
    }
  }
  for (const problem of problems) lines.push(`  FAILED: ${problem}`);
  return lines.join("\n");
}

async function main() {
  for (const entry of ["pkg/dist/default/citemark.js", "pkg/dist/default/citemark.wasm.js"]) {
    if (!existsSync(path.join(REPO, entry))) throw new Error(`${entry} is missing: run \`make pkg\` (make bench-browser does)`);
  }
  const inputs = Object.fromEntries(SHAPES.map((name) => [name, shape(name, SIZE)]));
  const server = await serveStatic(DEMO_MOUNTS);
  const browser = await launch();
  const results = new Map();
  let failed = false;
  try {
    console.log(`Streaming in Chromium, ${new Date().toISOString().slice(0, 10)}: ${cpu()}; Chromium ${browser.version()}; commit ${commit()}`);
    if (CSS) console.log(`With a stylesheet added to the demo's: ${CSS}`);
    console.log(
      `${CHUNK}-character chunks; pacing "task": one push per task, "frame": ${PER_FRAME} pushes per 1/60 s; ` +
        Object.entries(inputs).map(([name, i]) => `${name}: ${i.markdown.length} characters`).join(", "),
    );
    // Interleaved (run 1 of every case, then run 2...), so that a busy minute
    // on a shared machine spreads over the cases instead of hitting one.
    for (let run = 1; run <= RUNS; run++) {
      for (const name of SHAPES) {
        for (const pacing of PACINGS) {
          const r = await runCase(browser, server.origin, name, inputs[name], pacing, run);
          const key = `${name} ${pacing}`;
          results.set(key, [...(results.get(key) ?? []), r]);
          const problems = [];
          if (!r.checks.html) problems.push(`the DOM differs from render(): ${JSON.stringify(r.checks.firstDifference)}`);
          if (r.checks.code === false) problems.push("the code block's textContent differs from the code");
          if (r.checks.items === false) problems.push("the number of rows or items differs");
          if (r.errors.length) problems.push(`page errors: ${r.errors.join("; ")}`);
          failed ||= problems.length > 0;
          console.error(progress(r, `run ${run}/${RUNS} ${key}`, problems));
        }
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  console.log();
  console.log(`Times: medians of ${RUNS} run${RUNS === 1 ? "" : "s"}; counts: each run's, separated by /.`);
  console.log();
  console.log(table([...results].map(([key, runs]) => row(...key.split(" "), runs))));
  console.log();
  console.log(`Target: no task over ${LONG_MS} ms.`);
  for (const name of SHAPES) {
    const runs = PACINGS.flatMap((pacing) => results.get(`${name} ${pacing}`) ?? []);
    const long = runs.reduce((n, r) => n + r.longtasks.length, 0);
    const longest = Math.max(...runs.map((r) => r.trace.longestWall));
    const cpu = Math.max(...runs.map((r) => r.trace.longestCpu));
    const overCpu = runs.reduce((n, r) => n + r.trace.overCpu, 0);
    console.log(
      `- ${name}: ${long === 0 ? "holds" : "does NOT hold"} in ${runs.length} run${runs.length === 1 ? "" : "s"}: ${long} tasks over ${LONG_MS} ms, ` +
        `the longest ${time(longest)}; ${overCpu} over ${LONG_MS} ms of CPU time, the most ${time(cpu)}.`,
    );
  }
  if (failed) {
    console.error("bench-browser: a check failed (see above)");
    process.exitCode = 1;
  }
}

await main();
