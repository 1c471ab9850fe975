// citemark/dom: applies a stream's patches to an element, with DOM work
// proportional to each patch: what is appended is parsed once and added,
// only the tail's own nodes are replaced, nothing is parsed twice. This
// module is `citemark/dom/core`: `mountStream` takes its engine as `api`;
// `citemark/dom` (src/default/dom.js) defaults it to the default entry.
//
// The patch protocol (index.d.ts `Patch`, docs/streaming.md): `rewind`
// withdraws what was appended since the mark, `mark` remembers this place
// (nothing is open there), `append` cut by `steps` opens elements (`open`),
// adds balanced HTML inside the innermost open one (`html`) and closes it
// (`close`), and `tail` replaces the last tail inside the innermost open
// element. Step lengths are UTF-16 units of `append`. `mountStream` shows
// the tail through the stream's `tailChange()` instead (`changeTail`): the
// few characters a push adds go in where the reader is typing, and the
// tail's other nodes stay.
//
// Math (`typeset`): each `<span class="math …">` that arrives in appended
// HTML is handed to the host's typesetter once (KaTeX, MathJax); the tail's
// math, replaced at every push, is not.
//
// An open code block (`<pre><code>`) is one run of text to the browser: each
// line appended to it would have Chromium lay out, pre-paint and paint every
// line again, a frame growing with the block (docs/performance.md,
// "Streaming in Chromium"). While it is open, its lines therefore go into
// pieces of about 2,000 characters, each a `<span style="display: block">`:
// a frame lays out the last piece and the tail, the pieces before it are
// kept as they were. When the block closes, its pieces become one text node
// again (a few nodes touched, one layout of the whole block), so the DOM is
// `render()`'s.
//
// Trusted Types (`trustedTypes: true`, pkg/src/trusted.js): the HTML goes in
// as TrustedHTML of the `citemark` policy, and only citemark's own HTML does:
// `apply` takes only the frozen patches of a stream created with
// `trustedTypes: true`, `setTail` only a TrustedHTML.

import { expectEngine } from "./engine.js";
import { isIssued, isTrustedHTML, trustedHTML } from "./trusted.js";

const ELEMENT = 1;
const TEXT = 3;

function describe(value) {
  if (value === null) return "null";
  return typeof value === "object" ? (Array.isArray(value) ? "an array" : "an object") : `${typeof value} ${String(value)}`;
}

/**
 * Appends `html` (a string or a TrustedHTML) at the end of `parent`, parsed
 * with `parent` as its context (a `<tr>` into a `<tbody>` stays a `<tr>`);
 * returns the first node it inserted, or null when it inserted none.
 */
function insert(parent, html) {
  const last = parent.lastChild;
  parent.insertAdjacentHTML("beforeend", html);
  return last ? last.nextSibling : parent.firstChild;
}

/** The math elements from `first` to the end of its parent, in order. */
function mathFrom(first) {
  const found = [];
  for (let node = first; node; node = node.nextSibling) {
    if (node.nodeType !== ELEMENT) continue;
    if (node.classList.contains("math")) found.push(node);
    found.push(...node.querySelectorAll(".math"));
  }
  return found;
}

/** Removes `first` and every node after it in its parent. */
function removeFrom(first) {
  for (let node = first; node; ) {
    const next = node.nextSibling;
    node.remove();
    node = next;
  }
}

/** The element an open step opened: the last element it inserted, then each last child that is an element. */
function openedElement(parent, first) {
  let element = null;
  for (let node = parent.lastChild; node; node = node === first ? null : node.previousSibling) {
    if (node.nodeType === ELEMENT) {
      element = node;
      break;
    }
  }
  if (!element) return null;
  while (element.lastChild?.nodeType === ELEMENT) element = element.lastChild;
  return element;
}

/**
 * Closes `element` by `endTags` (`</tbody>\n</table>\n`): each end tag
 * moves out one element, text between them goes where the parser would put
 * it (the `\n` into the `<table>`, after the `<tbody>`), never above `root`.
 */
