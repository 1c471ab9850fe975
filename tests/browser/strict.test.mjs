// citemark on strict pages in Chromium (docs/reliability.md "Strict pages"):
// - Trusted Types: a test page served with `require-trusted-types-for 'script'`
//   and `trusted-types citemark` streams and renders through the `citemark`
//   policy with `trustedTypes: true`, and fails, as the page demands, without it;
//   so do citemark/react's CitemarkMessage and citemark/svelte's action;
// - CSP: the demo (www/) served with the strict policy docs/reliability.md gives
//   streams its conversation equal to render() with no violation reported, and
//   without 'wasm-unsafe-eval' citemark cannot load and says why.
// Needs the package built (`make pkg`; make test-browser does).

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { launch, openPage } from "./support/browser.mjs";
import { DEMO_MOUNTS, REPO, serveStatic } from "../../scripts/serve.mjs";
import { TURNS } from "../../www/conversation.js";

/** What citemark itself needs beyond 'self' (docs/reliability.md): compiling its wasm. */
const PACKAGE_SCRIPT_SRC = "'self' 'wasm-unsafe-eval'";
/** A strict policy around it: nothing inline, nothing from elsewhere. */
const strict = (scriptSrc) =>
  `default-src 'none'; script-src ${scriptSrc}; style-src 'self'; img-src 'self'; connect-src 'self'; ` +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The inline scripts of the page `file` (`count` of them), by hash, for script-src. */
