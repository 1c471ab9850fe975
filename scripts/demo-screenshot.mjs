// The README's screenshot of the demo (docs/images/demo.png): the demo page
// (www/, served as `make demo` serves it) in Debian's headless Chromium, after
// the first answer has streamed, with a citation's tooltip showing.
//
//   make pkg && npm ci --prefix tests/browser
//   node scripts/demo-screenshot.mjs /tmp/demo.png
//   pngquant --quality 60-85 --speed 1 --strip -f -o docs/images/demo.png /tmp/demo.png
//
// Not part of any test: run it by hand when the demo's look changes.

import { launch, openPage } from "../tests/browser/support/browser.mjs";
import { serveStatic } from "./serve.mjs";

const out = process.argv[2] || "demo.png";
const server = await serveStatic();
const browser = await launch();
try {
  const { page, errors } = await openPage(browser, server.origin, "/");
  await page.setViewportSize({ width: 1100, height: 900 });
  // The fastest typing speed, then the conversation from the start.
  const speeds = await page.$$eval("#speed option", (options) => options.map((o) => o.value));
  await page.selectOption("#speed", speeds.at(-1));
  await page.click("#replay");
  await page.waitForFunction(() => document.querySelector("[data-state]")?.dataset.state === "done", null, { timeout: 120_000 });
  const citation = page.locator("a.citation").nth(1);
  await citation.click();
  await citation.hover();
  await page.waitForTimeout(400);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: out });
  if (errors.length) throw new Error(`the page reported errors:\n${errors.join("\n")}`);
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  server.close();
}
