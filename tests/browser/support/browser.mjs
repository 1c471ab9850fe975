// Debian's Chromium driven by playwright-core (no browser download here).

import { chromium } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

export function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * A fresh context whose every request off `origin` is aborted at once: the
 * network is closed anyway, and remote images then settle (fail) quickly.
 * Also opens a page on `origin + path` and waits for it to be ready: by
 * default for the harness's `data-ready`, else for the `ready` predicate
 * (evaluated in the page).
 */
export async function openPage(browser, origin, pagePath, ready = () => document.documentElement.dataset.ready === "1") {
  const context = await browser.newContext();
  await context.route("**/*", (route) =>
    route.request().url().startsWith(`${origin}/`) ? route.continue() : route.abort(),
  );
  const page = await context.newPage();
  // Uncaught exceptions, and what React and the browser report as errors or
  // warnings, but for the samples' images and links failing to load (the
  // network is closed, and relative URLs are 404s on the test server).
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => {
    const text = message.text();
    if (["error", "warning"].includes(message.type()) && !text.startsWith("Failed to load resource:")) {
      errors.push(`console.${message.type()}: ${text}`);
    }
  });
  await page.goto(origin + pagePath);
  await page.waitForFunction(ready);
  return { context, page, errors };
}

/**
 * Ctrl+clicks `locator` (a link) with the real mouse; resolves to whether a
 * new tab opened and whether anything called preventDefault() on the click
 * (seen by a listener on window, after the page's own listeners). The new
 * tab's navigation is not observable here: Chromium starts it before
 * Playwright attaches, and the closed network turns it into an error page.
 */
export async function ctrlClick(context, page, locator) {
  await page.evaluate(() => {
    window.lastClick = null;
    addEventListener("click", (event) => (window.lastClick = { prevented: event.defaultPrevented }), { once: true });
  });
  const opened = context.waitForEvent("page", { timeout: 10_000 }).catch(() => null);
  await locator.click({ modifiers: ["Control"] });
  const tab = await opened;
  await tab?.close();
  const click = await page.evaluate(() => window.lastClick);
  return { newTab: tab !== null, prevented: click?.prevented ?? null };
}
