// The streamed message of the Vite example apps (`make apps`): <CitemarkMessage/>
// in examples/react-app on React 19 (production, and development, where
// StrictMode runs effects twice) and in examples/react18-app (React 18,
// development), and the `citemark` action of examples/svelte-app. Each app
// exposes `window.citemarkStream.set(text, streaming, sources)`, one update of
// the accumulated text. The test feeds the sample answer a few characters at a
// time, several updates per animation frame, and after each frame compares the
// message element with a reference: the same text streamed by citemark/dom's
// mountStream in the page (served from pkg/). The icon component must be in
// every placeholder, tail included; the finished message must be render()'s
// HTML; text that does not extend the last starts over. Between the updates
// and the frame, the DOM does not change (the work waits for the frame).

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { launch, openPage } from "./support/browser.mjs";
import { REPO, serveStatic } from "../../scripts/serve.mjs";

const markdown = readFileSync(path.join(REPO, "examples/answer.md"), "utf8");
const { sources } = JSON.parse(readFileSync(path.join(REPO, "examples/sources.json"), "utf8"));

const APPS = [
  { name: "svelte-app", dist: "examples/svelte-app/dist", framework: "svelte" },
  { name: "react-app (React 19, production)", dist: "examples/react-app/dist", react: "19.", strict: false },
  { name: "react-app (React 19, development)", dist: "examples/react-app/dist-dev", react: "19.", strict: true },
  { name: "react18-app (React 18, development)", dist: "examples/react18-app/dist", react: "18.", strict: true },
];

/** `text` cut into updates of 1 to 7 characters (a fixed pseudo-random sequence). */
function prefixes(text) {
  const out = [];
  let seed = 7;
  for (let at = 0; at < text.length; ) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    at = Math.min(text.length, at + 1 + (seed % 7));
    out.push(text.slice(0, at));
  }
  return out;
}

/**
 * In the page: streams `updates` into the app (`perFrame` updates, then one
 * animation frame) and the same text into a reference element; after each
 * frame, what differs and how many placeholders there are against how many
 * citations were committed. Then (unless `finish` is false) one update with
 * `streaming` false: the finished message.
 */
async function stream(page, updates, { perFrame = 4, sources: given = sources, fresh = true, finish = true } = {}) {
  return page.evaluate(
    async ({ updates, perFrame, given, fresh, finish }) => {
      const { mountStream } = await import("/citemark/src/default/dom.js");
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      const app = () => document.querySelector(".streamed .citemark");
      /** The app's element as HTML, the icons portalled into the placeholders left out. */
      const shown = () => {
        const clone = app().cloneNode(true);
        for (const slot of clone.querySelectorAll(".citation-icon")) slot.replaceChildren();
        return clone.innerHTML;
      };
      if (fresh || !window.reference) {
        window.reference?.destroy();
        window.reference = mountStream(document.createElement("div"), { sources: given, mode: "icon" });
        window.referenceText = "";
      }
      const reference = window.reference;
      const frames = [];
      for (let i = 0; i < updates.length; i += perFrame) {
        const batch = updates.slice(i, i + perFrame);
        // While streaming, an update only records the text: the DOM changes in the next frame.
        const observer = new MutationObserver(() => {});
        observer.observe(app(), { childList: true, subtree: true, characterData: true, attributes: true });
        for (const text of batch) window.citemarkStream.set(text, true, given);
        const early = observer.takeRecords().length;
        observer.disconnect();
        await frame();
        const text = batch[batch.length - 1];
        reference.push(text.slice(window.referenceText.length));
        window.referenceText = text;
        const slots = [...app().querySelectorAll(".citation-icon")];
        frames.push({
          text: text.length,
          early,
          differs: shown() === reference.element.innerHTML ? null : { app: shown(), reference: reference.element.innerHTML },
          slots: slots.length,
          filled: slots.filter((slot) => slot.querySelector("svg")).length,
          committed: reference.citations().length,
        });
      }
      if (!finish) return { frames };
      window.citemarkStream.set(updates[updates.length - 1], false, given);
      reference.finish();
      const last = { differs: shown() === reference.element.innerHTML ? null : shown(), html: shown() };
      return { frames, last };
    },
    { updates, perFrame, given, fresh, finish },
  );
}

/** `html` as the browser serializes it (the reference for render()'s string). */
const normalized = (page, html) =>
  page.evaluate((html) => {
    const template = document.createElement("template");
    template.innerHTML = html;
    return template.innerHTML;
  }, html);

let browser, render;

