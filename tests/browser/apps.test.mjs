// The Vite example apps (examples/svelte-app, examples/react-app), as `vite
// build` produced them with the packed package installed (`make apps`; `make
// test-browser` does), served from their dist/ folders on 127.0.0.1: every
// citation clicked in every mode reaches the app's onActivate (its panel),
// and a Ctrl+click on a citation link is left to the browser.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { ctrlClick, launch, openPage } from "./support/browser.mjs";
import { REPO, serveStatic } from "../../scripts/serve.mjs";

const MODES = ["link", "button", "icon"];
const markdown = readFileSync(path.join(REPO, "examples/answer.md"), "utf8");
const { sources } = JSON.parse(readFileSync(path.join(REPO, "examples/sources.json"), "utf8"));

let browser, render;

before(async () => {
  assert.ok(existsSync(path.join(REPO, "pkg/dist/default/citemark.js")), "pkg/dist is missing: run `make pkg`");
  ({ render } = await import("../../pkg/src/index.js"));
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

for (const app of ["svelte-app", "react-app"]) {
  describe(app, () => {
    let server, context, page, errors;

    before(async () => {
      const dist = path.join(REPO, "examples", app, "dist");
      assert.ok(existsSync(path.join(dist, "index.html")), `${dist} is missing: run \`make apps\``);
      server = await serveStatic({ "/": dist });
      // Ready once the app has rendered the message's citations.
      ({ context, page, errors } = await openPage(browser, server.origin, "/", () =>
        document.querySelector(".message [data-citation-key]"),
      ));
    });

    after(async () => {
      await context?.close();
      await server?.close();
    });

    test("every citation in every mode activates with its own source", async () => {
      for (const mode of MODES) {
        await page.check(`input[name=mode][value=${mode}]`);
        const { citations } = render(markdown, { sources, mode });
        const elements = page.locator(".message .body [data-citation-key]");
        // The re-render has landed once the first element is of the new mode.
        const tag = mode === "button" ? "button" : "a";
        await page.waitForFunction((tag) => document.querySelector(".message .body [data-citation-key]")?.localName === tag, tag);
        assert.equal(await elements.count(), citations.occurrences.length, `${mode}: one element per occurrence`);
        if (mode === "icon" && app === "react-app") {
          // The React icon component, portalled into every placeholder.
          const filled = await page.$$eval(".message .citation-icon", (spans) => spans.map((s) => s.querySelector("svg") !== null));
          assert.equal(filled.length, citations.occurrences.length, "one placeholder per citation");
          assert.ok(filled.every(Boolean), "every placeholder holds the icon component");
        }
        for (const [i, o] of citations.occurrences.entries()) {
          const element = elements.nth(i);
          assert.equal(await element.evaluate((e) => e.localName), tag, `${mode} #${o.ordinal}: element`);
          await element.click();
          const panel = Object.fromEntries(
            await page.$$eval(".activated dd", (dds) => dds.map((dd) => [dd.dataset.field, dd.textContent])),
          );
          const source = citations.sources.find((s) => s.number === o.number)?.source;
          assert.deepEqual(
            panel,
            { title: source.title, href: source.href, kind: o.kind, key: o.key, ordinal: String(o.ordinal) },
            `${mode} #${o.ordinal} (${o.kind} ${o.key}): panel`,
          );
        }
        assert.ok(page.url().startsWith(server.origin), `${mode}: no click navigated away`);
      }
      assert.deepEqual(errors, []);
    });

    test("Ctrl+click on a citation link opens it in a new tab, without onActivate", async () => {
      await page.check("input[name=mode][value=link]");
      await page.waitForFunction(() => document.querySelector(".message .body [data-citation-key]")?.localName === "a");
      // Activate one citation so that the panel has something to lose.
      await page.locator(".message .body [data-citation-ordinal='1']").click();
      const before = await page.locator(".activated").innerHTML();
      const link = page.locator(".message .body [data-citation-ordinal='2']");
      const { newTab, prevented } = await ctrlClick(context, page, link);
      assert.equal(prevented, false, "the click's default action was not prevented");
      assert.equal(newTab, true, "the link opened in a new tab");
      assert.equal(await page.locator(".activated").innerHTML(), before, "onActivate did not run");
      assert.deepEqual(errors, []);
    });
  });
}
