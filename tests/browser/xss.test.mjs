// Every XSS corpus vector (../shared/corpora, or $CITEMARK_CORPORA), placed
// where citemark takes input and rendered by the CLI with the options a user
// can pick (all documented as safe), then inserted with innerHTML into
// Chromium and hydrated: nothing may run, and the live DOM must hold no
// script-capable construct.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { REPO, renderBatch } from "./support/citemark.mjs";
import { launch, openPage } from "./support/browser.mjs";
import { page as testPage, serve } from "./support/server.mjs";

const CORPORA = process.env.CITEMARK_CORPORA || path.join(REPO, "../shared/corpora");
const CI = (process.env.CI ?? "").toLowerCase() === "true";
const BATCH = 250; // documents per page load
const XSS_PAGE = testPage({ scripts: ["/pages/hooks.js"], modules: ["/pages/xss-page.js"] });

/** Every vector of the four XSS corpora: [{corpus, index, text}] (see SOURCES.md). */
function vectors() {
  const load = (name) => JSON.parse(readFileSync(path.join(CORPORA, name), "utf8"));
  const list = [];
  const add = (corpus, index, ...texts) => {
    for (const text of new Set(texts.filter((t) => typeof t === "string" && t !== ""))) list.push({ corpus, index, text });
  };
  for (const e of load("xss-dompurify.json")) add("dompurify", e.index, e.payload);
  for (const e of load("xss-owasp.json")) {
    // Bare handler names (`onAbort`) become attacks on an element.
    const text = e.kind === "event_handler"
      ? `<img src=x ${e.payload}=alert(1)><a href="#" ${e.payload}="alert(1)">x</a> <cite id="a" ${e.payload}="alert(1)">y</cite>`
      : e.payload;
    add("owasp", e.index, text);
  }
  for (const e of load("xss-html5sec.json").items) add("html5sec", e.id, e.data_expanded, e.data);
  for (const e of load("xss-markdown.json")) add("markdown-it", e.index, e.markdown);
  return list;
}

const BENIGN = [{ id: "a", title: "Source A", href: "https://example.com/a", excerpt: "An excerpt." }];
// Settings a host may pick that are documented as safe but loosen the
// output: links opening new windows without `rel`, footnote ids unprefixed.
const LOOSE = { linkTarget: "_blank", linkRel: null, idPrefix: "" };

/**
 * The documents one vector becomes: [markdown, options (citemark's JSON
 * form)]. Raw-HTML sanitizing (the default, and the policy that keeps the
 * most) in every citation mode, plus strip and escape; sources unknown,
 * benign, and hostile (every field the vector). The Rust XSS test
 * (tests/xss.rs) covers more combinations, without a browser.
 */
function documents(p) {
  const hostile = [
    { id: "a", href: p, title: p, excerpt: p },
    { id: p, href: p, title: p },
  ];
  const citing = `[1] [2] <cite id="a">x</cite> <cite id="${p}">y</cite>`;
  return [
    [p, {}], // default options: sanitize, link mode, sources unknown
    [p, { mode: "button", sources: BENIGN }],
    [p, { rawHtml: "escape" }],
    [p, { mode: "icon", embedded: true, sources: BENIGN, ...LOOSE }],
    [p, { mode: "button", rawHtml: "strip", sources: BENIGN }],
    [`text ${p} text`, {}],
    [`before\n\n${p}\n\nafter\n`, { ...LOOSE }],
    [`[x](<${p}>) ![x](<${p}>) [y](${p}) <${p}>`, { linkTarget: "_blank" }],
    [`<cite id="a">${p}</cite> <cite id="${p}">x</cite> [1]`, { mode: "icon", sources: BENIGN }],
    [citing, { sources: hostile }],
    [citing, { mode: "icon", embedded: true, sources: hostile }],
  ];
}

// Known-bad HTML (not citemark's): each detector must catch these, or a
// clean result would mean nothing.
const CONTROLS = [
  [`<img src="x" onerror="alert('control-img')">`, "control-img"],
  [`<a href="javascript:alert('control-href')">x</a>`, "control-href"],
  [`<details open ontoggle="window.xss='control-toggle'">x</details>`, "control-toggle"],
  [`<div onmouseover="console.log('control-mouseover')">x</div>`, "control-mouseover"],
  // The frame's own CSP report goes to the frame, not to this page.
  [`<iframe srcdoc="<img src=x onerror=parent.alert('control-srcdoc')>"></iframe>`, "control-srcdoc", false],
];