function close(element, endTags, root) {
  let node = element;
  for (const [token] of endTags.matchAll(/<\/[^>]*>|[^<]+/g)) {
    if (token.startsWith("</")) {
      if (node !== root) node = node.parentNode;
    } else {
      node.append(token);
    }
  }
}

/** The characters of an open code block's piece after which its lines go into a new one. */
const PIECE = 2048;

/** Whether appended HTML going into `element` goes into pieces: it is the `<code>` of a `<pre>`. */
function isCodeBlock(element) {
  return element.localName === "code" && element.parentNode?.localName === "pre";
}

/**
 * Makes the code block `code`, closing, one text node again if its pieces
 * hold only text (they do: code is escaped text); else puts each piece's
 * nodes in its place.
 */
function joinPieces(code, pieces) {
  const own = [...code.children].filter((child) => pieces.has(child));
  if (!own.length) return;
  if (own.every((piece) => piece.childElementCount === 0) && code.childElementCount === own.length) {
    code.replaceChildren(code.textContent);
  } else {
    own.forEach((piece) => piece.replaceWith(...piece.childNodes));
  }
}

/** The steps of `patch`, checked to cover its `append`. */
function stepsOf(patch) {
  const { append, steps } = patch;
  if (steps === undefined || steps.length === 0) return append ? [["html", append.length]] : [];
  if (!Array.isArray(steps)) throw new TypeError(`patch.steps: expected an array, got ${describe(steps)}`);
  let total = 0;
  const out = steps.map((step, i) => {
    const entries = step && typeof step === "object" ? Object.entries(step) : [];
    const [kind, length] = entries.length === 1 ? entries[0] : [];
    if (!["open", "html", "close"].includes(kind) || !Number.isInteger(length) || length < 0) {
      throw new TypeError(`patch.steps[${i}]: expected {open|html|close: length}, got ${JSON.stringify(step)}`);
    }
    total += length;
    return [kind, length];
  });
  if (total !== append.length) {
    throw new TypeError(`patch.steps: cover ${total} units of append, which has ${append.length}`);
  }
  return out;
}

/**
 * Applies patches to `element`, which it empties first and then owns.
 * Returns `{apply(patch), setTail(html), citations(), element}`. With
 * `trustedTypes: true`, HTML goes in as TrustedHTML (see above); with
 * `typeset(element)`, each math element appended is typeset once.
 */
