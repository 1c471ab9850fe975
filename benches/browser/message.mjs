// <CitemarkMessage/> (React, Svelte) fed the accumulated text in Chromium: what each update
// and each animation frame cost while a ~100 KB answer streams, against one
// render() of the whole answer (what re-rendering the message costs once it
// is long). Not part of `make test`.
//
//   make apps && node benches/browser/message.mjs     (RUNS=3 SIZE=100000 CHUNK=4 PER_FRAME=16
//                                                      APPS=react-app,svelte-app)
//
// The pages are the production builds of examples/react-app (React 19) and
// examples/svelte-app (Svelte 5, the same component for Svelte), driven
// through its `window.citemarkStream.set(text, streaming)` (one flushSync'd
// state update of the whole text so far, as a chat SDK's setState per token):
// PER_FRAME updates of CHUNK more characters each, in one task per animation
// frame. Measured with performance.now(): the PER_FRAME updates (React's
// render and the component's layout effect, which only records the text),
// and the component's frame (the suffix pushed, the tail painted, the icon
// portals mounted), read in a later callback of the same frame as the time
// since the frame began. Shapes: `prose` (examples/answer.md repeated, icon
// citations throughout) and `code` (one fenced code block). After the last
// update (streaming false) the message's DOM must equal render()'s HTML.

import path from "node:path";
import { readFileSync } from "node:fs";
import { launch } from "../../tests/browser/support/browser.mjs";
import { REPO, serveStatic } from "../../scripts/serve.mjs";

const RUNS = Number(process.env.RUNS ?? 3);
const SIZE = Number(process.env.SIZE ?? 100000);
const CHUNK = Number(process.env.CHUNK ?? 4);
const PER_FRAME = Number(process.env.PER_FRAME ?? 16);
const APPS = (process.env.APPS ?? "react-app,svelte-app").split(",");

const answer = readFileSync(path.join(REPO, "examples/answer.md"), "utf8");
const SHAPES = {
  prose: () => answer.repeat(Math.ceil(SIZE / answer.length)).slice(0, SIZE),
  code: () => {
    let code = "";
    for (let i = 0; code.length < SIZE; i++) code += `let value_${i} = compute(${i}, "text [1]"); // step ${i}\n`;
    return "Here is the code [1]:\n\n```rust\n" + code + "```\n";
  },
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const ms = (x) => x.toFixed(2);

const browser = await launch();
console.log(`CHUNK=${CHUNK} characters, PER_FRAME=${PER_FRAME} updates, RUNS=${RUNS}; medians of the runs`);
console.log("app | shape | chars | frames | updates per frame, ms (median / p95 / max) | component frame, ms (median / p95 / max) | total s | render(all), ms | DOM = render");
for (const app of APPS) {
  const server = await serveStatic({ "/": path.join(REPO, "examples", app, "dist"), "/citemark/": path.join(REPO, "pkg") });
  for (const [shape, make] of Object.entries(SHAPES)) {
    const text = make();
    const runs = [];
    for (let run = 0; run < RUNS; run++) {
      const page = await browser.newPage();
      await page.goto(server.origin + "/");
      await page.waitForFunction(() => window.citemarkStream);
      runs.push(
        await page.evaluate(
          async ({ text, CHUNK, PER_FRAME }) => {
            const { render } = await import("/citemark/src/index.js");
            const set = window.citemarkStream.set;
            const updates = [];
            const frames = [];
            const started = performance.now();
            let at = 0;
            while (at < text.length) {
              const begin = performance.now();
              for (let i = 0; i < PER_FRAME && at < text.length; i++) {
                at = Math.min(text.length, at + CHUNK);
                set(text.slice(0, at), true);
              }
              updates.push(performance.now() - begin);
              // The component's frame callback was queued first: this one runs after it.
              frames.push(await new Promise((resolve) => requestAnimationFrame((t) => resolve(performance.now() - t))));
            }
            set(text, false);
            const total = performance.now() - started;
            const element = document.querySelector(".streamed .citemark").cloneNode(true);
            for (const slot of element.querySelectorAll(".citation-icon")) slot.replaceChildren();
            const t0 = performance.now();
            const { html } = render(text, { sources: null, mode: "icon" });
            const renderMs = performance.now() - t0;
            const template = document.createElement("template");
            template.innerHTML = html;
            return { updates, frames, total, renderMs, html: element.innerHTML };
          },
          { text, CHUNK, PER_FRAME },
        ),
      );
      await page.close();
    }
    // The app streams with its sample sources: compare against render() with them.
    const { render } = await import("../../pkg/src/index.js");
    const { sources } = JSON.parse(readFileSync(path.join(REPO, "examples/sources.json"), "utf8"));
    const page = await browser.newPage();
    const expected = await page.evaluate((html) => {
      const template = document.createElement("template");
      template.innerHTML = html;
      return template.innerHTML;
    }, render(text, { sources, mode: "icon" }).html);
    await page.close();
    const same = runs.every((r) => r.html === expected);
    const stat = (key) => [median(runs.map((r) => median(r[key]))), median(runs.map((r) => pct(r[key], 0.95))), median(runs.map((r) => Math.max(...r[key])))];
    const [u, f] = [stat("updates"), stat("frames")];
    console.log(
      `${app} | ${shape} | ${text.length} | ${median(runs.map((r) => r.frames.length))} | ${u.map(ms).join(" / ")} | ${f.map(ms).join(" / ")} | ${(median(runs.map((r) => r.total)) / 1000).toFixed(1)} | ${ms(median(runs.map((r) => r.renderMs)))} | ${same ? "yes" : "NO"}`,
    );
    if (!same) process.exitCode = 1;
  }
  await server.close();
}
await browser.close();