function inlineHashes(file, count) {
  const html = readFileSync(path.join(REPO, file), "utf8");
  const scripts = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  assert.equal(scripts.length, count, `${file}: inline scripts`);
  return scripts.map((text) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`).join(" ");
}

/** The demo's own inline scripts (its import map and load-error handler), by hash. */
const demoInlineHashes = () => inlineHashes("www/index.html", 2);

/** The Trusted Types policy of the test pages, around the strict one. */
const TRUSTED_TYPES = "require-trusted-types-for 'script'; trusted-types citemark";

let browser;
before(async () => {
  const entry = path.join(REPO, "pkg/dist/default/citemark.js");
  assert.ok(existsSync(entry), `${entry} is missing: run \`make pkg\` (make test-browser does)`);
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe("Trusted Types: require-trusted-types-for 'script'", () => {
  let server, page, errors, context;
  before(async () => {
    server = await serveStatic(
      {
        "/pkg/src/": path.join(REPO, "pkg/src"),
        "/pkg/dist/": path.join(REPO, "pkg/dist"),
        "/pages/": path.join(REPO, "tests/browser/pages"),
      },
      0,
      { "content-security-policy": `${strict(PACKAGE_SCRIPT_SRC)}; ${TRUSTED_TYPES}` },
    );
    ({ context, page, errors } = await openPage(browser, server.origin, "/pages/trusted.html"));
  });
  after(async () => {
    await context?.close();
    await server?.close();
  });

  const ANSWER = [
    "## Revenue [1]",
    "",
    "Grew **8%** in EMEA <cite id=\"call_1\">per the report</cite> 😀 and [2].",
    "",
    "| region | growth |",
    "| --- | ---: |",
    "| EMEA | 8% [1] |",
    "",
    "```js",
    ...Array.from({ length: 40 }, (_, i) => `const line${i} = "<b>${i}</b>";`),
    "```",
    "",
    "- one [2]",
    "- two",
    "",
  ].join("\n");
  const SOURCES = [
    { id: "call_1", title: "Revenue", href: "https://app.example/q/1" },
    { index: 2, title: "DACH", href: "https://app.example/d/2" },
  ];

  test("the page enforces it: a string into innerHTML or a plain stream's patches is refused", async () => {
    const refused = await page.evaluate(({ answer }) => {
      const { citemark, mountStream } = window.test;
      const out = [];
      try {
        document.getElementById("other").innerHTML = citemark.render(answer).html;
        out.push("innerHTML accepted a string");
      } catch (e) {
        out.push(e.name);
      }
      try {
        mountStream(document.getElementById("other"), { mode: "icon" }).push(answer);
        out.push("mountStream without trustedTypes worked");
      } catch (e) {
        out.push(e.name);
      }
      return out;
    }, { answer: ANSWER });
    assert.deepEqual(refused, ["TypeError", "TypeError"]);
    errors.length = 0;
    await page.evaluate(() => (window.test.violations.length = 0));
  });

  test("with trustedTypes, render and mountStream go through the citemark policy and end equal to render()", async () => {
    const result = await page.evaluate(({ answer, sources }) => {
      const { citemark, mountStream } = window.test;
      const options = { sources, mode: "icon", trustedTypes: true };
      const rendered = citemark.render(answer, options);
      const reference = document.createElement("template");
      reference.innerHTML = rendered.html;
      const root = document.getElementById("root");
      const view = mountStream(root, options);
      let pushes = 0;
      for (let i = 0; i < answer.length; i += 4) {
        view.pushDeferred(answer.slice(i, i + 4));
        if (i % 64 === 0) view.paint();
        pushes++;
      }
      view.finish();
      view.destroy();
      return {
        isTrusted: trustedTypes.isHTML(rendered.html),
        pushes,
        streamed: root.innerHTML,
        expected: reference.innerHTML,
        icons: root.querySelectorAll(".citation-icon").length,
        violations: window.test.violations.slice(),
      };
    }, { answer: ANSWER, sources: SOURCES });
    assert.equal(result.isTrusted, true, "render's html is a TrustedHTML");
    assert.ok(result.pushes > 100);
    assert.equal(result.streamed, result.expected, "streamed DOM = render()");
    assert.ok(result.icons >= 4, `icon placeholders: ${result.icons}`);
    assert.deepEqual(result.violations, []);
    assert.deepEqual(errors, []);
  });

  test("with trustedTypes, mountPatches takes only a trusted stream's own patches and TrustedHTML tails", async () => {
    const result = await page.evaluate(() => {
      const { citemark, mountPatches } = window.test;
      const view = mountPatches(document.getElementById("other"), { trustedTypes: true });
      const out = [];
      const attempt = (what, f) => {
        try {
          f();
          out.push(`${what}: accepted`);
        } catch (e) {
          out.push(`${what}: ${e.name}`);
        }
      };
      const stream = citemark.createStream({ trustedTypes: true });
      const patch = stream.push("Some *text* and more\n\nNext");
      attempt("a trusted stream's patch", () => view.apply(patch));
      attempt("a copy of it", () => view.apply({ ...patch }));
      attempt("a hand-made patch", () => view.apply({ append: "<img src=x onerror=alert(1)>" }));
      attempt("a change to a trusted patch", () => {
        patch.append = "<img src=x onerror=alert(1)>";
        if (patch.append !== "<img src=x onerror=alert(1)>") throw new TypeError("frozen");
      });
      attempt("a plain stream's patch", () => view.apply(citemark.createStream().push("x")));
      attempt("a string tail", () => view.setTail("<img src=x onerror=alert(1)>"));
      attempt("a TrustedHTML tail", () => view.setTail(stream.tail()));
      attempt("a string tail change", () => view.changeTail({ insert: "<img src=x onerror=alert(1)>", depth: 0, before: 0 }));
      attempt("a trusted stream's tail changes", () => {
        const changed = mountPatches(document.createElement("div"), { trustedTypes: true });
        const typed = citemark.createStream({ trustedTypes: true });
        for (const chunk of ["Some *te", "xt* and", " more"]) {
          changed.apply(typed.pushDeferred(chunk));
          changed.changeTail(typed.tailChange());
        }
        typed.free();
        if (changed.element.innerHTML !== "<p>Some <em>text</em> and more</p>\n") throw new Error(changed.element.innerHTML);
      });
      stream.free();
      return { out, html: document.getElementById("other").innerHTML };
    });
    assert.deepEqual(result.out, [
      "a trusted stream's patch: accepted",
      "a copy of it: TypeError",
      "a hand-made patch: TypeError",
      "a change to a trusted patch: TypeError",
      "a plain stream's patch: TypeError",
      "a string tail: TypeError",
      "a TrustedHTML tail: accepted",
      "a string tail change: TypeError",
      "a trusted stream's tail changes: accepted",
    ]);
    assert.doesNotMatch(result.html, /onerror/);
    assert.match(result.html, /<em>text<\/em>/);
  });
});

describe("Trusted Types through citemark/react and citemark/svelte", () => {
  let server, page, errors, context;
  before(async () => {
    server = await serveStatic(
      {
        "/pkg/src/": path.join(REPO, "pkg/src"),
        "/pkg/dist/": path.join(REPO, "pkg/dist"),
        "/pages/": path.join(REPO, "tests/browser/pages"),
        "/vendor/react/": path.join(REPO, "tests/browser/node_modules/react/umd"),
        "/vendor/react-dom/": path.join(REPO, "tests/browser/node_modules/react-dom/umd"),
      },
      0,
      {
        "content-security-policy":
          `${strict(`${PACKAGE_SCRIPT_SRC} ${inlineHashes("tests/browser/pages/trusted-components.html", 1)}`)}; ${TRUSTED_TYPES}`,
      },
    );
    ({ context, page, errors } = await openPage(browser, server.origin, "/pages/trusted-components.html"));
  });
  after(async () => {
    await context?.close();
    await server?.close();
  });

  const ANSWER = [
    "## Revenue [1]",
    "",
    "Grew **8%** in EMEA <cite id=\"call_1\">per the report</cite> and [2].",
    "",
    "```js",
    ...Array.from({ length: 12 }, (_, i) => `const line${i} = "<b>${i}</b>";`),
    "```",
    "",
    "- one [2]",
    "- two",
    "",
  ].join("\n");
  const SOURCES = [
    { id: "call_1", title: "Revenue", href: "https://app.example/q/1" },
    { index: 2, title: "DACH", href: "https://app.example/d/2" },
  ];

  for (const [name, fn] of [["React's CitemarkMessage", "streamReact"], ["Svelte's citemark action", "streamSvelte"]]) {
    test(`${name} streams the accumulated text through the citemark policy`, async () => {
      const result = await page.evaluate(
        ({ answer, sources, fn, id }) => {
          const element = document.getElementById(id);
          const options = { sources, trustedTypes: true };
          window.test[fn](element, answer, options, 7);
          return {
            html: element.querySelector(".citemark")?.innerHTML ?? element.innerHTML,
            expected: window.test.expected(answer, { sources }),
            violations: window.test.violations.slice(),
          };
        },
        { answer: ANSWER, sources: SOURCES, fn, id: fn === "streamReact" ? "react" : "svelte" },
      );
      assert.equal(result.html, result.expected, "the streamed message = render()");
      assert.match(result.html, /citation-icon/);
      assert.deepEqual(result.violations, []);
      assert.deepEqual(errors, []);
    });
  }
});

describe("Content-Security-Policy: the demo under a strict policy", () => {
  test(`with script-src ${PACKAGE_SCRIPT_SRC} (and the demo's inline-script hashes), it streams equal to render(), no violation`, async () => {
    const server = await serveStatic(DEMO_MOUNTS, 0, {
      "content-security-policy": strict(`${PACKAGE_SCRIPT_SRC} ${demoInlineHashes()}`),
    });
    const { render } = await import("../../pkg/src/index.js");
    const { context, page, errors } = await openPage(browser, server.origin, "/", () => document.getElementById("chat") !== null);
    try {
      await page.evaluate(() => {
        window.violations = [];
        document.addEventListener("securitypolicyviolation", (e) => window.violations.push(`${e.violatedDirective}: ${e.blockedURI}`));
      });
      await page.selectOption("#speed", "10");
      await page.click("#replay");
      await page.waitForFunction(() => document.documentElement.dataset.state === "done", null, { timeout: 60_000 });
      const bodies = await page.$$eval(".message.assistant .body", (nodes) => nodes.map((n) => n.innerHTML));
      assert.equal(bodies.length, TURNS.length);
      const answers = await Promise.all(TURNS.map(async (turn) => (await fetch(server.origin + turn.answerUrl)).text()));
      const sources = JSON.parse(await (await fetch(`${server.origin}/examples/sources.json`)).text()).sources;
      const { renderOptions } = await import("../../www/conversation.js");
      const expected = await page.evaluate(
        (htmls) => htmls.map((html) => Object.assign(document.createElement("template"), { innerHTML: html }).innerHTML),
        answers.map((markdown, turn) => render(markdown, renderOptions(sources, "link", turn)).html),
      );
      assert.deepEqual(bodies, expected, "streamed = render()");
      assert.deepEqual(await page.evaluate(() => window.violations), []);
      assert.deepEqual(errors.filter((e) => !/Failed to load resource/.test(e)), []);
    } finally {
      await context.close();
      await server.close();
    }
  });

  test("without 'wasm-unsafe-eval', citemark cannot compile its wasm and its error names the directive", async (t) => {
    const server = await serveStatic(DEMO_MOUNTS, 0, {
      "content-security-policy": strict(`'self' ${demoInlineHashes()}`),
    });
    const { context, page, errors } = await openPage(browser, server.origin, "/", () => document.getElementById("chat") !== null);
    try {
      const failure = await page.evaluate(async () => {
        const citemark = await import("/pkg/src/index.js");
        try {
          await citemark.ready;
          citemark.render("x");
          return "loaded";
        } catch {
          try {
            citemark.render("x");
            return "rendered";
          } catch (e) {
            return e.message;
          }
        }
      });
      t.diagnostic(failure);
      assert.match(failure, /^citemark: the WebAssembly module failed to load: .*wasm-unsafe-eval/);
      // (The browser's report reaches the test as a console event, which may
      // come after the evaluation returned: waited for, up to 5 s.)
      for (const until = Date.now() + 5000; errors.length === 0 && Date.now() < until; ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.ok(errors.length > 0, "the page reports the refused compilation");
    } finally {
      await context.close();
      await server.close();
    }
  });
});
