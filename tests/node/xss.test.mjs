// The shared XSS corpora through the package (both entries): every payload,
// placed where citemark takes input, in every raw-HTML policy and citation
// mode, parsed with parse5 as a browser would parse it: no script-capable
// element, no on* attribute, no javascript:/data:/other-scheme URL.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import * as citemark from "citemark";
import * as lite from "citemark/lite";
import { corporaDir, violations } from "./helpers.mjs";

function payloads(dir) {
  const load = (name) => JSON.parse(readFileSync(join(dir, name), "utf8"));
  const out = [];
  for (const e of load("xss-dompurify.json")) out.push(e.payload);
  for (const e of load("xss-owasp.json")) {
    out.push(
      e.kind === "event_handler"
        ? `<img src=x ${e.payload}=alert(1)><a href="#" ${e.payload}="alert(1)">x</a> <cite id="a" ${e.payload}="alert(1)">y</cite>`
        : e.payload,
    );
  }
  for (const e of load("xss-html5sec.json").items) out.push(e.data_expanded, e.data);
  for (const e of load("xss-markdown.json")) out.push(e.markdown);
  return [...new Set(out.filter((p) => typeof p === "string" && p.length > 0))];
}

function variants(payload) {
  const attr = payload.replaceAll('"', "&quot;");
  return [
    [payload, {}],
    [`Text ${payload} more`, {}],
    [`[link](${payload}) ![img](${payload}) <${payload}>`, {}],
    [`[ref]\n\n[ref]: ${payload}`, {}],
    [`<cite id="${attr}">${payload}</cite> [1]`, {}],
    ["See <cite id=\"s\">this</cite> [1].", { sources: [{ id: "s", title: payload, href: payload, excerpt: payload }] }],
  ];
}

const corpora = corporaDir();

test("XSS corpora stay inert through the package", { skip: corpora ? false : "corpora not found, skipped" }, () => {
  const all = payloads(corpora);
  assert.ok(all.length > 500, `${all.length} payloads`);
  const failures = [];
  let renderings = 0;
  for (const [label, entry] of [["default", citemark], ["lite", lite]]) {
    for (const payload of all) {
      for (const [markdown, base] of variants(payload)) {
        for (const rawHtml of ["sanitize", "escape", "strip"]) {
          for (const [mode, embedded] of [["link", false], ["button", false], ["icon", true]]) {
            const { html } = entry.render(markdown, { ...base, rawHtml, mode, embedded });
            renderings++;
            for (const v of violations(html)) {
              if (failures.length < 20) failures.push(`${label} ${rawHtml} ${mode}: ${JSON.stringify(markdown).slice(0, 120)} -> ${v}`);
            }
          }
        }
      }
    }
  }
  console.log(`XSS: ${renderings} renderings of ${all.length} payloads, ${failures.length} violations`);
  assert.deepEqual(failures, []);
});

test("the checker itself catches what it must", () => {
  assert.deepEqual(violations('<p><img src="x" onerror="alert(1)"></p>'), ['<img onerror="alert(1)">']);
  assert.equal(violations('<a href=" java\tscript:alert(1)">x</a>').length, 1);
  assert.equal(violations("<svg><script>alert(1)</script></svg>").length, 2);
  assert.deepEqual(violations('<a href="https://ok.example/">ok</a> <a href="#f">f</a>'), []);
});
