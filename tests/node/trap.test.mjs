// Trap containment (docs/reliability.md): the package's JS layer (pkg/src/api.js)
// over a test-only wasm built with the feature `test-trap`, which panics (and,
// built as the package is, with panics that abort, traps) on input holding TEST_TRAP. `make test-node`
// builds it into target/test-trap/ (`make test-trap-wasm`); the package's own
// wasm must not hold the marker.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { test } from "node:test";

import { repo } from "./helpers.mjs";

const TEST_TRAP = "citemark-test-trap:panic";
const testDir = join(repo, "target", "test-trap");
assert.ok(existsSync(join(testDir, "citemark.js")), "target/test-trap is missing: run `make test-trap-wasm`");

const { makeApi } = await import(pathToFileURL(join(repo, "pkg", "src", "api.js")));
const { createGlue } = await import(pathToFileURL(join(testDir, "citemark.js")));
const { default: payload } = await import(pathToFileURL(join(testDir, "citemark.wasm.js")));

const SOURCES = [{ id: "a", index: 1, title: "A", href: "https://a.example/" }];
const ANSWER = "# Title\n\nSome *text* with a citation [1].\n\n```rust\nfn main() {}\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";

function wasmOf(file) {
  const text = readFileSync(file, "utf8");
  return Buffer.from(/"([A-Za-z0-9+/=]+)"/.exec(text)[1], "base64");
}

test("the package's wasm does not hold the test-only trap; the test wasm does", () => {
  for (const entry of ["default", "lite"]) {
    const wasm = wasmOf(join(repo, "pkg", "dist", entry, "citemark.wasm.js"));
    assert.ok(wasm.length > 100_000, `${entry}: a real wasm`);
    assert.ok(!wasm.includes(Buffer.from(TEST_TRAP)), `${entry}: holds the test-only marker`);
  }
  assert.ok(wasmOf(join(testDir, "citemark.wasm.js")).includes(Buffer.from(TEST_TRAP)));
});

test("a trap in render throws an Error naming citemark and the input size; the next call works", () => {
  const api = makeApi(createGlue, payload);
  const before = api.render(ANSWER, { sources: SOURCES });
  const markdown = `${"x".repeat(1000)} ${TEST_TRAP}`;
  let thrown;
  assert.throws(
    () => api.render(markdown),
    (e) => {
      thrown = e;
      return true;
    },
  );
  assert.ok(thrown instanceof Error && !(thrown instanceof TypeError), `a plain Error, got ${thrown}`);
  assert.match(thrown.message, /^citemark: the WebAssembly instance trapped/);
  assert.match(thrown.message, new RegExp(`render\\(\\) of a ${markdown.length}-character markdown`));
  assert.ok(thrown.cause instanceof WebAssembly.RuntimeError, "the trap is the cause");
  // A new instance: the same output as before the trap, again and again.
  assert.deepEqual(api.render(ANSWER, { sources: SOURCES }), before);
  assert.throws(() => api.render(TEST_TRAP), /trapped/);
  assert.deepEqual(api.render(ANSWER, { sources: SOURCES }), before);
  assert.ok(api.memoryBytes() > 0);
});

test("streams created before a trap throw on their next call; the stream that trapped says where", () => {
  const api = makeApi(createGlue, payload);
  const older = api.createStream({ sources: SOURCES });
  older.push("Before the trap [1]");
  const trapping = api.createStream();
  trapping.push("abcd");
  trapping.push("efgh");
  assert.throws(
    () => trapping.push(`a chunk ${TEST_TRAP}`),
    (e) => {
      assert.ok(!(e instanceof TypeError));
      assert.match(e.message, /^citemark: the WebAssembly instance trapped/);
      assert.match(e.message, new RegExp(`push\\(\\) of a ${8 + TEST_TRAP.length}-character chunk, 8 characters into a stream`));
      return true;
    },
  );
  for (const stream of [older, trapping]) {
    for (const [method, args] of [
      ["push", ["more"]],
      ["pushDeferred", ["more"]],
      ["tail", []],
      ["openEndTags", []],
      ["finish", []],
      ["setSources", [SOURCES]],
      ["citationIndex", []],
    ]) {
      assert.throws(
        () => stream[method](...args),
        new RegExp(`^Error: citemark: ${method}\\(\\) on a lost stream: the WebAssembly instance trapped in push\\(\\)`),
        method,
      );
    }
    stream.free();
    stream.free();
  }
  // Streams made after the trap stream as before (appends + tail = render).
  const after = api.createStream({ sources: SOURCES });
  let html = "";
  for (let i = 0; i < ANSWER.length; i += 4) {
    const patch = after.push(ANSWER.slice(i, i + 4));
    assert.ok(!patch.rewind, "this answer never rewinds");
    html += patch.append;
  }
  html += after.finish().append;
  assert.equal(html, api.render(ANSWER, { sources: SOURCES }).html);
});

test("a trap in pushDeferred is contained too, and finishing nothing after it is refused", () => {
  const api = makeApi(createGlue, payload);
  const stream = api.createStream();
  assert.throws(() => stream.pushDeferred(TEST_TRAP), /trapped .* in pushDeferred\(\) of a 24-character chunk, 0 characters into a stream/);
  assert.throws(() => stream.finish(), /lost stream/);
  assert.equal(api.render("*ok*").html, "<p><em>ok</em></p>\n");
});

test("retired instances' streams can be collected without running code in them", async () => {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc");
  const api = makeApi(createGlue, payload);
  const uncaught = [];
  const onError = (e) => uncaught.push(e);
  process.on("uncaughtException", onError);
  try {
    for (let round = 0; round < 5; round++) {
      // Streams left for the garbage collector, on an instance that then traps.
      for (let i = 0; i < 50; i++) api.createStream().push("some text [1] and more");
      assert.throws(() => api.render(TEST_TRAP), /trapped/);
    }
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    process.off("uncaughtException", onError);
  }
  assert.deepEqual(uncaught, []);
  assert.equal(api.render("[1]", { sources: SOURCES }).citations.occurrences.length, 1);
});
