// The bench's driver, served in place of the demo's own /main.js by
// benches/browser/longtasks.mjs. The page is the demo's (www/index.html: its
// import map, stylesheet and layout) and so is the streaming code
// (www/message.js: `pushDeferred` per chunk through citemark/dom, the tail
// painted once per animation frame along with the hydration and the
// "Grounded in N sources" list); only the scripted conversation is replaced,
// by `window.bench.run()`, which streams a given markdown as one answer and
// measures it. Imports are absolute because this file is served as /main.js.

import { render } from "citemark";
import { SOURCES_URL, renderOptions } from "/conversation.js";
import { el } from "/dom.js";
import { MessageView, messageArticle } from "/message.js";

const FRAME_MS = 1000 / 60;
const MODE = "link";
const { sources } = await (await fetch(SOURCES_URL)).json();

// The demo paints in requestAnimationFrame callbacks: each one is timed.
// The bench's own frame loop calls the browser's function directly.
const raf = window.requestAnimationFrame.bind(window);
let callbacks = null;
window.requestAnimationFrame = (callback) =>
  raf((time) => {
    const start = performance.now();
    callback(time);
    callbacks?.push(performance.now() - start);
  });

// A task of its own per call (setTimeout(0) is clamped to 4 ms when nested).
const channel = new MessageChannel();
const waiting = [];
channel.port1.onmessage = () => waiting.shift()();
const nextTask = () =>
  new Promise((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(0);
  });
const nextFrame = () => new Promise((resolve) => raf(resolve));

/** {count, mean, median, p99, max} of `values` (ms). */
function stats(values) {
  const sorted = Float64Array.from(values).sort();
  const at = (q) => (sorted.length ? sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] : 0);
  const mean = sorted.length ? sorted.reduce((sum, x) => sum + x, 0) / sorted.length : 0;
  return { count: sorted.length, mean, median: at(0.5), p99: at(0.99), max: at(1) };
}

/** A new assistant message in #chat, made as the demo's addTurn makes one; its MessageView. */
function message() {
  const article = messageArticle();
  document.getElementById("chat").replaceChildren(el("p", { className: "message user" }, "Stream one long block."), article);
  return new MessageView(article, { sources, mode: MODE, turn: 0, onActivate: () => {}, onHover: () => {} });
}

/**
 * Streams `markdown` in `chunk`-character chunks into a new message. `pacing`
 * "task": one chunk per task, back to back; "frame": as a model writing
 * `perFrame` chunks per 1/60 s, in one task per animation frame (every chunk
 * due by then, so a late frame is caught up). Then `finish`, and two frames.
 * Returns the timings (ms), the long tasks seen by a PerformanceObserver, and
 * the checks of the final DOM: equal to render()'s HTML parsed by this
 * browser, the code block's textContent equal to `code`, `items` rows or items.
 */
async function run({ markdown, chunk, pacing, perFrame, code, items }) {
  const view = message();
  const chunks = [];
  for (let at = 0; at < markdown.length; at += chunk) chunks.push(markdown.slice(at, at + chunk));

  const longtasks = [];
  const observer = new PerformanceObserver((list) => longtasks.push(...list.getEntries()));
  observer.observe({ type: "longtask" });
  await nextFrame();
  await nextFrame();

  const pushes = [];
  const tasks = [];
  const frames = [];
  callbacks = [];
  let streaming = true;
  const tick = (time) => {
    frames.push(time);
    if (streaming) raf(tick);
  };
  performance.mark("bench-start");
  const start = performance.now();
  raf(tick);
  const push = (text) => {
    const t = performance.now();
    view.push(text);
    pushes.push(performance.now() - t);
  };
  let sent = 0;
  while (sent < chunks.length) {
    if (pacing === "frame") await nextFrame();
    await nextTask();
    const t = performance.now();
    const due = pacing === "frame" ? Math.min(chunks.length, perFrame * (1 + Math.floor((t - start) / FRAME_MS))) : sent + 1;
    while (sent < due) push(chunks[sent++]);
    tasks.push(performance.now() - t);
  }
  await nextTask();
  const t = performance.now();
  view.finish();
  const finish = performance.now() - t;
  await nextFrame();
  await nextFrame();
  const total = performance.now() - start;
  performance.mark("bench-end");
  streaming = false;
  const painted = callbacks;
  callbacks = null;
  longtasks.push(...observer.takeRecords());
  observer.disconnect();
  // The checks below run in a task of their own, after the measured ones.
  await nextTask();

  const expected = Object.assign(document.createElement("template"), {
    innerHTML: render(markdown, renderOptions(sources, MODE, 0)).html,
  }).innerHTML;
  const html = view.body.innerHTML;
  const checks = {
    html: html === expected,
    code: code === undefined ? null : view.body.querySelector("pre > code")?.textContent === code,
    items: items === undefined ? null : view.body.querySelectorAll("tbody > tr, ul > li").length === items,
  };
  if (!checks.html) {
    let at = 0;
    while (at < expected.length && html[at] === expected[at]) at++;
    checks.firstDifference = { at, got: html.slice(at, at + 120), expected: expected.slice(at, at + 120) };
  }

  return {
    pushes: stats(pushes),
    tasks: stats(tasks),
    callbacks: stats(painted),
    frames: stats(frames.slice(1).map((time, i) => time - frames[i])),
    finish,
    total,
    // From the first push, ms.
    longtasks: longtasks.filter((e) => e.startTime >= start).map((e) => ({ start: e.startTime - start, duration: e.duration })),
    isolated: crossOriginIsolated,
    checks,
  };
}

window.bench = { run };
document.getElementById("status")?.remove();
document.documentElement.dataset.bench = "ready";
