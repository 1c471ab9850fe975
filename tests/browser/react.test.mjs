// The React entry point (pkg/src/react.js) with React 18 in Chromium: the
// hook hydrates, and a real component renders inside each icon placeholder.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { render, samples } from "./support/citemark.mjs";
import { launch, openPage } from "./support/browser.mjs";
import { page as testPage, serve } from "./support/server.mjs";

let server, browser, page, errors, icon, embedded;

before(async () => {
  const answer = samples().find((s) => s.name === "examples-answer");
  icon = await render(answer.markdown, ["--mode", "icon", "--sources", answer.sources]);
  embedded = await render(answer.markdown, ["--mode", "icon", "--embedded", "--sources", answer.sources]);
  server = await serve({
    "/react.html": testPage({ scripts: ["/vendor/react.js", "/vendor/react-dom.js"], modules: ["/pages/react-app.js"] }),
  });
  browser = await launch();
  ({ page, errors } = await openPage(browser, server.origin, "/react.html"));
  await page.evaluate(([icon, embedded]) => {
    test.load("icon", icon);
    test.load("embedded", embedded);
  }, [icon, embedded]);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Each placeholder's rendered icons: [{ordinal of the citation, icons inside}]. */
const placeholders = () =>
  page.evaluate(() =>
    [...document.querySelectorAll(".message .citation-icon")].map((span) => ({
      ordinal: Number(span.closest("[data-citation-ordinal]").dataset.citationOrdinal),
      icons: [...span.querySelectorAll("i.test-icon")].map((i) => ({ ordinal: Number(i.dataset.ordinal), text: i.textContent })),
    })),
  );

function expectedIcons({ citations }) {
  return citations.occurrences.map((o) => ({
    ordinal: o.ordinal,
    icons: [{ ordinal: o.ordinal, text: citations.sources.find((s) => s.number === o.number)?.source.title ?? "?" }],
  }));
}

test("useCitationPortals renders the icon component inside every placeholder", async () => {
  await page.evaluate(() => test.render("icon", "first"));
  assert.ok(icon.citations.occurrences.length >= 10);
  assert.deepEqual(await placeholders(), expectedIcons(icon));
});

test("clicking the rendered icon activates its citation through the hook", async () => {
  const target = icon.citations.occurrences[2];
  await page.locator(`.message [data-citation-ordinal='${target.ordinal}'] i.test-icon`).click();
  const calls = await page.evaluate(() => test.calls.splice(0));
  const title = icon.citations.sources.find((s) => s.number === target.number).source.title;
  assert.deepEqual(calls, [{ tag: "first", ordinal: target.ordinal, key: target.key, title }]);
  assert.ok(page.url().endsWith("/react.html"), "the link click was intercepted");
});

test("a re-render with new handlers calls the latest one; new HTML moves the portals", async () => {
  // Same html and citations objects: the hook must not need to re-hydrate to see the new handler.
  await page.evaluate(() => test.render("icon", "second"));
  await page.locator(".message .citation i.test-icon").first().click();
  assert.deepEqual((await page.evaluate(() => test.calls.splice(0))).map((c) => c.tag), ["second"]);

  await page.evaluate(() => test.render("embedded", "embedded"));
  assert.equal(await page.locator(".message button.citation").count(), embedded.citations.occurrences.length);
  assert.deepEqual(await placeholders(), expectedIcons(embedded));
  await page.locator(".message button.citation").last().press("Enter");
  const calls = await page.evaluate(() => test.calls.splice(0));
  assert.deepEqual(calls.map((c) => [c.tag, c.ordinal]), [["embedded", embedded.citations.occurrences.length]]);
});

test("unmounting removes the listener and the icons", async () => {
  const handle = await page.locator(".message button.citation").first().elementHandle();
  await page.evaluate(() => test.unmount());
  await handle.evaluate((button) => button.click()); // detached, but its listener would still run
  assert.deepEqual(await page.evaluate(() => test.calls), []);
  assert.equal(await page.locator("i.test-icon").count(), 0);
});

test("no page errors", () => assert.deepEqual(errors, []));
