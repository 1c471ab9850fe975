// Shared by the Node tests: the repository's samples, snapshots, adapter
// fixtures and XSS corpora, an HTML checker built on parse5, and a page's
// result in headless Chromium.
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseFragment } from "parse5";

/** The repository root (run.mjs sets it; the tests run in a scratch copy). */
export const repo = process.env.CITEMARK_REPO ?? resolve(import.meta.dirname ?? ".", "..", "..");

const read = (...parts) => readFileSync(join(repo, ...parts), "utf8");

/** An insta snapshot's contents (after its `---` header). */
export function snapshot(name) {
  const text = read("tests", "snapshots", `${name}.snap`);
  const match = /^---\n[\s\S]*?\n---\n/.exec(text);
  if (!match) throw new Error(`${name}.snap: no insta header`);
  return text.slice(match[0].length);
}

/** The answers in tests/samples with the options tests/snapshots.rs renders them with. */
export function samples() {
  const dir = join(repo, "tests", "samples");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".md") && f !== "README.md")
    .sort()
    .map((file) => {
      const name = file.slice(0, -3);
      const markdown = read("tests", "samples", file);
      const sourcesPath = join(dir, `${name}.sources.json`);
      let options = {};
      if (existsSync(sourcesPath)) {
        const json = JSON.parse(readFileSync(sourcesPath, "utf8"));
        options = Array.isArray(json)
          ? { sources: json }
          : { sources: json.sources ?? [], ...(json.aliases ? { aliases: json.aliases } : {}) };
      }
      return { name, markdown, options };
    });
}

/** The provider fixtures tests/adapters.rs uses, `PROVIDER-CASE.json`. */
export function adapterFixtures() {
  const dir = join(repo, "tests", "fixtures", "adapters");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file) => ({
      name: file.slice(0, -5),
      provider: file.split("-")[0],
      text: readFileSync(join(dir, file), "utf8"),
    }));
}

/**
 * The XSS corpora directory: $CITEMARK_CORPORA, else ../shared/corpora next to
 * the repository. `null` (said loudly) when absent; under CI=true absence throws.
 */
export function corporaDir() {
  const dir = process.env.CITEMARK_CORPORA || resolve(repo, "..", "shared", "corpora");
  if (existsSync(dir)) return dir;
  if (process.env.CI === "true") {
    throw new Error(`corpora not found at ${dir} and CI=true: the XSS tests must run in CI`);
  }
  console.error(`\n*** corpora not found at ${dir}, skipped ***\n`);
  return null;
}

const FORBIDDEN_ELEMENTS = new Set([
  "script", "iframe", "frame", "frameset", "object", "embed", "applet", "svg", "math", "style",
  "form", "base", "link", "meta",
]);
const FORBIDDEN_ATTRIBUTES = new Set(["style", "formaction", "srcdoc"]);
const URL_ATTRIBUTES = new Set([
  "href", "src", "action", "xlink:href", "data", "poster", "background", "codebase", "dynsrc", "lowsrc",
]);
const ALLOWED_SCHEMES = new Set(["http", "https", "mailto"]);

/** The scheme a browser would honour, when it is not http(s)/mailto (WHATWG URL preprocessing). */
function disallowedScheme(url) {
  const cleaned = url.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "").replace(/[\t\n\r]/g, "");
  const m = /^([^:/?#]*):/.exec(cleaned);
  if (!m || !/^[A-Za-z][A-Za-z0-9+.-]*$/.test(m[1])) return null;
  const scheme = m[1].toLowerCase();
  return ALLOWED_SCHEMES.has(scheme) ? null : scheme;
}

/** Every script-capable construct in `html`, parsed as a browser parses a fragment. */
export function violations(html) {
  const found = [];
  const walk = (node) => {
    if (node.tagName) {
      const tag = node.tagName.toLowerCase();
      if (FORBIDDEN_ELEMENTS.has(tag)) found.push(`<${tag}> element`);
      for (const { name: raw, value } of node.attrs ?? []) {
        const name = raw.toLowerCase();
        if (name.startsWith("on") || FORBIDDEN_ATTRIBUTES.has(name)) {
          found.push(`<${tag} ${name}=${JSON.stringify(value)}>`);
        } else if (URL_ATTRIBUTES.has(name)) {
          const scheme = disallowedScheme(value);
          if (scheme) found.push(`<${tag} ${name}=${JSON.stringify(value)}> scheme ${scheme}`);
        }
      }
    }
    for (const child of node.childNodes ?? []) walk(child);
    if (node.content) walk(node.content); // <template>
  };
  walk(parseFragment(html));
  return found;
}

/** Cuts `text` into chunks of `size` UTF-16 code units (surrogate pairs may split). */
export function chunks(text, size) {
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** Debian's Chromium, which the browser tests drive (installed by `make test`). */
export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/** Whether Chromium is there; without it a test is skipped loudly, and fails under CI. */
export function haveChromium(what) {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI === "true") throw new Error(`${CHROMIUM} not found and CI=true`);
  console.error(`\n*** ${CHROMIUM} not found: ${what} skipped (apt-get install chromium) ***\n`);
  return false;
}

/**
 * Opens `url` in headless Chromium, waits for the page to set `window.result`,
 * fails on any page error, console error or failed load, and returns the
 * result and the browser's version.
 */
export async function pageResult(url, timeout = 60000) {
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    // A failed load is reported by URL below (the favicon a page never asked for aside).
    page.on("console", (m) => m.type() === "error" && !m.text().startsWith("Failed to load resource") && errors.push(m.text()));
    page.on("response", (r) => r.status() >= 400 && !r.url().endsWith("/favicon.ico") && errors.push(`${r.status()} ${r.url()}`));
    await page.goto(url);
    await page.waitForFunction(() => window.result !== undefined, null, { timeout }).catch(() => {});
    assert.deepEqual(errors, []);
    return { result: await page.evaluate(() => window.result), version: await browser.version() };
  } finally {
    await browser.close();
  }
}

