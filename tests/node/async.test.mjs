// The asynchronous entries (`citemark/async`, `citemark/lite/async`) under
// Node, which resolve them through the "node" export condition: the .wasm file
// read from disk and compiled on import, so they are ready at once and render,
// stream and adapt as the synchronous entries do. Their browser form (fetch +
// asynchronous compile) is tested in Chromium by browser.test.mjs (a plain
// page) and bundlers.test.mjs (Vite build and dev server, webpack).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { test } from "node:test";

import * as citemark from "citemark";
import * as asyncEntry from "citemark/async";
import * as lite from "citemark/lite";
import * as liteAsync from "citemark/lite/async";
import { adapterFixtures, samples } from "./helpers.mjs";

const require = createRequire(import.meta.url);

test("the async entries export the documented API and are ready on import under Node", async () => {
  for (const entry of [asyncEntry, liteAsync]) {
    assert.deepEqual(Object.keys(entry).sort(), ["adapt", "createStream", "engine", "init", "memoryBytes", "ready", "render", "reset"]);
    // The components' `api`: the entry's own functions, in one frozen object.
    assert.deepEqual(entry.engine, { createStream: entry.createStream, render: entry.render, ready: entry.ready });
    assert.ok(Object.isFrozen(entry.engine));
    assert.ok(entry.memoryBytes() > 0, "instantiated on import, before ready is awaited");
    await entry.ready;
  }
  assert.notEqual(asyncEntry.render, citemark.render);
});

test("the async entries' .wasm is the binary the sync entries carry as base64", () => {
  const dir = require.resolve("citemark/package.json").replace(/package\.json$/, "");
  for (const entry of ["default", "lite"]) {
    const wasm = readFileSync(`${dir}dist/${entry}/citemark.wasm`);
    const payload = readFileSync(`${dir}dist/${entry}/citemark.wasm.js`, "utf8");
    assert.ok(wasm.length > 100_000, entry);
    assert.equal(Buffer.from(/"([A-Za-z0-9+/=]+)"/.exec(payload)[1], "base64").equals(wasm), true, entry);
  }
});

test("the async entries render, stream and adapt as the sync entries do", () => {
  for (const [entry, sync] of [[asyncEntry, citemark], [liteAsync, lite]]) {
    for (const { name, markdown, options } of samples()) {
      assert.deepEqual(entry.render(markdown, { ...options, mode: "icon" }), sync.render(markdown, { ...options, mode: "icon" }), name);
      const streamed = [entry, sync].map((api) => {
        const stream = api.createStream(options);
        const patches = [];
        for (let at = 0; at < markdown.length; at += 7) patches.push(stream.push(markdown.slice(at, at + 7)));
        patches.push(stream.finish());
        stream.free();
        return patches;
      });
      assert.deepEqual(streamed[0], streamed[1], `${name} streamed`);
    }
    for (const { name, provider, text } of adapterFixtures().slice(0, 4)) {
      assert.deepEqual(entry.adapt(provider, JSON.parse(text)), sync.adapt(provider, JSON.parse(text)), name);
    }
    assert.throws(() => entry.render("x", { mode: "fancy" }), TypeError);
  }
});
