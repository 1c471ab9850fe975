// The package through `import`, as a user's ES module imports it: the Rust
// snapshots reproduced, streaming equal to render, adapters, TypeErrors.
import assert from "node:assert/strict";
import { test } from "node:test";

import * as citemark from "citemark";
import * as lite from "citemark/lite";
import { Assembly, adapterFixtures, chunks, samples, snapshot } from "./helpers.mjs";

const MODES = [
  ["link", false, "link"],
  ["button", false, "button"],
  ["icon", false, "icon"],
  ["icon", true, "icon-embedded"],
];

test("the entries export the documented API and are ready on import", async () => {
  for (const entry of [citemark, lite]) {
    assert.deepEqual(Object.keys(entry).sort(), ["adapt", "createStream", "engine", "init", "memoryBytes", "ready", "render", "reset"]);
    // The components' `api`: the entry's own functions, in one frozen object.
    assert.deepEqual(entry.engine, { createStream: entry.createStream, render: entry.render, ready: entry.ready });
    assert.ok(Object.isFrozen(entry.engine));
    await entry.ready;
    assert.equal(await entry.init(), undefined);
  }
});

test("samples render to the Rust snapshots in every mode, with the same index", () => {
  const all = samples();
  assert.ok(all.length >= 8, "tests/samples holds the shared fixtures");
  for (const { name, markdown, options } of all) {
    for (const [mode, embedded, suffix] of MODES) {
      const out = citemark.render(markdown, { ...options, mode, embedded });
      assert.equal(out.html.trimEnd(), snapshot(`snapshots__${name}.${suffix}.html`).trimEnd(), `${name} ${suffix}`);
    }
    const out = citemark.render(markdown, options);
    assert.deepStrictEqual(out.citations, JSON.parse(snapshot(`snapshots__${name}.index`)), `${name} index`);
  }
});

test("lite renders as the default entry does with rawHtml escape, and never passes raw HTML", () => {
  for (const { name, markdown, options } of samples()) {
    for (const rawHtml of [undefined, "sanitize", "escape", "strip"]) {
      const asLite = lite.render(markdown, { ...options, rawHtml });
      const expectedPolicy = rawHtml === "strip" ? "strip" : "escape";
      const expected = citemark.render(markdown, { ...options, rawHtml: expectedPolicy });
      assert.deepStrictEqual(asLite, expected, `${name} ${rawHtml}`);
    }
  }
  const raw = lite.render("<b onclick=x>bold</b>", {});
  assert.equal(raw.html, "<p>&lt;b onclick=x&gt;bold&lt;/b&gt;</p>\n");
  assert.equal(citemark.render("<b onclick=x>bold</b>").html, "<p><b>bold</b></p>\n");
});

function streamed(entry, markdown, options, size, deferred) {
  const stream = entry.createStream(options);
  // Appends with rewinds applied, each patch's steps checked.
  const assembly = new Assembly();
  for (const chunk of chunks(markdown, size)) {
    const patch = deferred ? stream.pushDeferred(chunk) : stream.push(chunk);
    if (deferred) {
      assert.equal(patch.tail, undefined);
      assert.equal(typeof stream.tail(), "string");
    } else {
      assert.equal(typeof patch.tail, "string");
    }
    assembly.apply(patch);
  }
  const last = stream.finish();
  assert.equal(last.tail, "");
  assembly.apply(last);
  const index = stream.citationIndex();
  stream.free();
  return { html: assembly.html, occurrences: assembly.citations, index };
}

test("createStream at several chunk sizes equals render", () => {
  for (const entry of [citemark, lite]) {
    for (const { name, markdown, options } of samples()) {
      const whole = entry.render(markdown, options);
      for (const [size, deferred] of [[1, false], [7, true], [64, false], [1 << 20, false]]) {
        const got = streamed(entry, markdown, options, size, deferred);
        assert.equal(got.html, whole.html, `${name} at ${size}`);
        assert.deepStrictEqual(got.occurrences, whole.citations.occurrences, `${name} at ${size}`);
        assert.deepStrictEqual(got.index, whole.citations, `${name} at ${size}`);
      }
    }
  }
});

test("a chunk may end inside a surrogate pair", () => {
  const markdown = "Emoji 😀 and 𝄞 [1]\n\nnext 😀\n";
  const whole = citemark.render(markdown);
  const got = streamed(citemark, markdown, {}, 1, false);
  assert.equal(got.html, whole.html);
  assert.ok(got.html.includes("😀") && got.html.includes("𝄞"));
});

test("setSources resolves what streams after it; null means not known", () => {
  const stream = citemark.createStream();
  // A block is final once a complete line follows the blank line after it.
  let html = stream.push("First [1].\n\nSecond [1].\n\n").append;
  assert.equal(stream.citationIndex().occurrences.length, 1, "First is final, Second still open");
  stream.setSources([{ title: "One", href: "https://one.example/" }]);
  html += stream.push("Third [1].\n").append;
  stream.setSources(null);
  html += stream.finish().append;
  assert.match(html, /<p>First <sup><a class="citation citation-unresolved"/);
  assert.match(html, /<p>Second <sup><a class="citation" href="https:\/\/one.example\/"/);
  assert.match(html, /<p>Third <sup><a class="citation citation-unresolved"/);
  assert.equal(stream.citationIndex().occurrences.length, 3);
});