/**
 * Patches assembled as a host that keeps a string does (the crate's
 * `StreamedHtml`): `rewind` cuts back to the mark, `mark` moves it, then
 * `append` and `citations` are added. Also checks each patch's steps: they
 * cover `append` in UTF-16 units, open only elements, and close what is open.
 */
/** The end tags that close the element an open step's `piece` opens. */
export function endTagsOf(piece) {
  const kinds = [
    ["<pre><code", "</code></pre>"],
    ["<table>", "</tbody></table>"],
    ["<ul>", "</ul>"],
    ["<ol", "</ol>"],
    ["<blockquote", "</blockquote>"],
    ["<details", "</details>"],
    ["<div", "</div>"],
    ["<section", "</section>"],
    ["<article", "</article>"],
    ["<aside", "</aside>"],
  ];
  const kind = kinds.find(([start]) => piece.startsWith(start));
  assert.ok(kind, `an open step of an unknown element: ${piece}`);
  return kind[1];
}

export class Assembly {
  html = "";
  citations = [];
  /** The open elements' opening pieces, innermost last. */
  open = [];
  /** Where each open element's content starts in `html`. */
  #contents = [];
  #mark = { html: 0, citations: 0, open: [], contents: [] };

  apply(patch, where = "") {
    if (patch.rewind) {
      // (What was opened after the mark goes with it.)
      this.open = this.#mark.open.slice();
      this.#contents = this.#mark.contents.slice();
      this.html = this.html.slice(0, this.#mark.html);
      this.citations.length = this.#mark.citations;
    }
    if (patch.mark) {
      // Only raw elements (`<details>`) may be open at a mark.
      const raw = ["<details", "<div", "<section", "<article", "<aside"];
      assert.ok(
        this.open.every((piece) => raw.some((start) => piece.startsWith(start))),
        `${where}: a mark inside ${this.open}`,
      );
      this.#mark = {
        html: this.html.length,
        citations: this.citations.length,
        open: this.open.slice(),
        contents: this.#contents.slice(),
      };
    }
    if (patch.empty !== undefined) {
      assert.ok(this.open.length > 0, `${where}: empty with nothing open`);
      assert.ok(patch.empty <= this.citations.length, `${where}: empty keeps ${patch.empty} citations`);
      this.html = this.html.slice(0, this.#contents.at(-1));
      this.citations.length = patch.empty;
    }
    assert.equal(patch.steps.length === 0, patch.append === "", `${where}: steps empty exactly when append is`);
    let at = 0;
    for (const step of patch.steps) {
      const [[kind, length]] = Object.entries(step);
      assert.ok(Number.isInteger(length) && length > 0, `${where}: step ${JSON.stringify(step)}`);
      const piece = patch.append.slice(at, at + length);
      assert.equal(piece.length, length, `${where}: step ${JSON.stringify(step)} past the end of append`);
      // A step never cuts a surrogate pair (its length counts UTF-16 units).
      const low = (i) => piece.charCodeAt(i) >= 0xdc00 && piece.charCodeAt(i) <= 0xdfff;
      assert.ok(!low(0), `${where}: step ${JSON.stringify(step)} starts inside a surrogate pair`);
      if (kind === "open") {
        assert.match(piece, /^<[a-z]/, `${where}: an open step opens an element`);
        this.open.push(piece);
        this.#contents.push(this.html.length + at + length);
      } else if (kind === "close") {
        assert.match(piece, /^(<\/[a-z0-9]+>)+$/, `${where}: a close step is end tags`);
        assert.ok(this.open.pop() !== undefined, `${where}: a close step with nothing open`);
        this.#contents.pop();
      } else {
        assert.equal(kind, "html", `${where}: step kind`);
      }
      at += length;
    }
    assert.equal(at, patch.append.length, `${where}: the steps cover append`);
    this.html += patch.append;
    this.citations.push(...patch.citations);
  }
}
