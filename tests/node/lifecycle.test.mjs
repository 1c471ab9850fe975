// A stream's lifecycle through the packed package: clear errors after free()
// and after finish(); reset() giving linear memory back; the trustedTypes
// option where there are no Trusted Types (Node): strings, frozen patches.
import assert from "node:assert/strict";
import { test } from "node:test";

import * as citemark from "citemark";
import * as lite from "citemark/lite";

const METHODS = [
  ["push", ["more"]],
  ["pushDeferred", ["more"]],
  ["tail", []],
  ["openEndTags", []],
  ["finish", []],
  ["setSources", [[]]],
  ["citationIndex", []],
];

test("after free(), every method throws an Error saying the stream was freed; free() again does nothing", () => {
  for (const entry of [citemark, lite]) {
    const stream = entry.createStream();
    stream.push("Some **text**");
    stream.free();
    for (const [method, args] of METHODS) {
      assert.throws(
        () => stream[method](...args),
        (e) => e instanceof Error && !(e instanceof TypeError) &&
          e.message === `citemark: ${method}() on a stream that was freed; create a new stream`,
        method,
      );
    }
    stream.free();
  }
});

test("after finish(), push, pushDeferred and finish throw; reading the result still works", () => {
  const stream = citemark.createStream({ sources: [{ index: 1, title: "A", href: "https://a.example/" }] });
  stream.push("An answer [1]");
  const last = stream.finish();
  assert.equal(last.tail, "");
  for (const method of ["push", "pushDeferred", "finish"]) {
    assert.throws(
      () => stream[method]("x"),
      { message: `citemark: ${method}() after finish(): the stream is finished` },
      method,
    );
  }
  assert.equal(stream.tail(), "");
  assert.equal(stream.citationIndex().occurrences.length, 1);
  stream.free();
});

test("reset() drops the instance and its grown memory; older streams say so, later calls work", () => {
  const before = citemark.memoryBytes();
  assert.ok(before > 0, "an instance exists after import");
  // A large message grows linear memory, which never shrinks by itself.
  const big = "A paragraph of some length with *emphasis* and `code`.\n\n".repeat(80_000);
  citemark.render(big);
  const grown = citemark.memoryBytes();
  assert.ok(grown > before + 4 * big.length, `memory grew: ${before} -> ${grown}`);
  const old = citemark.createStream();
  citemark.reset();
  assert.equal(citemark.memoryBytes(), 0, "no instance until the next call");
  assert.throws(() => old.push("x"), {
    message: "citemark: push() on a lost stream: citemark was reset (reset()); create a new stream",
  });
  old.free();
  assert.equal(citemark.render("*a*").html, "<p><em>a</em></p>\n");
  const fresh = citemark.memoryBytes();
  assert.ok(fresh < grown / 4, `a fresh instance's memory: ${fresh} bytes (was ${grown})`);
});

test("trustedTypes: checked, kept from the crate's options, strings without Trusted Types, frozen patches", () => {
  assert.throws(() => citemark.render("a", { trustedTypes: "yes" }), {
    name: "TypeError",
    message: "options.trustedTypes: expected a boolean, got string yes",
  });
  assert.equal(citemark.render("*a*", { trustedTypes: true }).html, "<p><em>a</em></p>\n");
  const stream = citemark.createStream({ trustedTypes: true, mode: "icon" });
  const patch = stream.push("# Title\n\nText");
  assert.ok(Object.isFrozen(patch) && Object.isFrozen(patch.steps), "a trusted stream's patches are frozen");
  assert.equal(typeof patch.tail, "string");
  assert.equal(typeof stream.tail(), "string");
  assert.ok(!Object.isFrozen(citemark.createStream().push("x")), "other streams' patches are not");
  stream.free();
});