let server, browser, page, errors;
const corporaPresent = existsSync(CORPORA);

before(async () => {
  server = await serve({ "/xss.html": XSS_PAGE });
  browser = await launch();
  ({ page, errors } = await openPage(browser, server.origin, "/xss.html"));
  page.on("dialog", (dialog) => {
    errors.push(`dialog: ${dialog.type()} ${dialog.message()}`);
    dialog.dismiss().catch(() => {});
  });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Loads a fresh XSS page and runs one batch in it. */
async function runBatch(docs) {
  await page.goto(`${server.origin}/xss.html`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
  const result = await page.evaluate((docs) => window.runBatch(docs), docs);
  // A payload that navigated the page away would show up here.
  assert.equal(new URL(page.url()).pathname, "/xss.html", "the page navigated away");
  return result;
}

test("the detectors catch known-bad HTML (controls)", async () => {
  const empty = { occurrences: [], sources: [], uncited: [], diagnostics: [] };
  for (const [html, marker, reportedHere = true] of CONTROLS) {
    const result = await runBatch([{ html, citations: empty }]);
    assert.ok(result.hits.some((hit) => hit.includes(marker)), `no hook saw ${marker}: ${result.hits}`);
    assert.equal(result.violations.length > 0, reportedHere, `CSP reports for ${marker}`);
    assert.ok(result.audits[0].length > 0, `the DOM audit passed ${marker}`);
  }
});

test("no XSS corpus vector runs or survives in Chromium", { timeout: 600_000 }, async (t) => {
  if (!corporaPresent) {
    const message = `corpora not found at ${CORPORA}, skipped (set CITEMARK_CORPORA)`;
    console.error(`\n*** ${message} ***\n`);
    if (CI) assert.fail(`${message}; CI=true requires them`);
    t.skip(message);
    return;
  }
  const started = Date.now();
  const list = vectors();
  const jobs = list.flatMap((vector) => documents(vector.text).map(([markdown, options]) => ({ vector, markdown, options })));
  const outputs = renderBatch(jobs.map(({ markdown, options }) => ({ markdown, options })));
  const renderedAt = Date.now();
  // The browser sees each distinct output once.
  const distinct = new Map();
  jobs.forEach((job, i) => distinct.has(outputs[i].html) || distinct.set(outputs[i].html, { ...job, ...outputs[i] }));
  const docs = [...distinct.values()];

  const failures = [];
  let activations = 0;
  let citationDocs = 0;
  for (let start = 0; start < docs.length; start += BATCH) {
    const batch = docs.slice(start, start + BATCH);
    const result = await runBatch(batch.map(({ html, citations }) => ({ html, citations })));
    activations += result.activations;
    const where = (i) => {
      if (i == null) return `the page of documents ${start}…${start + batch.length - 1}`;
      const { vector, options, markdown } = batch[i];
      const shown = { ...options, sources: options.sources && "…" };
      return `${vector.corpus} #${vector.index} ${JSON.stringify(shown)}: ${JSON.stringify(markdown).slice(0, 160)}`;
    };
    for (const hit of result.hits) failures.push(`ran: ${hit} in ${where(null)}`);
    for (const v of result.violations) failures.push(`CSP report: ${v.text} in ${where(v.doc)}`);
    result.audits.forEach((found, i) => found.forEach((f) => failures.push(`DOM: ${f} in ${where(i)}`)));
    citationDocs += batch.filter((d) => d.citations.occurrences.length > 0).length;
  }
  const summary =
    `xss (browser): ${list.length} vectors, ${jobs.length} documents rendered, ` +
    `${docs.length} distinct HTML outputs loaded in ${Math.ceil(docs.length / BATCH)} pages ` +
    `(${citationDocs} with citations, ${activations} citation activations); ` +
    `render ${((renderedAt - started) / 1000).toFixed(1)} s, browser ${((Date.now() - renderedAt) / 1000).toFixed(1)} s`;
  t.diagnostic(summary);
  assert.ok(list.length > 700, `only ${list.length} vectors loaded`);
  assert.deepEqual(failures, []);
  assert.deepEqual(errors, [], "dialogs or page errors");
});