before(async () => {
  assert.ok(existsSync(path.join(REPO, "pkg/dist/default/citemark.js")), "pkg/dist is missing: run `make pkg`");
  ({ render } = await import("../../pkg/src/index.js"));
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

for (const app of APPS) {
  describe(app.name, () => {
    let server, context, page, errors;

    before(async () => {
      const dist = path.join(REPO, app.dist);
      assert.ok(existsSync(path.join(dist, "index.html")), `${dist} is missing: run \`make apps\``);
      server = await serveStatic({ "/": dist, "/citemark/": path.join(REPO, "pkg") });
      ({ context, page, errors } = await openPage(browser, server.origin, "/", () =>
        document.querySelector(".streamed .citemark [data-citation-key]") && window.citemarkStream,
      ));
    });

    after(async () => {
      await context?.close();
      await server?.close();
    });

    if (app.react) {
      test(`runs React ${app.react}x${app.strict ? " with StrictMode's double effects" : ""}`, async () => {
        const { react, mounts } = await page.evaluate(() => window.citemarkStream);
        assert.ok(react.startsWith(app.react), react);
        assert.equal(mounts, app.strict ? 2 : 1, "effect runs on mount");
      });
    }

    test("streamed a few characters per update: the DOM is the stream's after every frame, icons in every placeholder", async () => {
      const updates = prefixes(markdown);
      assert.ok(updates.length > 500, `${updates.length} updates`);
      const { frames, last } = await stream(page, updates);
      const wrong = frames.find((f) => f.differs);
      assert.equal(wrong, undefined, `after ${wrong?.text} characters:\n${JSON.stringify(wrong?.differs, null, 1)}`);
      for (const f of frames) assert.equal(f.filled, f.slots, `after ${f.text} characters: every placeholder holds the icon`);
      assert.deepEqual(frames.filter((f) => f.early), [], "no DOM change between a frame's updates and the frame");
      // Placeholders beyond the committed citations are in the tail: the test must have seen them.
      const inTail = frames.filter((f) => f.slots > f.committed);
      assert.ok(inTail.length >= 10, `frames with an icon in the tail: ${inTail.length} of ${frames.length}`);
      assert.equal(last.differs, null, "finished: the reference's DOM");
      assert.equal(last.html, await normalized(page, render(markdown, { sources, mode: "icon" }).html), "finished: render()'s HTML");
      assert.deepEqual(errors, []);
    });

    test("a citation in the streamed message activates with its source", async () => {
      const first = render(markdown, { sources, mode: "icon" }).citations;
      const o = first.occurrences[0];
      await page.locator(".streamed .citemark [data-citation-ordinal='1']").click();
      const title = await page.locator(".activated dd[data-field=title]").textContent();
      assert.equal(title, first.sources.find((s) => s.number === o.number).source.title);
      assert.deepEqual(errors, []);
    });

    test("text that does not extend the last starts over (a regenerate)", async () => {
      const other = "Regenerated [2], with a table:\n\n| a | b |\n|---|---|\n| 1 [1] | 2 [3] |\n\nAnd a list:\n\n- one [1]\n- two\n";
      const { frames, last } = await stream(page, prefixes(other), { perFrame: 2 });
      const wrong = frames.find((f) => f.differs);
      assert.equal(wrong, undefined, `after ${wrong?.text} characters:\n${JSON.stringify(wrong?.differs, null, 1)}`);
      for (const f of frames) assert.equal(f.filled, f.slots, `after ${f.text} characters: every placeholder holds the icon`);
      assert.equal(last.html, await normalized(page, render(other, { sources, mode: "icon" }).html));
      assert.deepEqual(errors, []);
    });

    /** Remembers the message's first block, to see whether it was rendered again. */
    const markFirstBlock = () => page.evaluate(() => (window.firstBlock = document.querySelector(".streamed .citemark > *")));
    const firstBlockKept = () => page.evaluate(() => window.firstBlock.isConnected);

    test("sources appended mid-stream: the committed blocks stay (not parsed again), the finished message is render()'s", async () => {
      const text = "Rates fell [1] in Q3.\n\nThe krona rose [2] since.\n\n| pair | move |\n|---|---|\n| SEK | up [2][1] |\n\nDone.\n";
      const [one, two] = sources;
      const updates = prefixes(text);
      const cut = updates.findIndex((u) => u.includes("krona"));
      await stream(page, updates.slice(0, cut), { sources: [one], finish: false });
      await markFirstBlock();
      const { last } = await stream(page, updates.slice(cut), { sources: [one, two], fresh: false });
      assert.equal(await firstBlockKept(), true, "the first paragraph is the same node");
      assert.equal(last.html, await normalized(page, render(text, { sources: [one, two], mode: "icon" }).html));
      assert.deepEqual(errors, []);
    });

    test("sources arriving where unresolved citations were committed: starts over, ends as render()'s", async () => {
      const updates = prefixes(markdown);
      const half = Math.floor(updates.length / 2);
      await stream(page, updates.slice(0, half), { sources: null, finish: false, perFrame: 16 });
      await markFirstBlock();
      const { last } = await stream(page, updates.slice(half), { fresh: false, perFrame: 16 });
      assert.equal(await firstBlockKept(), false, "the message was rendered again");
      assert.equal(last.html, await normalized(page, render(markdown, { sources, mode: "icon" }).html));
      assert.deepEqual(errors, []);
    });

    test("unmounted mid-stream with a frame pending, then mounted again", async () => {
      const result = await page.evaluate(async (text) => {
        const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
        window.citemarkStream.set(text.slice(0, 100), true);
        window.citemarkStream.set(text.slice(0, 200), true);
        window.citemarkStream.show(false);
        await frame();
        await frame();
        const gone = document.querySelector(".streamed .citemark") === null;
        window.citemarkStream.show(true);
        window.citemarkStream.set(text, false);
        return { gone, citations: document.querySelectorAll(".streamed .citemark [data-citation-key]").length };
      }, markdown);
      assert.equal(result.gone, true);
      assert.equal(result.citations, render(markdown, { sources }).citations.occurrences.length);
      assert.deepEqual(errors, []);
    });
  });
}
