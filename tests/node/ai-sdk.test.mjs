// examples/ai-sdk/to-citemark.js: an AI SDK `useChat` message (UIMessage
// parts: text, source-url, source-document, and parts it ignores) as
// citemark's markdown + sources, snapshot by snapshot as the message streams.
import assert from "node:assert/strict";
import { test } from "node:test";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { createStream, render } from "citemark";
import { repo } from "./helpers.mjs";

const { toCitemark } = await import(pathToFileURL(join(repo, "examples/ai-sdk/to-citemark.js")).href);

const ANSWER = [
  "EUR/GBP fell 1.8% in Q3 [1], while EUR/SEK rose [2][1].\n\n",
  "| pair | change |\n|---|---|\n| EUR/GBP | -1.8% [1] |\n\n",
  'The rollout notes say <cite id="notes">VAT IDs are required</cite>.',
];
const AFTER_TOOL = "Checked again: no change since [2].";

/** The snapshots `useChat` would hand out while the message streams, in order. */
function snapshots() {
  const parts = [{ type: "step-start" }];
  const out = [];
  const push = () => out.push({ id: "m1", role: "assistant", parts: structuredClone(parts) });
  parts.push({ type: "source-url", sourceId: "src-1", url: "https://rates.example/gbp", title: "EUR/GBP rates" });
  push();
  parts.push({ type: "source-url", sourceId: "src-2", url: "https://rates.example/sek" });
  parts.push({ type: "text", text: "", state: "streaming" });
  const text = ANSWER.join("");
  for (let at = 0; at < text.length; at += 5) {
    parts[3].text = text.slice(0, at + 5);
    push();
  }
  parts[3].state = "done";
  parts.push({ type: "source-document", sourceId: "notes", mediaType: "application/pdf", title: "Rollout notes", filename: "notes.pdf" });
  parts.push({ type: "source-url", sourceId: "src-1", url: "https://rates.example/gbp", title: "a repeat" });
  parts.push({ type: "tool-search", toolCallId: "t1", state: "output-available", input: {}, output: {} });
  parts.push({ type: "step-start" }, { type: "reasoning", text: "thinking…" }, { type: "text", text: "" });
  for (let at = 0; at < AFTER_TOOL.length; at += 4) {
    parts[parts.length - 1].text = AFTER_TOOL.slice(0, at + 4);
    push();
  }
  return out;
}

test("the sources: one per sourceId, numbered in order, URLs as hrefs, documents with their file", () => {
  const all = snapshots();
  const { markdown, sources } = toCitemark(all[all.length - 1]);
  assert.equal(markdown, `${ANSWER.join("")}\n\n${AFTER_TOOL}`);
  assert.deepEqual(sources, [
    { id: "src-1", index: 1, title: "EUR/GBP rates", href: "https://rates.example/gbp" },
    { id: "src-2", index: 2, title: "https://rates.example/sek", href: "https://rates.example/sek" },
    { id: "notes", index: 3, title: "Rollout notes", data: { mediaType: "application/pdf", filename: "notes.pdf" } },
  ]);
  assert.deepEqual(toCitemark({ role: "user", parts: [] }), { markdown: "", sources: [] });
  assert.deepEqual(toCitemark(undefined), { markdown: "", sources: [] });
});

test("rendered, every citation resolves to its source part", () => {
  const all = snapshots();
  const { markdown, sources } = toCitemark(all[all.length - 1]);
  const { citations } = render(markdown, { sources });
  const titles = citations.occurrences.map((o) => [o.key, citations.sources.find((s) => s.number === o.number)?.source.title]);
  assert.deepEqual(titles, [
    ["1", "EUR/GBP rates"],
    ["2", "https://rates.example/sek"],
    ["1", "EUR/GBP rates"],
    ["1", "EUR/GBP rates"],
    ["notes", "Rollout notes"],
    ["2", "https://rates.example/sek"],
  ]);
  assert.ok(citations.occurrences.every((o) => o.resolved));
});

test("while it streams, each snapshot's markdown extends the last: a stream fed the suffixes is render()", () => {
  const all = snapshots();
  assert.ok(all.length > 40, `${all.length} snapshots`);
  let last = "";
  let appended = "";
  let tail = "";
  const { sources } = toCitemark(all[all.length - 1]);
  const stream = createStream({ sources });
  try {
    for (const message of all) {
      const { markdown } = toCitemark(message);
      assert.ok(markdown.startsWith(last), `${JSON.stringify(markdown)} extends ${JSON.stringify(last)}`);
      const patch = stream.push(markdown.slice(last.length));
      assert.equal(patch.rewind, undefined);
      appended += patch.append;
      tail = patch.tail;
      last = markdown;
    }
    const final = stream.finish();
    assert.equal(appended + final.append, render(last, { sources }).html);
    assert.ok(tail.length > 0);
  } finally {
    stream.free();
  }
});
