// The hydration core (pkg/src/hydrate.js) and the Svelte action, in Chromium,
// on what the CLI renders for the sample answers in every citation mode.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { MODES, pool, render, samples } from "./support/citemark.mjs";
import { launch, openPage } from "./support/browser.mjs";
import { page as testPage, serve } from "./support/server.mjs";

let server, browser, page, errors;
/** fixtures[sample][mode] = {html, citations} */
const fixtures = {};

before(async () => {
  const jobs = samples().flatMap((sample) => MODES.map(([mode, flags]) => ({ sample, mode, flags })));
  await pool(jobs, 4, async ({ sample, mode, flags }) => {
    const sourceFlags = sample.sources ? ["--sources", sample.sources] : [];
    fixtures[sample.name] ??= {};
    fixtures[sample.name][mode] = await render(sample.markdown, [...flags, ...sourceFlags]);
  });
  server = await serve({ "/hydrate.html": testPage({ modules: ["/pages/harness.js"] }) });
  browser = await launch();
  ({ page, errors } = await openPage(browser, server.origin, "/hydrate.html"));
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Fresh root with `fixture`'s HTML, hydrated with a recorder; clears the logs. */
async function hydrated(fixture) {
  await page.evaluate(({ html, citations }) => {
    window.handle?.destroy();
    test.calls.length = 0;
    clickLog.length = 0;
    const root = test.show(html);
    window.handle = test.core.hydrate(root, citations, { onActivate: test.recorder("core") });
  }, fixture);
}

const calls = () => page.evaluate(() => test.calls);
const clicks = () => page.evaluate(() => clickLog);

describe("clicking citations", () => {
  test("every citation in every sample and mode activates with its own occurrence", async (t) => {
    let total = 0;
    for (const [name, byMode] of Object.entries(fixtures)) {
      for (const [mode, fixture] of Object.entries(byMode)) {
        const where = `${name} (${mode})`;
        await hydrated(fixture);
        const elements = await page.evaluate(() => {
          const list = [...document.querySelectorAll("#root [data-citation-key]")];
          for (const element of list) element.click();
          return list.map((e) => ({
            tag: e.localName,
            ordinal: Number(e.dataset.citationOrdinal),
            key: e.dataset.citationKey,
            kind: e.dataset.citationKind,
            title: e.getAttribute("title"),
            unresolved: e.classList.contains("citation-unresolved"),
          }));
        });
        const got = await calls();
        const { occurrences, sources } = fixture.citations;
        // One element per occurrence, one activation per click.
        assert.equal(elements.length, occurrences.length, `${where}: elements vs occurrences`);
        assert.equal(got.length, elements.length, `${where}: activations`);
        elements.forEach((element, i) => {
          const call = got[i];
          const expected = occurrences.find((o) => o.ordinal === element.ordinal);
          assert.deepEqual(call.occurrence, expected, `${where} #${element.ordinal}: occurrence`);
          assert.deepEqual(
            [call.key, call.kind, call.ordinal, call.resolved],
            [element.key, element.kind, element.ordinal, !element.unresolved],
            `${where} #${element.ordinal}: attributes`,
          );
          const source = sources.find((s) => s.number === expected.number)?.source;
          assert.equal(call.sourceTitle, source?.title ?? null, `${where} #${element.ordinal}: source`);
          // Independent of the index: citemark writes a resolved citation's
          // title attribute from the same source.
          if (source?.title && element.kind !== "query") assert.equal(element.title, source.title);
        });
        // Plain clicks on links are the app's (prevented); buttons have no default.
        const log = await clicks();
        elements.forEach((element, i) =>
          assert.equal(log[i].defaultPrevented, element.tag === "a", `${where} #${element.ordinal}: defaultPrevented`),
        );
        total += elements.length;
      }
    }
    t.diagnostic(`${total} citations clicked in ${Object.keys(fixtures).length} samples × ${MODES.length} modes`);
    assert.ok(total > 400, `only ${total} citations clicked`);
  });

  test("a real mouse click on a link is intercepted; modified and middle clicks are not", async () => {
    await hydrated(fixtures["examples-answer"].link);
    const link = page.locator("#root a.citation[href^='https:']").first();
    await link.click();
    assert.equal((await calls()).length, 1);
    assert.deepEqual(await clicks(), [{ defaultPrevented: true }]);
    for (const modifier of ["Control", "Meta", "Shift", "Alt"]) {
      await link.click({ modifiers: [modifier] });
    }
    assert.equal((await calls()).length, 1, "a modified click called onActivate");
    assert.deepEqual((await clicks()).slice(1), Array(4).fill({ defaultPrevented: false }));
    // Middle click: no `click` event in Chromium, an `auxclick`; either way no activation.
    await link.click({ button: "middle" });
    assert.equal((await calls()).length, 1, "a middle click called onActivate");
    assert.equal(page.url().endsWith("/hydrate.html"), true);
  });

  test("a modified click on a button still activates (buttons have no native alternative)", async () => {
    await hydrated(fixtures["examples-answer"].button);
    await page.locator("#root button.citation").first().click({ modifiers: ["Control"] });
    assert.equal((await calls()).length, 1);
  });
});

describe("keyboard", () => {
  for (const mode of ["button", "icon-embedded"]) {
    test(`Enter and Space on a ${mode} citation activate it exactly once each`, async () => {
      await hydrated(fixtures["examples-answer"][mode]);
      const button = page.locator("#root button.citation").nth(1);
      await button.focus();
      await page.keyboard.press("Enter");
      assert.equal((await calls()).length, 1, "Enter");
      await page.keyboard.press("Space");
      const got = await calls();
      assert.equal(got.length, 2, "Space");
      assert.deepEqual(got.map((c) => c.eventType), ["click", "click"]);
      assert.deepEqual(got.map((c) => c.detail), [0, 0], "keyboard clicks have detail 0");
      assert.equal(got[0].ordinal, Number(await button.getAttribute("data-citation-ordinal")));
    });
  }

  test("Enter on a focused link activates it once, without navigating", async () => {
    await hydrated(fixtures["examples-answer"].link);
    await page.locator("#root a.citation[href]").first().focus();
    await page.keyboard.press("Enter");
    assert.equal((await calls()).length, 1);
    assert.deepEqual(await clicks(), [{ defaultPrevented: true }]);
  });
});

describe("resolve", () => {
  const fixture = () => fixtures["markers-no-sources"].link;

  test("the fixture has unresolved citations to resolve", () => {
    assert.ok(fixture().citations.occurrences.some((o) => !o.resolved && o.key === "1"));
    assert.ok(fixture().html.includes("citation-unresolved"));
  });

  test("fills unresolved citations in place, synchronously or from a promise", async () => {
    await page.evaluate(({ html, citations }) => {
      window.handle?.destroy();
      test.calls.length = 0;
      const root = test.show(html);
      window.offered = [];
      window.handle = test.core.hydrate(root, citations, {
        onActivate: test.recorder("core"),
        resolve(citation) {
          offered.push(citation.key);
          if (citation.key === "1") return { href: "https://example.org/one", title: "Source one" };
          if (citation.key === "2") return Promise.resolve({ href: "/local/two", title: "Source two" });
          if (citation.key === "3") return { href: "javascript:alert(1)", title: "Evil href" };
          if (citation.key === "4") return new Promise(() => {}); // still looking
          return null;
        },
      });
    }, fixture());
    await page.evaluate(() => new Promise((r) => setTimeout(r, 0))); // let the promise settle
    const state = await page.evaluate(() =>
      [...document.querySelectorAll("#root [data-citation-key]")].map((e) => ({
        key: e.dataset.citationKey,
        href: e.getAttribute("href"),
        title: e.getAttribute("title"),
        rel: e.getAttribute("rel"),
        unresolved: e.classList.contains("citation-unresolved"),
      })),
    );
    const offeredFirst = await page.evaluate(() => offered);
    assert.equal(offeredFirst.length, state.length, "every unresolved citation is offered once");
    for (const s of state) {
      if (s.key === "1") assert.deepEqual(s, { key: "1", href: "https://example.org/one", title: "Source one", rel: "noopener noreferrer nofollow", unresolved: false });
      else if (s.key === "2") assert.deepEqual(s, { key: "2", href: "/local/two", title: "Source two", rel: null, unresolved: false });
      else if (s.key === "3") assert.deepEqual(s, { key: "3", href: null, title: "Evil href", rel: null, unresolved: false });
      else assert.equal(s.unresolved, true, `key ${s.key} stays unresolved`);
    }
    assert.ok(state.some((s) => s.key === "1") && state.some((s) => s.key === "2") && state.some((s) => s.key === "3"));
    // The resolution is what onActivate (and a tooltip) then sees.
    await page.locator("#root [data-citation-key='1']").first().click();
    const [call] = await calls();
    assert.deepEqual([call.resolved, call.href, call.sourceTitle], [true, "https://example.org/one", "Source one"]);
    // update() offers only what is still unresolved.
    await page.evaluate(({ citations }) => { offered.length = 0; handle.update(citations); }, fixture());
    const again = await page.evaluate(() => offered);
    // Resolved ones are done, a pending one is not asked twice; the rest are re-offered.
    assert.ok(again.length > 0 && !again.some((k) => ["1", "2", "3", "4"].includes(k)), `re-offered: ${again}`);
    assert.ok(offeredFirst.includes("4"));
  });
});

describe("streaming updates, tooltips, destroy", () => {
  test("update() with a grown index: new citations get their occurrences", async () => {
    const full = fixtures["examples-answer"].link;
    const markdown = samples().find((s) => s.name === "examples-answer").markdown;
    const sources = samples().find((s) => s.name === "examples-answer").sources;
    const prefix = await render(markdown.slice(0, Math.floor(markdown.length / 2)), ["--sources", sources]);
    const prefixCount = prefix.citations.occurrences.length;
    assert.ok(prefixCount > 0 && prefixCount < full.citations.occurrences.length);
    await hydrated(prefix);
    // The stream grows: the HTML first, the index a moment later.
    await page.evaluate((html) => test.show(html), full.html);
    const last = page.locator(`#root [data-citation-ordinal='${full.citations.occurrences.length}']`);
    await last.click();
    assert.equal((await calls())[0].occurrence, null, "the index lags: no occurrence yet");
    await page.evaluate((citations) => handle.update(citations), full.citations);
    await last.click();
    assert.deepEqual((await calls())[1].occurrence, full.citations.occurrences.at(-1));
  });

  test("citationOf() gives a hover tooltip the source and excerpt", async () => {
    const fixture = fixtures["examples-answer"].icon;
    await hydrated(fixture);
    const tip = await page.evaluate(() => {
      const icon = document.querySelector("#root [data-citation-key='1'] .citation-icon");
      const c = handle.citationOf(icon);
      return { title: c.source.title, excerpt: c.source.excerpt, outside: handle.citationOf(document.body) };
    });
    const source = fixture.citations.sources.find((s) => s.source.index === 1).source;
    assert.deepEqual(tip, { title: source.title, excerpt: source.excerpt, outside: null });
    assert.ok(source.excerpt.length > 0);
  });

  test("destroy() removes the listener: clicks are neither handled nor prevented", async () => {
    await hydrated(fixtures["examples-answer"].link);
    const link = page.locator("#root a.citation[href]").first();
    await link.click();
    await page.evaluate(() => handle.destroy());
    await link.click();
    assert.equal((await calls()).length, 1);
    assert.deepEqual(await clicks(), [{ defaultPrevented: true }, { defaultPrevented: false }]);
  });
});

describe("Svelte action", () => {
  test("action(node, params), update(params) and destroy() as Svelte calls them", async () => {
    const first = fixtures["web-search-markers"].button;
    await page.evaluate((html) => { window.handle?.destroy(); test.calls.length = 0; test.show(html); }, first.html);
    const result = await page.evaluate(async ({ first }) => {
      const node = document.getElementById("root");
      const action = test.svelteAction(node, { citations: first.citations, onActivate: test.recorder("v1") });
      const button = () => node.querySelector("button.citation");
      button().click();
      // Svelte re-renders {@html}, then calls update with the new parameters.
      action.update({ citations: first.citations, onActivate: test.recorder("v2") });
      button().click();
      action.destroy();
      button().click();
      return test.calls.map((c) => [c.tag, c.ordinal, c.sourceTitle]);
    }, { first });
    const title = first.citations.sources[0].source.title;
    assert.deepEqual(result, [["v1", 1, title], ["v2", 1, title]]);
  });
});

test("no page errors", () => assert.deepEqual(errors, []));