export function mountPatches(element, { trustedTypes = false, typeset } = {}) {
  if (typeset !== undefined && typeof typeset !== "function") {
    throw new TypeError(`typeset: expected a function, got ${describe(typeset)}`);
  }
  const root = element;
  /** The pieces of open code blocks (see above); the one being filled, and its length. */
  const pieces = new WeakSet();
  let piece = null;
  let pieceLength = 0;
  /** Where appended HTML goes in `parent`: its last piece, or a new one, when it is an open code block. */
  const into = (parent, length) => {
    if (!isCodeBlock(parent)) return parent;
    if (piece?.parentNode !== parent || pieceLength >= PIECE) {
      piece = parent.ownerDocument.createElement("span");
      piece.style.display = "block";
      pieces.add(piece);
      parent.append(piece);
      pieceLength = 0;
    }
    pieceLength += length;
    return piece;
  };
  /** Inserts appended (not tail) HTML, typesetting the math in it. */
  const appendHtml = (parent, html) => {
    const first = insert(parent, html);
    if (typeset && first) mathFrom(first).forEach((math) => typeset(math));
    return first;
  };
  /** A piece of an applied patch's `append` as `insert` takes it. */
  const asHtml = trustedTypes ? trustedHTML : (text) => text;
  root.replaceChildren();
  /** The open elements, innermost last (`root` when none). */
  let open = [];
  /** Each open element's child count right after its open step. */
  let opened = [];
  /** The tail's HTML and where its nodes start (null: it has none), or null when none is shown. */
  let tail = null;
  /** The committed citation occurrences. */
  const citations = [];
  /**
   * At the mark: the elements open there (raw elements such as `<details>`
   * may be), the child counts of the root and of each of them, and the
   * citations' count.
   */
  let mark = { open: [], opened: [], children: [0], citations: 0 };

  const innermost = () => (open.length ? open[open.length - 1] : root);

  function removeTail() {
    if (tail?.first) removeFrom(tail.first);
    tail = null;
  }

  function setTail(value) {
    const html = tailHtml(value, "tail");
    if (tail?.html === html) return;
    removeTail();
    tail = { html, first: html ? insert(innermost(), value) : null };
  }

  /** `value`, a tail or a piece of one, as a string, checked as `setTail` checks it. */
  function tailHtml(value, what) {
    if (trustedTypes && isTrustedHTML(value)) return String(value);
    if (typeof value !== "string") throw new TypeError(`${what}: expected a string, got ${describe(value)}`);
    if (trustedTypes && globalThis.trustedTypes) {
      throw new TypeError(`${what}: with trustedTypes, expected a TrustedHTML (from a stream created with trustedTypes: true)`);
    }
    return value;
  }

  /**
   * Applies a stream's `tailChange()`: HTML inserted at the tail's typing
   * point (`depth` elements into the tail, each the last element of the one
   * before), or a new tail. DOM work in proportion to the change.
   */
  function changeTail(change) {
    if (change === undefined) return;
    if (!change || typeof change !== "object") throw new TypeError(`change: expected an object or undefined, got ${describe(change)}`);
    if ("replace" in change) return setTail(change.replace);
    const html = tailHtml(change.insert, "change.insert");
    const { depth } = change;
    if (!Number.isInteger(depth) || depth < 0) throw new TypeError(`change.depth: expected a whole number, got ${describe(depth)}`);
    if (depth > 0 && !tail?.first) throw new TypeError(`change.depth: ${depth} into a tail that has no element`);
    let parent = innermost();
    for (let level = 0; level < depth; level++) {
      parent = parent.lastElementChild;
      if (!parent) throw new TypeError(`change.depth: the tail has no element ${level + 1} deep`);
    }
    const last = parent.lastChild;
    // (At depth 0 the last node is the tail's only if the tail has nodes.)
    const ownLast = depth > 0 || Boolean(tail?.first);
    if (html && ownLast && last?.nodeType === TEXT && !/[<&]/.test(html)) {
      // Plain text typed on: the text node before it grows (one node per run, not per push).
      last.appendData(html);
    } else if (html) {
      const first = insert(parent, trustedTypes ? change.insert : html);
      if (!tail?.first) tail = { html: null, first };
    }
    if (tail) tail.html = null;
  }

  function apply(patch) {
    if (!patch || typeof patch !== "object") throw new TypeError(`patch: expected an object, got ${describe(patch)}`);
    if (trustedTypes && !isIssued(patch)) {
      throw new TypeError("patch: with trustedTypes, expected a patch of a stream created with trustedTypes: true, unchanged");
    }
    const append = patch.append ?? "";
    if (typeof append !== "string") throw new TypeError(`patch.append: expected a string, got ${describe(append)}`);
    const steps = stepsOf({ append, steps: patch.steps });
    const { empty } = patch;
    if (empty !== undefined && !(Number.isInteger(empty) && empty >= 0 && empty <= citations.length)) {
      throw new TypeError(`patch.empty: expected a citation count up to ${citations.length}, got ${describe(empty)}`);
    }
    if (patch.rewind || patch.mark || append || empty !== undefined) removeTail();
    // What is appended after a mark, a rewind or an emptying never goes into an older piece.
    if (patch.rewind || patch.mark || empty !== undefined) piece = null;
    if (patch.rewind) {
      // Every node after the mark goes: in the root and in each element open there.
      [root, ...mark.open].forEach((parent, i) => {
        while (parent.childNodes.length > mark.children[i]) parent.lastChild.remove();
      });
      citations.length = mark.citations;
      open = mark.open.slice();
      opened = mark.opened.slice();
    }
    if (patch.mark) {
      mark = {
        open: open.slice(),
        opened: opened.slice(),
        children: [root, ...open].map((parent) => parent.childNodes.length),
        citations: citations.length,
      };
    }
    if (patch.empty !== undefined) {
      // The innermost element loses what was appended inside it (a list that turned loose is sent again).
      if (open.length) {
        const element = innermost();
        while (element.childNodes.length > opened[opened.length - 1]) element.lastChild.remove();
      }
      citations.length = patch.empty;
    }
    let at = 0;
    for (const [kind, length] of steps) {
      const text = append.slice(at, at + length);
      at += length;
      if (kind === "close") {
        if (!open.length) throw new TypeError("patch.steps: a close step with no element open");
        const closing = open.pop();
        if (isCodeBlock(closing)) joinPieces(closing, pieces);
        close(closing, text, root);
        opened.pop();
      } else if (kind === "open") {
        const parent = innermost();
        const element = openedElement(parent, appendHtml(parent, asHtml(text)));
        if (!element) throw new TypeError(`patch.steps: an open step inserted no element: ${JSON.stringify(text)}`);
        open.push(element);
        opened.push(element.childNodes.length);
      } else if (text) {
        appendHtml(into(innermost(), text.length), asHtml(text));
      }
    }
    if (patch.citations) citations.push(...patch.citations);
    if (patch.tail !== undefined) setTail(patch.tail);
  }

  return {
    element: root,
    apply,
    setTail,
    changeTail,
    /** The citation occurrences appended so far (rewinds applied), in order. */
    citations: () => citations.slice(),
  };
}