test("adapters reproduce the Rust adapter snapshots", () => {
  const fixtures = adapterFixtures();
  assert.ok(fixtures.length >= 14);
  for (const { name, provider, text } of fixtures) {
    for (const response of [JSON.parse(text), text]) {
      const adapted = citemark.adapt(provider, response);
      assert.equal(adapted.markdown.trimEnd(), snapshot(`adapters__${name}.md`).trimEnd(), name);
      const rendered = citemark.render(adapted.markdown, { sources: adapted.sources, aliases: adapted.aliases });
      assert.equal(rendered.html.trimEnd(), snapshot(`adapters__${name}.html`).trimEnd(), name);
      assert.deepStrictEqual(
        { sources: adapted.sources, aliases: adapted.aliases, warnings: adapted.warnings, citations: rendered.citations },
        JSON.parse(snapshot(`adapters__${name}.adapted`)),
        name,
      );
      const damaged = name.includes("-malformed") || name.includes("-partial");
      assert.equal(adapted.warnings.length > 0, damaged, `${name}: warnings`);
    }
  }
});

function throwsTypeError(f, pattern) {
  assert.throws(f, (e) => {
    assert.ok(e instanceof TypeError, `${e} is a TypeError`);
    assert.match(e.message, pattern);
    return true;
  });
}

test("images are shown, linked or their alt text", () => {
  const md = "![chart](https://x.example/c.png)";
  for (const entry of [citemark, lite]) {
    assert.equal(entry.render(md).html, '<p><img src="https://x.example/c.png" alt="chart" /></p>\n');
    assert.equal(
      entry.render(md, { images: "link" }).html,
      '<p><a href="https://x.example/c.png" rel="noopener noreferrer nofollow">chart</a></p>\n',
    );
    assert.equal(entry.render(md, { images: "alt" }).html, "<p>chart</p>\n");
  }
});

test("bad options throw a TypeError naming the field path", () => {
  for (const entry of [citemark, lite]) {
    const cases = [
      [{ mode: "fancy" }, /^options\.mode: unknown variant `fancy`, expected one of `link`, `button`, `icon`/],
      [{ mode: 3 }, /^options\.mode: expected value/],
      [{ mod: "link" }, /^options\.mod: unknown field `mod`/],
      [{ sources: [{ id: "a" }, { index: "1" }] }, /^options\.sources\[1\]\.index: invalid type: string "1", expected u32/],
      [{ sources: [{ index: -1 }] }, /^options\.sources\[0\]\.index: invalid value: integer `-1`/],
      [{ sources: [{ titel: "x" }] }, /^options\.sources\[0\]\.titel: unknown field `titel`/],
      [{ sources: {} }, /^options\.sources: invalid type: map, expected a sequence/],
      [{ syntaxes: { markers: "yes" } }, /^options\.syntaxes\.markers: invalid type: string "yes", expected a boolean/],
      [{ aliases: { a: 1 } }, /^options\.aliases\.a: invalid type: integer `1`/],
      [{ rawHtml: "dangerouslyPassThrough" }, /^options\.rawHtml: unknown variant `dangerouslyPassThrough`/],
      [{ urls: "dangerouslyAllowAny" }, /^options\.urls: unknown variant/],
      [{ images: "hide" }, /^options\.images: unknown variant `hide`, expected one of `show`, `link`, `alt`/],
      [{ shortLinkPatterns: [{ template: "/x/{call}", key: "conversation" }] }, /^options\.shortLinkPatterns\[0\]: .*shortLinkPatterns/],
      ["{}", /^options: expected an object, got string/],
      [[], /^options: expected an object, got an array/],
    ];
    for (const [options, pattern] of cases) {
      throwsTypeError(() => entry.render("x [1]", options), pattern);
      throwsTypeError(() => entry.createStream(options), pattern);
    }
    throwsTypeError(() => entry.render(42), /^markdown: expected a string, got number 42/);
    throwsTypeError(() => entry.render("x", { sources: [{ index: 10n }] }), /^options: .*BigInt/);
    const stream = entry.createStream();
    throwsTypeError(() => stream.setSources([{ id: "a" }, { href: 1 }]), /^sources\[1\]\.href: invalid type: integer `1`, expected a string/);
    throwsTypeError(() => stream.setSources({}), /^sources: expected an array or null/);
    throwsTypeError(() => stream.push(7), /^chunk: expected a string/);
    throwsTypeError(() => entry.adapt("bard", {}), /^provider: unknown format "bard", expected one of openwebui, rag, gemini, openai, anthropic, perplexity, rill/);
    throwsTypeError(() => entry.adapt("gemini", "{not json"), /^response: not JSON/);
    throwsTypeError(() => entry.adapt("gemini", undefined), /^response: /);
    // A failed call leaves nothing behind.
    assert.equal(entry.render("ok [1]", { sources: [{ title: "t" }] }).citations.occurrences.length, 1);
    stream.push("still [1] fine\n\n");
    assert.equal(stream.finish().tail, "");
  }
});

test("undefined and null options are the defaults", () => {
  const md = "A [1] <cite id=\"x\">y</cite> https://example.com";
  const expected = citemark.render(md, {});
  assert.deepStrictEqual(citemark.render(md), expected);
  assert.deepStrictEqual(citemark.render(md, null), expected);
  assert.deepStrictEqual(citemark.render(md, { mode: undefined }), expected);
});
