// The demo page (www/, served by scripts/serve.mjs as `make demo` serves it)
// in Chromium: the streamed conversation against one-shot renders of the same
// markdown, what is visible while it streams, and every citation clicked in
// every mode. Needs the package built (`make pkg`; `make test-browser` does).

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { ctrlClick, launch, openPage } from "./support/browser.mjs";
import { REPO, serveStatic } from "../../scripts/serve.mjs";
import { MODES, SOURCES_URL, TURNS, renderOptions } from "../../www/conversation.js";

// Raw markdown that must never reach the screen: markers, cite tags, bold
// markers, and the `](` of a link whose URL is still arriving.
const RAW = /\[\d|<cite|\*\*|\]\(/;

let server, browser, context, page, errors, render, sources, answers;

before(async () => {
  const entry = path.join(REPO, "pkg/dist/default/citemark.js");
  assert.ok(existsSync(entry), `${entry} is missing: run \`make pkg\` (make test-browser does)`);
  ({ render } = await import("../../pkg/src/index.js"));
  server = await serveStatic();
  // The inputs as the page gets them: the same server, the same bytes.
  const get = async (url) => (await fetch(server.origin + url)).text();
  ({ sources } = JSON.parse(await get(SOURCES_URL)));
  answers = await Promise.all(TURNS.map((turn) => get(turn.answerUrl)));
  browser = await launch();
  ({ context, page, errors } = await openPage(browser, server.origin, "/"));
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Picks a citation mode as a user does: a click on its label. */
async function chooseMode(mode) {
  await page.click(`#modes label:has(input[value=${mode}])`);
  assert.equal(await page.isChecked(`input[name=mode][value=${mode}]`), true, `mode ${mode} chosen`);
}

/** One-shot renders of every turn in `mode`, with the page's options. */
const expected = (mode) => answers.map((markdown, turn) => render(markdown, renderOptions(sources, mode, turn)));

/** Each answer's DOM (its body, where citemark/dom streams it), plus `html` parsed by the same browser. */
function messages(htmls) {
  return page.evaluate((htmls) => {
    const parse = (html) => Object.assign(document.createElement("template"), { innerHTML: html }).innerHTML;
    return [...document.querySelectorAll(".message.assistant")].map((article, i) => ({
      body: article.querySelector(".body").innerHTML,
      expected: parse(htmls[i]),
      state: article.dataset.state,
    }));
  }, htmls);
}

async function assertRendered(mode) {
  const want = expected(mode);
  const got = await messages(want.map((r) => r.html));
  assert.equal(got.length, TURNS.length, "one message per turn");
  got.forEach((message, turn) => {
    assert.equal(message.state, "done", `turn ${turn + 1}: finished`);
    assert.equal(message.body, message.expected, `turn ${turn + 1} (${mode}): streamed HTML = render()`);
  });
  // "Grounded in N sources": the cited sources by display number with their
  // use counts, then the uncited ones; straight from the index.
  const lists = await page.$$eval(".message.assistant .grounding", (sections) =>
    sections.map((s) => ({
      heading: s.querySelector("h3").textContent,
      items: [...s.querySelectorAll("ol > li")].map((li) => `${li.value} ${li.textContent}`),
      uncited: s.querySelector(".uncited")?.textContent ?? "",
    })),
  );
  lists.forEach((list, turn) => {
    const { sources: cited, uncited } = want[turn].citations;
    assert.equal(list.heading, `Grounded in ${cited.length} sources`, `turn ${turn + 1}: heading`);
    assert.deepEqual(
      list.items,
      cited.map((use) => `${use.number} ${use.source.title}${use.uses === 1 ? "cited once" : `cited ${use.uses}×`}`),
      `turn ${turn + 1}: cited sources`,
    );
    assert.equal(list.uncited === "", uncited.length === 0, `turn ${turn + 1}: an uncited list only when some are`);
    for (const use of uncited) assert.ok(list.uncited.includes(use.source.title), `turn ${turn + 1}: uncited ${use.source.title}`);
  });
  return want;
}

describe("www demo", () => {
  test("streams the conversation: every painted frame free of raw syntax, the end equal to render()", async () => {
    await page.selectOption("#speed", "10");
    // Every frame the browser paints while the answer streams is checked in
    // the page itself (requestAnimationFrame), not just a few polled moments.
    await page.evaluate(() => {
      window.frames_ = { count: 0, streaming: 0, partial: 0, raw: [] };
      const raw = /\[\d|<cite|\*\*|\]\(/;
      let shown = "";
      const tick = () => {
        const texts = [...document.querySelectorAll(".message.assistant .body")].map((b) => b.textContent);
        frames_.count++;
        if (document.documentElement.dataset.state === "streaming") frames_.streaming++;
        // A frame showing more of the answer being streamed than the last one.
        const streaming = document.querySelector(".message.assistant[data-state=streaming] .body")?.textContent ?? "";
        if (streaming && streaming !== shown) frames_.partial++;
        shown = streaming;
        for (const text of texts) {
          const at = text.search(raw);
          if (at >= 0 && frames_.raw.length < 5) frames_.raw.push(text.slice(Math.max(0, at - 40), at + 40));
        }
        if (document.documentElement.dataset.state !== "done") requestAnimationFrame(tick);
      };
      document.getElementById("replay").click();
      requestAnimationFrame(tick);
    });
    await page.waitForFunction(() => document.documentElement.dataset.state === "done", null, { timeout: 60_000 });
    const frames = await page.evaluate(() => frames_);
    assert.deepEqual(frames.raw, [], "raw markdown visible while streaming");
    // The check above only means something if it saw the stream arrive.
    assert.ok(frames.streaming >= 30, `frames seen while streaming: ${frames.streaming}`);
    assert.ok(frames.partial >= 10, `frames showing the answer grow: ${frames.partial}`);
    // The self-check: the same pattern finds raw syntax in the inputs.
    for (const markdown of answers) assert.match(markdown, RAW);

    const want = await assertRendered("link");
    const kinds = new Set(want.flatMap((r) => r.citations.occurrences.map((o) => o.kind)));
    assert.deepEqual([...kinds].sort(), ["cite", "index", "query", "shortlink"], "every citation kind appears");
    assert.deepEqual(errors, []);
  });

  test("every citation in every mode shows its source in the panel; hover shows a tooltip", async () => {
    for (const mode of MODES) {
      await chooseMode(mode);
      const want = await assertRendered(mode);
      const occurrences = want.flatMap((r, turn) => r.citations.occurrences.map((o) => ({ ...o, turn, index: r.citations })));
      const elements = page.locator(".message.assistant .body [data-citation-key]");
      assert.equal(await elements.count(), occurrences.length, `${mode}: one element per occurrence`);
      for (let i = 0; i < occurrences.length; i++) {
        const o = occurrences[i];
        const source = o.index.sources.find((s) => s.number === o.number)?.source;
        const element = elements.nth(i);
        await element.click();
        const panel = Object.fromEntries(
          await page.$$eval("#panel dd", (dds) => dds.map((dd) => [dd.dataset.field, dd.textContent])),
        );
        const where = `${mode}, turn ${o.turn + 1}, #${o.ordinal} (${o.kind} ${o.key})`;
        const tag = await element.evaluate((e) => e.localName);
        assert.equal(tag, mode === "button" ? "button" : "a", `${where}: element`);
        assert.deepEqual(
          [panel.kind, panel.key, panel.ordinal, panel.label],
          [o.kind, o.key, String(o.ordinal), o.label],
          `${where}: panel`,
        );
        // A query link cites no source: its title is its label, its link the URL written.
        assert.equal(panel.title, source?.title ?? o.label, `${where}: title`);
        assert.equal(panel.href, source?.href ?? (tag === "a" ? o.url : "none"), `${where}: href`);
        assert.equal(panel.excerpt, source?.excerpt ?? (o.query ? JSON.stringify(o.query, null, 1) : "none"), `${where}: excerpt`);
      }
      assert.ok(page.url().startsWith(server.origin), `${mode}: no click navigated away`);
    }

    // Hover: the tooltip shows the cited source from the index.
    await chooseMode("link");
    const first = expected("link")[0].citations;
    await page.locator(".message.assistant .body [data-citation-ordinal='1']").first().hover();
    const tooltip = page.locator("#tooltip");
    assert.equal(await tooltip.isVisible(), true, "tooltip shown on hover");
    const title = first.sources[0].source.title;
    assert.ok((await tooltip.textContent()).includes(title), `tooltip names ${title}`);
    await page.mouse.move(0, 0);
    assert.equal(await tooltip.isVisible(), false, "tooltip hidden after the mouse leaves");
    assert.deepEqual(errors, []);
  });

  test("Ctrl+click on a citation link is left to the browser", async () => {
    await chooseMode("link");
    const before = await page.locator("#panel dl").innerHTML();
    const link = page.locator(".message.assistant .body a[data-citation-kind=index]").first();
    const { newTab, prevented } = await ctrlClick(context, page, link);
    assert.equal(prevented, false, "the click's default action was not prevented");
    assert.equal(newTab, true, "the link opened in a new tab");
    assert.equal(await page.locator("#panel dl").innerHTML(), before, "onActivate did not run");
  });
});

describe("the math page (www/math.html)", () => {
  test("streams an answer with math and typesets each committed math element once with KaTeX", async () => {
    const markdown = await (await fetch(`${server.origin}/math.md`)).text();
    const wanted = render(markdown).html;
    const math = await browser.newContext().then(async (mathContext) => {
      const mathPage = await mathContext.newPage();
      const pageErrors = [];
      mathPage.on("pageerror", (error) => pageErrors.push(String(error)));
      await mathPage.goto(`${server.origin}/math.html`);
      await mathPage.waitForFunction(() => document.documentElement.dataset.state === "done", null, { timeout: 60_000 });
      const got = await mathPage.evaluate((wanted) => {
        const expected = Object.assign(document.createElement("template"), { innerHTML: wanted }).content;
        const elements = [...document.querySelectorAll("#answer .math")];
        return {
          tex: elements.map((e) => e.dataset.tex),
          expectedTex: [...expected.querySelectorAll(".math")].map((e) => e.textContent),
          typeset: elements.filter((e) => e.querySelector(":scope > .katex, :scope > .katex-display")).length,
          katexErrors: document.querySelectorAll("#answer .katex-error").length,
          citations: document.querySelectorAll("#answer [data-citation-kind=index]").length,
          text: document.getElementById("answer").textContent,
        };
      }, wanted);
      await mathContext.close();
      return { ...got, pageErrors };
    });
    assert.ok(math.expectedTex.length >= 10, `the answer holds math: ${math.expectedTex.length}`);
    // Each element typeset from its own TeX (typeset twice, it would hold KaTeX's text).
    assert.deepEqual(math.tex, math.expectedTex);
    assert.equal(math.typeset, math.expectedTex.length, "every math element holds KaTeX's output");
    assert.equal(math.katexErrors, 0);
    assert.equal(math.citations, 2, "[1](url) and [[2]](url) are citations");
    assert.ok(math.text.includes("So $1,000 at 5% for ten years gives $1,647.01"), "prices stay text");
    assert.deepEqual(math.pageErrors, []);
  });
});
