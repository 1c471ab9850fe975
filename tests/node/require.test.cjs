// The package through `require`, as a CommonJS user loads it (the `require`
// condition of package.json `exports`).
"use strict";
const assert = require("node:assert/strict");
const { test } = require("node:test");

test("require('citemark') and require('citemark/lite') render", () => {
  const citemark = require("citemark");
  const lite = require("citemark/lite");
  for (const entry of [citemark, lite]) {
    for (const name of ["render", "adapt", "createStream", "init"]) {
      assert.equal(typeof entry[name], "function", name);
    }
    const out = entry.render("Up 4% [1].", { sources: [{ title: "Q3", href: "https://q.example/3" }] });
    assert.match(out.html, /^<p>Up 4% <sup><a class="citation" href="https:\/\/q\.example\/3" title="Q3"/);
    assert.equal(out.citations.occurrences[0].key, "1");
    assert.throws(() => entry.render("x", { mode: "fancy" }), TypeError);
  }
  assert.equal(citemark.render("<kbd>k</kbd>").html, "<p><kbd>k</kbd></p>\n");
  assert.equal(lite.render("<kbd>k</kbd>").html, "<p>&lt;kbd&gt;k&lt;/kbd&gt;</p>\n");
});

test("require and import share one module instance", async () => {
  const required = require("citemark");
  const imported = await import("citemark");
  assert.equal(required.render, imported.render);
});

test("require('citemark/async') and require('citemark/lite/async') load the .wasm file and render on the next line", () => {
  const pairs = [
    [require("citemark/async"), require("citemark")],
    [require("citemark/lite/async"), require("citemark/lite")],
  ];
  for (const [entry, sync] of pairs) {
    assert.notEqual(entry.render, sync.render, "its own module and instance");
    const markdown = "Up 4% [1] <kbd>k</kbd>.";
    const options = { sources: [{ title: "Q3", href: "https://q.example/3" }] };
    assert.deepEqual(entry.render(markdown, options), sync.render(markdown, options));
  }
});
