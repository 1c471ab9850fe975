// citemark/message (pkg/src/message.js), the core of the streamed-message
// components, on the citemark/dom test page: a message whose stream is lost
// (reset(), or a trap elsewhere) starts over once with a new stream; a stream
// that keeps failing stops the message until other text comes, instead of
// failing again on every update. (Its streaming behaviour is tested through
// the example apps: stream-apps.test.mjs.)

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { openDomPage } from "./support/server.mjs";
import { REPO } from "../../scripts/serve.mjs";

const markdown = readFileSync(path.join(REPO, "examples/answer.md"), "utf8");
const { sources } = JSON.parse(readFileSync(path.join(REPO, "examples/sources.json"), "utf8"));

let server, browser, page, errors;

before(async () => {
  ({ server, browser, page, errors } = await openDomPage());
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test("after reset(), a streaming message starts over with a new stream and ends as render()'s HTML", async () => {
  const result = await page.evaluate(
    async ({ markdown, sources }) => {
      const { mountMessage } = await import("/pkg/src/message.js");
      const { citemark, normalize } = window.test;
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      const root = document.getElementById("root");
      const options = { sources, mode: "icon" };
      let created = 0;
      const api = { createStream: (o) => (created++, citemark.createStream(o)) };
      const message = mountMessage(root, { api });
      const half = Math.floor(markdown.length / 2);
      for (let at = 8; at < half; at += 8) {
        message.update({ markdown: markdown.slice(0, at), options, streaming: true });
        await frame();
      }
      citemark.reset(); // the message's stream is lost
      const uncaught = [];
      window.addEventListener("error", (e) => uncaught.push(String(e.message)));
      for (let at = half; at < markdown.length; at += 8) {
        message.update({ markdown: markdown.slice(0, at), options, streaming: true });
        await frame();
      }
      message.update({ markdown, options, streaming: false });
      const same = root.innerHTML === normalize(citemark.render(markdown, options).html);
      message.destroy();
      return { created, uncaught, same, citations: message.citations().occurrences.length };
    },
    { markdown, sources },
  );
  assert.deepEqual(result.uncaught, []);
  assert.equal(result.created, 2, "one stream, then one after the reset");
  assert.equal(result.same, true, "the finished element is render()'s HTML");
  assert.ok(result.citations > 10);
  assert.deepEqual(errors, []);
});

test("a stream that keeps failing: the update throws once, later updates extending that text wait, other text recovers", async () => {
  const result = await page.evaluate(async () => {
    const { mountMessage } = await import("/pkg/src/message.js");
    const { citemark, normalize } = window.test;
    const root = document.getElementById("root");
    let created = 0;
    // A stream that fails (as a trap does: a plain Error) on any chunk holding "BOOM".
    const api = {
      createStream(options) {
        created++;
        const stream = citemark.createStream(options);
        const guard = (f) => (chunk) => {
          if (chunk.includes("BOOM")) throw new Error("citemark: a trap (simulated)");
          return f(chunk);
        };
        return Object.assign(Object.create(stream), {
          push: guard((c) => stream.push(c)),
          pushDeferred: guard((c) => stream.pushDeferred(c)),
          tail: () => stream.tail(),
          finish: () => stream.finish(),
          setSources: (s) => stream.setSources(s),
          citationIndex: () => stream.citationIndex(),
          free: () => stream.free(),
        });
      },
    };
    const message = mountMessage(root, { api });
    message.update({ markdown: "Fine [1].\n\n", options: { sources: [] } });
    const thrown = [];
    for (const markdown of ["Fine [1].\n\nBOOM", "Fine [1].\n\nBOOM and more", "Fine [1].\n\nBOOM and more still"]) {
      try {
        message.update({ markdown, options: { sources: [] } });
      } catch (e) {
        thrown.push(e.message);
      }
    }
    const streamsAfterFailure = created;
    message.update({ markdown: "Other text [1].", options: { sources: [] } });
    const recovered = root.innerHTML === normalize(citemark.render("Other text [1].", { sources: [] }).html);
    message.destroy();
    let afterDestroy = null;
    try {
      message.update({ markdown: "x" });
    } catch (e) {
      afterDestroy = e.message;
    }
    return { thrown, streamsAfterFailure, created, recovered, afterDestroy };
  });
  assert.deepEqual(result.thrown, ["citemark: a trap (simulated)"], "thrown once, by the first failing update");
  assert.equal(result.streamsAfterFailure, 3, "the first stream, and one retry");
  assert.equal(result.created, 4, "other text: a new stream");
  assert.equal(result.recovered, true);
  assert.equal(result.afterDestroy, "citemark/message: update after destroy()");
  assert.deepEqual(errors, []);
});