/**
 * Streams a message into `element` (emptied first): a stream created with
 * `options` by `api.createStream` (the engine: this module imports none;
 * `citemark/dom` passes the default entry's), each patch applied with
 * `mountPatches` (with Trusted Types when `options.trustedTypes`,
 * typesetting appended math with `typeset`).
 */
export function mountStream(element, options, { api, typeset } = {}) {
  const stream = expectEngine(api, "mountStream").createStream(options);
  const view = mountPatches(element, { trustedTypes: options?.trustedTypes === true, typeset });
  let stale = false;
  let finished = false;
  let destroyed = false;

  function live(what) {
    if (destroyed) throw new Error(`citemark/dom: ${what} after destroy()`);
    if (finished) throw new Error(`citemark/dom: ${what} after finish()`);
  }

  return {
    element,
    stream,
    push(chunk) {
      live("push");
      const patch = stream.pushDeferred(chunk);
      view.apply(patch);
      view.changeTail(stream.tailChange());
      stale = false;
      return patch;
    },
    pushDeferred(chunk) {
      live("pushDeferred");
      const patch = stream.pushDeferred(chunk);
      view.apply(patch);
      stale = true;
      return patch;
    },
    paint() {
      if (!stale || finished || destroyed) return;
      stale = false;
      view.changeTail(stream.tailChange());
    },
    finish() {
      live("finish");
      const patch = stream.finish();
      view.apply(patch);
      finished = true;
      stale = false;
      return patch;
    },
    setSources(sources) {
      if (destroyed) throw new Error("citemark/dom: setSources after destroy()");
      stream.setSources(sources);
      // The tail is rendered again against the new sources (what was appended stays).
      if (!finished) view.changeTail(stream.tailChange());
    },
    citationIndex() {
      if (destroyed) throw new Error("citemark/dom: citationIndex after destroy()");
      return stream.citationIndex();
    },
    provisionalIndex() {
      if (destroyed) throw new Error("citemark/dom: provisionalIndex after destroy()");
      return stream.provisionalIndex();
    },
    citations: view.citations,
    destroy() {
      if (destroyed) return;
      destroyed = true;
      stream.free();
    },
  };
}
