// citemark/dom (pkg/src/dom.js) in Chromium: a long message streamed into an
// element in 4-character chunks ends equal to render(), with DOM work per push
// that does not grow with the message; the tail of an open code block shows
// inside it; the tail's changes give the DOM of whole tails at every push;
// hand-made patches with mark and rewind give the DOM of their
// string assembly. Needs the package built (`make pkg`; make test-browser does).

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openDomPage } from "./support/server.mjs";

let server, browser, page, errors;

before(async () => {
  ({ server, browser, page, errors } = await openDomPage());
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const SOURCES = [
  { id: "call_1", title: "Revenue by region", href: "https://app.example/q/1" },
  { index: 2, title: "DACH report", href: "https://app.example/d/2" },
];

/** Prose, a table and citations: about 1 KB. */
function prose(n) {
  return [
    `## Part ${n}`,
    "",
    `Revenue grew **${n}%** in EMEA [1], while <cite id="call_1">APAC lagged</cite> behind 😀 漢字.`,
    `A second line of the same paragraph with \`code\` and a [link](https://example.org/${n}) [2].`,
    "",
    "| region | growth | note |",
    "| --- | ---: | --- |",
    `| EMEA | ${n}% | led [1] |`,
    "| APAC | -2% | *lagged* |",
    "| DACH | 1% | 🎉 flat |",
    "",
    "- first item with [2]",
    "- second item, **bold**",
    "",
    "> A quote 𝄞 that ends.",
    "",
  ].join("\n");
}

/** A fenced code block of about `bytes` characters. */
function code(bytes) {
  const lines = [];
  for (let i = 0, size = 0; size < bytes; i++) {
    const line = `    let total_${i} = rows.iter().map(|r| r.amount * ${i}).sum::<f64>(); // <${i}> & "😀"`;
    lines.push(line);
    size += line.length + 1;
  }
  return ["```rust", "fn main() {", ...lines, "}", "```", ""].join("\n");
}

const MESSAGE = [prose(1), prose(2), code(100_000), "", prose(3), prose(4)].join("\n");

/**
 * A `<details>` section of about `bytes` characters holding markdown: prose
 * with citations, lists that turn loose (each emptied and sent again inside
 * its open element) and references defined at its end (one rewind).
 */
function details(bytes) {
  const parts = ["<details><summary>Sources and method</summary>", ""];
  for (let n = 0, size = 0; size < bytes; n++) {
    const part = [
      `Paragraph ${n} with **bold**, a [guide][g] and a citation [1].`,
      "",
      `- item ${n} one [2]`,
      `- item ${n} two`,
      "",
      `- item ${n} three, after a blank line: the list is loose`,
      "",
    ].join("\n");
    parts.push(part);
    size += part.length;
  }
  parts.push("[g]: https://example.org/guide", "", "</details>", "", "After the section.", "");
  return parts.join("\n");
}

/**
 * Streams `markdown` into #root in `size`-character chunks inside the page;
 * counts the nodes added and removed per push (MutationObserver, whole
 * subtree) and checks the tail of the open code block; returns the counts,
 * the final HTML and render's, parsed by the same browser.
 */
function streamInPage(markdown, size, { deferred = false, lite = false } = {}) {
  return page.evaluate(
    ({ markdown, size, deferred, lite, sources }) => {
      const root = document.getElementById("root");
      const options = { sources };
      const view = test.mountStream(root, options, lite ? { api: test.lite } : undefined);
      const observer = new MutationObserver(() => {});
      observer.observe(root, { childList: true, subtree: true });
      const counts = [];
      const insideCode = [];
      let typed = 0;
      const count = () =>
        observer.takeRecords().reduce((n, r) => n + r.addedNodes.length + r.removedNodes.length, 0);
      for (let at = 0, push = 0; at < markdown.length; at += size, push++) {
        const chunk = markdown.slice(at, at + size);
        if (deferred) {
          view.pushDeferred(chunk);
          if (push % 16 === 15) view.paint();
        } else {
          view.push(chunk);
        }
        counts.push(count());
        typed = at + chunk.length;
        // In the middle of a code line: it shows at the end of the open <pre><code>.
        if (!deferred && push % 997 === 500) {
          const text = markdown.slice(0, typed);
          // (A high surrogate ending the chunk waits for its pair.)
          const line = text.slice(text.lastIndexOf("\n") + 1).replace(/[\ud800-\udbff]$/, "");
          const last = root.lastElementChild;
          if (line.startsWith("    let total_") && line.length > 20) {
            insideCode.push({
              line,
              lastIsPre: last?.localName === "pre" && root.lastChild === last,
              codeEndsWithLine: last?.querySelector("code")?.textContent.endsWith(line) ?? false,
              // The open block's lines in pieces of about 2,000 characters (pkg/src/dom.js).
              pieces: [...(last?.querySelectorAll("code > span") ?? [])].map((piece) => piece.textContent.length),
              typedInCode: text.length - text.lastIndexOf("```rust"),
            });
          }
        }
      }
      if (deferred) view.paint();
      view.finish();
      counts.push(count());
      observer.disconnect();
      const expected = (lite ? test.lite : test.citemark).render(markdown, options);
      const result = {
        counts,
        insideCode,
        html: root.innerHTML,
        expected: test.normalize(expected.html),
        citations: view.citations(),
        index: view.citationIndex(),
        expectedIndex: expected.citations,
      };
      view.destroy();
      return result;
    },
    { markdown, size, deferred, lite, sources: SOURCES },
  );
}

const max = (list) => list.reduce((m, x) => Math.max(m, x), 0);

describe("citemark/dom", () => {
  test("a 100 KB code block with prose, tables and citations, in 4-character chunks: equal to render, flat work per push", async () => {
    assert.ok(MESSAGE.length > 100_000, `message length ${MESSAGE.length}`);
    const got = await streamInPage(MESSAGE, 4);
    assert.equal(got.html, got.expected, "element.innerHTML = render(message).html");
    assert.deepEqual(got.citations, got.expectedIndex.occurrences, "citations() = render's occurrences");
    assert.deepEqual(got.index, got.expectedIndex, "citationIndex() = render's index");

    // Work per push: nodes added + removed. It depends on the block being
    // typed (a table's rows are the tail until it ends), never on how much
    // came before it.
    // One push, the one that closes the code block, joins its pieces of about
    // 2,048 characters into one text node (pkg/src/dom.js): a node per piece.
    const { counts } = got;
    const overall = max(counts);
    const join = counts.indexOf(overall);
    const others = counts.filter((_, i) => i !== join);
    const quarter = Math.floor(others.length / 4);
    const second = max(others.slice(quarter, 2 * quarter));
    const last = max(others.slice(3 * quarter));
    const total = counts.reduce((a, b) => a + b, 0);
    console.log(
      `  ${counts.length} pushes: nodes added+removed per push max ${overall} (joining the code block's pieces), ` +
        `otherwise 2nd quarter ${second}, last ${last}; ${(total / counts.length).toFixed(2)} on average, ${total} in all`,
    );
    assert.ok(last <= Math.max(2 * second, 16), `last quarter's max ${last} against the second's ${second}`);
    assert.ok(overall <= (100_000 * 1.25) / 2048 + 4, `the most nodes one push touched: ${overall}`);
    // Across the code block each push replaces the line being typed: a few nodes.
    assert.ok(total / counts.length < 6, `average nodes per push ${total / counts.length}`);

    // The line being typed shows inside the open code block.
    assert.ok(got.insideCode.length >= 10, `checked inside the code block ${got.insideCode.length} times`);
    for (const at of got.insideCode) {
      assert.ok(at.lastIsPre, `the <pre> is the root's last child while ${JSON.stringify(at.line)} is typed`);
      assert.ok(at.codeEndsWithLine, `the code ends with the line being typed: ${JSON.stringify(at.line)}`);
      // So that a frame lays out the last piece, not the whole block.
      const longest = Math.max(...at.pieces);
      assert.ok(longest <= 2048 + 120, `the longest piece holds ${longest} characters`);
      assert.ok(at.pieces.length >= at.typedInCode / (2048 + 120) - 1, `${at.pieces.length} pieces after ${at.typedInCode} characters of code`);
    }
    assert.deepEqual(errors, []);
  });

  test("a 30 KB <details> section holding markdown: open in the DOM as it streams, equal to render, flat work per push", async () => {
    const message = [prose(1), details(30_000)].join("\n");
    const got = await streamInPage(message, 4);
    assert.equal(got.html, got.expected, "element.innerHTML = render(message).html");
    assert.deepEqual(got.citations, got.expectedIndex.occurrences, "citations() = render's occurrences");
    const { counts } = got;
    const quarter = Math.floor(counts.length / 4);
    const second = max(counts.slice(quarter, 2 * quarter));
    // (One push, at the definition, rewinds the section's blocks once.)
    const [rewind, ...others] = counts
      .slice(3 * quarter, counts.length - 1)
      .sort((a, b) => b - a);
    const last = max(others);
    const total = counts.reduce((a, b) => a + b, 0);
    console.log(
      `  ${counts.length} pushes: nodes added+removed per push max ${max(counts)} (the rewind ${rewind}), ` +
        `otherwise 2nd quarter ${second}, last ${last}; ${(total / counts.length).toFixed(2)} on average`,
    );
    // (The section is not re-sent whole at each push: its blocks go into it,
    // and a list that turns loose is sent again alone.)
    assert.ok(last <= Math.max(2 * second, 40), `last quarter's max ${last} against the second's ${second}`);
    assert.ok(total / counts.length < 10, `average nodes per push ${total / counts.length}`);
    assert.deepEqual(errors, []);
  });

  test("the tail as changes: after every push the same DOM as with whole tails, fewer nodes touched", async () => {
    const message = [
      prose(1),
      "1. **Bold** start of an item with a [link](https://example.org/x) [1] and more words",
      "   - a nested *emphasis* item with `code`",
      "2. the next item, then a quote:",
      "",
      "> A quote with `code`, **bold text that goes on** and <cite id=\"call_1\">a cited label</cite> [2].",
      "",
      details(2_000),
      code(1_500),
      "A last paragraph with a footnote[^n] and a [late][g] reference, & an entity &amp; 😀.",
      "",
      "[^n]: The note.",
      "[g]: https://example.org/g",
      "",
    ].join("\n");
    for (const size of [1, 3, 8]) {
      const got = await page.evaluate(
        ({ message, size, sources }) => {
          const count = (observer) =>
            observer.takeRecords().reduce((n, r) => n + r.addedNodes.length + r.removedNodes.length, 0);
          const changed = test.mountStream(document.createElement("div"), { sources });
          const whole = test.mountPatches(document.createElement("div"));
          const stream = test.citemark.createStream({ sources });
          const observers = [changed.element, whole.element].map((element) => {
            const observer = new MutationObserver(() => {});
            observer.observe(element, { childList: true, subtree: true });
            return observer;
          });
          // An open code block's lines sit in display: block pieces (pkg/src/dom.js), and lines
          // typed in JavaScript in the tail until pushed: the same text, compared without the pieces.
          const joined = (element) => {
            const copy = element.cloneNode(true);
            copy.querySelectorAll("pre > code > span").forEach((piece) => piece.replaceWith(...piece.childNodes));
            return copy.innerHTML;
          };
          const touched = [0, 0];
          const mismatches = [];
          for (let at = 0; at < message.length; at += size) {
            const chunk = message.slice(at, at + size);
            changed.push(chunk);
            whole.apply(stream.push(chunk));
            observers.forEach((observer, i) => (touched[i] += count(observer)));
            const [got, want] = [joined(changed.element), joined(whole.element)];
            if (mismatches.length < 3 && got !== want) {
              mismatches.push({ typed: message.slice(0, at + size).slice(-80), changed: got.slice(-300), whole: want.slice(-300) });
            }
          }
          changed.finish();
          whole.apply(stream.finish());
          const result = {
            mismatches,
            touched,
            html: changed.element.innerHTML,
            expected: test.normalize(test.citemark.render(message, { sources }).html),
          };
          changed.destroy();
          stream.free();
          return result;
        },
        { message, size, sources: SOURCES },
      );
      console.log(`  ${size}-character chunks: nodes added+removed ${got.touched[0]} with tail changes, ${got.touched[1]} with whole tails`);
      assert.deepEqual(got.mismatches, [], `${size}-character chunks: the DOMs differ`);
      assert.equal(got.html, got.expected, `${size}-character chunks: equal to render`);
      // (Both add the appended blocks' nodes; a whole tail's nodes go and come again at every push.)
      assert.ok(got.touched[0] < got.touched[1] / (size === 1 ? 4 : 1.5), `${size}-character chunks: nodes touched ${got.touched[0]} against ${got.touched[1]}`);
    }
    assert.deepEqual(errors, []);
  });

  test("pushDeferred with paint() per frame, and the lite entry's stream, end equal to render", async () => {
    const message = [prose(1), code(3_000), prose(2)].join("\n");
    for (const [deferred, lite] of [[true, false], [false, true], [true, true]]) {
      const got = await streamInPage(message, 3, { deferred, lite });
      assert.equal(got.html, got.expected, `deferred ${deferred}, lite ${lite}`);
      assert.deepEqual(got.citations, got.expectedIndex.occurrences, `deferred ${deferred}, lite ${lite}`);
    }
    assert.deepEqual(errors, []);
  });

  test("hand-made patches with mark and rewind: the DOM equals the string assembly after every patch", async () => {
    const cite = (ordinal) => ({ ordinal, kind: "index", key: String(ordinal), label: String(ordinal), resolved: false, range: { start: 0, end: 3 } });
    // [patch, end tags of what is open after it (what a string host adds; the
    // whitespace between them comes with the close step)]
    const steps = (...pieces) => ({
      append: pieces.map(([, html]) => html).join(""),
      steps: pieces.map(([kind, html]) => ({ [kind]: html.length })),
    });
    const patches = [
      [{ ...steps(["html", "<p>a 😀</p>\n"]), tail: "<p>b</p>\n", citations: [] }, ""],
      [
        {
          mark: true,
          ...steps(["html", "<p>b <sup>1</sup></p>\n"], ["open", '<pre><code class="language-rust">let 漢 = 1;\n']),
          tail: "let x",
          citations: [cite(1)],
        },
        "</code></pre>",
      ],
      [{ ...steps(["html", "let x = 2;\n"]), tail: "// 🎉", citations: [] }, "</code></pre>"],
      // Withdraws the paragraph b and the open code block: the stack is empty again.
      [
        {
          rewind: true,
          ...steps(
            ["html", "<p>B</p>\n"],
            ["open", "<table>\n<thead>\n<tr>\n<th>h</th>\n</tr>\n</thead>\n<tbody>\n"],
            ["html", "<tr>\n<td>r1 😀</td>\n</tr>\n"],
          ),
          tail: "<tr>\n<td>r2</td>\n</tr>\n",
          citations: [cite(1)],
        },
        "</tbody></table>",
      ],
      [{ ...steps(["html", "<tr>\n<td>r2</td>\n</tr>\n"], ["close", "</tbody>\n</table>\n"]), tail: "<p>c</p>\n", citations: [] }, ""],
      [{ mark: true, ...steps(["open", "<ul>\n<li>one</li>\n"]), tail: "<li>tw</li>\n", citations: [cite(2)] }, "</ul>"],
      [{ append: "", steps: [], tail: "<li>two [</li>\n", citations: [] }, "</ul>"],
      [{ rewind: true, ...steps(["html", "<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n"]), tail: "<p>end</p>\n", citations: [cite(2), cite(3)] }, ""],
      [{ ...steps(["open", "<blockquote>\n<p>q</p>\n"], ["close", "</blockquote>\n"]), tail: "", citations: [] }, ""],
    ];
    const got = await page.evaluate((patches) => {
      const root = document.getElementById("other");
      const view = test.mountPatches(root);
      // An open code block's lines sit in display: block pieces (pkg/src/dom.js): the same
      // nodes, compared without the pieces.
      const joined = (element) => {
        const copy = element.cloneNode(true);
        copy.querySelectorAll("pre > code > span").forEach((piece) => piece.replaceWith(...piece.childNodes));
        return copy.innerHTML;
      };
      let html = "";
      let mark = { html: 0, citations: 0 };
      let citations = [];
      return patches.map(([patch, endTags]) => {
        if (patch.rewind) {
          html = html.slice(0, mark.html);
          citations = citations.slice(0, mark.citations);
        }
        if (patch.mark) mark = { html: html.length, citations: citations.length };
        html += patch.append;
        citations = citations.concat(patch.citations);
        view.apply(patch);
        return {
          dom: joined(root),
          string: test.normalize(html + patch.tail + endTags),
          citations: view.citations().map((c) => c.ordinal),
          expectedCitations: citations.map((c) => c.ordinal),
        };
      });
    }, patches);
    got.forEach((step, i) => {
      assert.equal(step.dom, step.string, `after patch ${i + 1}`);
      assert.deepEqual(step.citations, step.expectedCitations, `citations after patch ${i + 1}`);
    });
    // The self-check: the rewinds did withdraw something.
    assert.ok(!got.at(-1).dom.includes("<pre>") && got[2].dom.includes("<pre>"));
    assert.ok(got[4].dom.includes("</tbody>\n</table>\n<p>c</p>"), "the close step's whitespace where a parser puts it");
    assert.deepEqual(got.at(-1).citations, [1, 2, 3]);
    assert.deepEqual(errors, []);
  });

  test("a table row goes into its <tbody>; malformed steps throw without touching the DOM", async () => {
    const got = await page.evaluate(() => {
      const root = document.getElementById("other");
      const view = test.mountPatches(root);
      view.apply({ append: "<table><tbody>\n", steps: [{ open: 15 }], tail: "<tr><td>t</td></tr>" });
      const tailRow = root.querySelector("tbody > tr")?.textContent;
      view.apply({ append: "<tr><td>1</td></tr>", steps: [{ html: 19 }], tail: "" });
      const before = root.innerHTML;
      const thrown = [];
      for (const bad of [
        { append: "<p>x</p>", steps: [{ html: 3 }] },
        { append: "<p>x</p>", steps: [{ text: 8 }] },
      ]) {
        try {
          view.apply(bad);
        } catch (e) {
          thrown.push(`${e.name}: ${e.message}`);
        }
      }
      return { tailRow, rows: root.querySelectorAll("tbody > tr").length, before, after: root.innerHTML, thrown };
    });
    assert.equal(got.tailRow, "t", "the tail's row is a row of the open <tbody>");
    assert.equal(got.rows, 1);
    assert.equal(got.after, got.before, "a malformed patch changes nothing");
    assert.equal(got.thrown.length, 2);
    for (const message of got.thrown) assert.match(message, /^TypeError: patch\.steps/);
  });

  test("typeset runs once on each math element appended, never on the tail's, and the final DOM holds each", async () => {
    const got = await page.evaluate(() => {
      const root = document.getElementById("other");
      const paragraph = (i) => `Step ${i}: $x_${i}^2$ and \\(a_${i} * b\\) in a list:\n\n- item $y_${i}$\n\n`;
      const markdown = Array.from({ length: 12 }, (_, i) => paragraph(i)).join("") + "$$\nE = mc^2\n$$\n";
      const seen = new Map();
      const view = test.mountStream(root, {}, {
        typeset(element) {
          seen.set(element, (seen.get(element) ?? 0) + 1);
          element.dataset.typeset = "yes";
        },
      });
      for (let at = 0; at < markdown.length; at += 3) view.push(markdown.slice(at, at + 3));
      view.finish();
      const math = [...root.querySelectorAll(".math")];
      const expected = document.createElement("div");
      expected.innerHTML = test.citemark.render(markdown).html;
      let badType = null;
      try {
        test.mountPatches(document.createElement("div"), { typeset: "katex" });
      } catch (e) {
        badType = `${e.name}: ${e.message}`;
      }
      return {
        math: math.length,
        expected: expected.querySelectorAll(".math").length,
        allTypeset: math.every((m) => m.dataset.typeset === "yes"),
        calls: [...seen.values()],
        badType,
      };
    });
    assert.equal(got.expected, 12 * 3 + 1, "the render holds the math");
    assert.equal(got.math, got.expected);
    assert.ok(got.allTypeset, "every math element in the final DOM was typeset");
    assert.ok(got.calls.every((n) => n === 1), `each element once: ${got.calls}`);
    // (The tail's math elements are replaced at every push: typesetting
    // them would have called typeset on elements no longer in the DOM.)
    assert.equal(got.calls.length, got.expected, "no tail element was typeset");
    assert.match(got.badType, /^TypeError: typeset: expected a function/);
  });
});
