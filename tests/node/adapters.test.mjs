// citemark/adapters: `adapt` in a wasm of its own, which the lite entries
// re-export (their own wasm leaves the adapters out) and the default entries
// do not need (their wasm holds them). The same results either way.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { test } from "node:test";

import * as citemark from "citemark";
import { adapt } from "citemark/adapters";
import * as lite from "citemark/lite";
import * as liteAsync from "citemark/lite/async";
import { adapterFixtures } from "./helpers.mjs";

const require = createRequire(import.meta.url);

test("the lite entries' adapt is citemark/adapters'; the default entry's wasm holds its own", () => {
  assert.equal(lite.adapt, adapt);
  assert.equal(liteAsync.adapt, adapt);
  assert.equal(require("citemark/lite").adapt, adapt);
  assert.notEqual(citemark.adapt, adapt);
  const dir = require.resolve("citemark/package.json").replace(/package\.json$/, "");
  const exported = (entry) => /^\s*function adapt\(/m.test(readFileSync(`${dir}dist/${entry}/citemark.js`, "utf8"));
  assert.deepEqual({ default: exported("default"), lite: exported("lite"), adapters: exported("adapters") }, { default: true, lite: false, adapters: true });
});

test("citemark/adapters adapts every fixture as the default entry does, and throws the same TypeErrors", () => {
  const fixtures = adapterFixtures();
  assert.ok(fixtures.length >= 10, "tests/fixtures/adapters");
  for (const { name, provider, text } of fixtures) {
    assert.deepEqual(adapt(provider, text), citemark.adapt(provider, text), name);
    assert.deepEqual(adapt(provider, JSON.parse(text)), citemark.adapt(provider, text), `${name} as an object`);
  }
  for (const [provider, response] of [["bard", {}], ["gemini", "{not json"], ["gemini", undefined]]) {
    const message = (f) => {
      try {
        f();
      } catch (e) {
        return `${e.constructor.name}: ${e.message}`;
      }
      return "no error";
    };
    const got = message(() => adapt(provider, response));
    assert.match(got, /^TypeError: /);
    assert.equal(got, message(() => citemark.adapt(provider, response)));
  }
});
