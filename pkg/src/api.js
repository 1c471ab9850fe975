// The JavaScript face of citemark, shared by the default and the lite entry.
//
// `makeApi(createGlue, payload)` takes one entry's wasm-bindgen glue factory
// (`--target web`, wrapped by pkg/scripts/build.mjs so that each call gives a
// fresh copy of the glue's state) and that entry's WebAssembly binary as
// base64 text, compiles it, instantiates it, and returns the public functions.
// Values cross the boundary as JSON text: `JSON.stringify` on the way in,
// `JSON.parse` on the way out. Errors from the crate are one-line strings
// naming the bad value's path; they are thrown here as `TypeError`s.
//
// Traps: the wasm is built so that a panic aborts (`-Cpanic=immediate-abort`),
// so a bug that panics traps the instance, whose memory may then be
// inconsistent. The call that trapped throws an `Error` naming citemark and
// the input's size; the instance is retired, and the next call instantiates
// the compiled module again; streams created on the retired instance throw on
// every later call (docs/reliability.md).
//
// Lifecycle: a stream's methods throw a plain `Error` after `free()` (which
// itself may be called again), and `push`/`pushDeferred`/`finish` after `finish()`.

import { issue, trustedHTML } from "./trusted.js";

/** Decodes base64 without Node's Buffer where it is absent (browsers, bundles). */
function decodeBase64(text) {
  if (typeof Uint8Array.fromBase64 === "function") {
    return Uint8Array.fromBase64(text);
  }
  const NodeBuffer = globalThis.Buffer;
  if (typeof NodeBuffer === "function" && typeof NodeBuffer.from === "function") {
    const buffer = NodeBuffer.from(text, "base64");
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  }
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) {
    bytes[i] = binary.charCodeAt(i);
  }
  return bytes;
}

function describe(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}

function expectString(name, value) {
  if (typeof value !== "string") {
    throw new TypeError(`${name}: expected a string, got ${describe(value)}`);
  }
}

function json(name, value) {
  try {
    const text = JSON.stringify(value);
    // `undefined` (and functions, symbols) have no JSON form.
    if (text === undefined) {
      throw new TypeError(`expected a JSON value, got ${describe(value)}`);
    }
    return text;
  } catch (e) {
    throw new TypeError(`${name}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * `options` as the crate's JSON, and the JS-only option `trustedTypes`
 * (which the crate does not know) apart.
 */
function splitOptions(options) {
  if (options === undefined || options === null) return { text: "{}", trusted: false };
  if (typeof options !== "object" || Array.isArray(options)) {
    throw new TypeError(`options: expected an object, got ${describe(options)}`);
  }
  if (!("trustedTypes" in options)) return { text: json("options", options), trusted: false };
  const { trustedTypes, ...rest } = options;
  if (typeof trustedTypes !== "boolean") {
    throw new TypeError(`options.trustedTypes: expected a boolean, got ${describe(trustedTypes)}`);
  }
  return { text: json("options", rest), trusted: trustedTypes };
}

/**
 * Whether `error`, thrown out of a wasm call, means the instance trapped: a
 * `WebAssembly.RuntimeError` (`unreachable` is a panic or an allocation
 * failure when panics abort) or a stack overflow inside it. Either may
 * leave its memory inconsistent, so the instance is not used again.
 */
function isTrap(error) {
  return error instanceof WebAssembly.RuntimeError || (error instanceof RangeError && /call stack/i.test(error.message));
}

/** A render's parts as `{html, citations}`, freeing the wasm object. */
function rendered(parts) {
  try {
    return { html: parts.takeHtml(), citations: JSON.parse(parts.takeCitations()) };
  } finally {
    parts.free();
  }
}

const REWIND = 1;
const MARK = 2;
// Typing shown here (docs/streaming.md, "Typing shown by the host"): the
// rules of the crate's `Typing`, which `WasmStream.typing()` names after a
// tail change (kind in its low 2 bits, the typing point's depth in the next
// 6, its `before` above; for a code line, the line's state in the next 6
// and the fence's character code above them instead, or, for a code line
// inside the tail's element (line IN_ELEMENT), the point's depth in the 6
// above the line, its block in the 9 above (`blockOf`) and its `before` in
// the last 9).
const VERBATIM = 1;
const WORDS = 2;
const HELD_LINE = 3;
// (`Typing::Held`: kind 3, and what is held back in the next 2 bits, or,
// for a label opening a line, 0 there and the bit above (HELD_LABEL) set;
// `Typing::CodeSpan` is 3 there, its point's depth in the 6 bits above and
// its `before` in the last 22.)
const HELD_URL = 1;
const HELD_TAG = 2;
const CODE_SPAN = 3;
const HELD_LABEL = 1 << 4;
/** `Typing::CodeSpan`'s low 4 bits. */
const CODE_SPAN_TYPING = HELD_LINE | (CODE_SPAN << 2);
/** Text that goes on with a URL or a link's destination being typed (`HeldKind::Url`). */
const URL_TEXT = /^[A-Za-z0-9\-./:?#=%+,;@]*$/;
/**
 * What a paragraph's line being typed takes as typed (`Typing::Words`): ASCII letters, digits,
 * spaces, `,` `;` `:` `?` `'` `"` `-` `%`, and `.` after an ASCII letter or digit but `w`
 * (`www.` starts a link); and characters beyond ASCII but whitespace, controls, `†` `【` `】`
 * (a file-search citation's), the private-use area, U+FEFF and lone surrogates (the crate's
 * `is_word_char`, the same set spelled out).
 */
const WORD_TEXT =
  /^(?:[A-Za-z0-9 ,;:?'"%-]|[A-VX-Za-vx-z0-9]\.|[^\x00-\x9f\u00a0\u1680\u2000-\u200a\u2020\u2028\u2029\u202f\u205f\u3000\u3010\u3011\ud800-\udfff\ue000-\uf8ff\ufeff]|[\ud800-\udbff][\udc00-\udfff])*$/;
/**
 * What a code span being typed takes as typed (`Typing::CodeSpan`): `WORD_TEXT`'s, `~` `[` `]`
 * `{` `}` `#` `@` `/` `=` `+` `^` `)`, and `*` `_` after an ASCII character of the text but a
 * space (the crate's `is_code_span_text`).
 */
const CODE_TEXT =
  /^(?:[A-Za-z0-9 ,;:?'"%\-~[\]{}#@/=+^)]|(?<=[!-~])[*_]|[A-VX-Za-vx-z0-9]\.|[^\x00-\x9f\u00a0\u1680\u2000-\u200a\u2020\u2028\u2029\u202f\u205f\u3000\u3010\u3011\ud800-\udfff\ue000-\uf8ff\ufeff]|[\ud800-\udbff][\udc00-\udfff])*$/;
// Where a code line being typed stands (`CodeLine`): past where it could
// close its block; spaces only, held back; spaces then the fence's
// character only, held back, as it may close the block.
const SETTLED = 0;
const BLANK = 1;
const FENCE = 2;
// A code line of a code block inside the tail's element (a list item's,
// `Typing::CodeIn`, `ItemLine`): settled, it shows as typed, less the
// block's indentation after a line break; a line of spaces only is held
// back (IN_SPACES + how many) while they may be a closing fence's
// indentation, and shows past it (IN_SHOWN_SPACES); spaces, then the
// fence's character only, are held back (IN_FENCE).
const IN_ELEMENT = 3;
const IN_FENCE = 4;
const IN_SHOWN_SPACES = 5;
const IN_SPACES = 8;
/** Typing `text` pushes it (`Typing::after` gives `Pushed`). */
const PUSHED = -1;

/**
 * What typing `text` does (`Typing::after`), `typing` being
 * `WasmStream.typing()`: for a code line, the line's state after it (from
 * `line`, in a block that `fence`, a character code, closes: 0 when line
 * breaks are pushed); for the others, `line` again; `PUSHED` when `text`
 * goes to the stream.
 */
function typingAfter(typing, line, text) {
  const kind = typing & 3;
  const fence = typing >>> 8;
  if (kind === WORDS) return isWordText(text) ? line : PUSHED;
  if (kind === HELD_LINE) {
    const held = (typing >>> 2) & 3;
    if (held === HELD_URL) return URL_TEXT.test(text) ? line : PUSHED;
    if (held === HELD_TAG) return /[>|\n\r\\(!&]/.test(text) ? PUSHED : line;
    if (held === CODE_SPAN) return CODE_TEXT.test(text) ? line : PUSHED;
    if (typing & HELD_LABEL) return /[[\]|\n\r\\(!&]/.test(text) ? PUSHED : line;
    return /[\n\r]/.test(text) ? PUSHED : line;
  }
  if (line >= IN_ELEMENT) return inElementAfter(blockOf(typing), line, text);
  if (line === SETTLED && isVerbatim(text)) return SETTLED;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 || c === 0 || (c >= 0xd800 && c <= 0xdfff)) return PUSHED;
    if (c === 10 || c === 9) {
      // (Without a fence, a tab, or a line break but one ending a settled line: the indentation to cut decides.)
      if (line === FENCE || (!fence && (c === 9 || line !== SETTLED))) return PUSHED;
      line = c === 10 ? BLANK : SETTLED;
    } else if (line !== SETTLED) {
      if (c !== 32) {
        // (Without a fence, an indented block's: the indentation to cut decides.)
        if (!fence) return PUSHED;
        line = c === fence ? FENCE : SETTLED;
      } else if (line === FENCE) return PUSHED;
    }
  }
  return line;
}

/**
 * `WORD_TEXT.test(text)`, ASCII read by hand (a push is a few characters, which a loop reads faster
 * than a regular expression; the crate's `is_ascii_word_byte`), the rest by the expression.
 */
function isWordText(text) {
  let before = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) return WORD_TEXT.test(text);
    const alnum = (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122);
    // (Space , ; : ? ' " - %; `.` after an ASCII letter or digit but `w`.)
    const word =
      alnum ||
      c === 32 || c === 44 || c === 59 || c === 58 || c === 63 || c === 39 || c === 34 || c === 45 || c === 37 ||
      (c === 46 && before !== 0 && (before | 32) !== 119);
    if (!word) return false;
    before = alnum ? c : 0;
  }
  return true;
}

/**
 * Whether a settled code line's tail shows `text` as typed: no line break, CR, NUL or tab, nor UTF-16
 * halves, which wasm would replace. (By hand: a push is a few characters, which a loop reads faster than
 * a regular expression.)
 */
function isVerbatim(text) {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 13 ? c === 10 || c === 13 || c === 0 || c === 9 : c >= 0xd800 && c <= 0xdfff) return false;
  }
  return true;
}

/**
 * `typingAfter` on a code line inside the tail's element, in `block`
 * (`blockOf`): the line's state after `text` (`ItemLine::after`).
 */
function inElementAfter(block, line, text) {
  const indent = block & 0x3f;
  const closing = indent + ((block >>> 6) & 3);
  const fence = block & 0x100 ? 126 : 96;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 || c === 0 || c === 9 || (c >= 0xd800 && c <= 0xdfff)) return PUSHED;
    if (line === IN_ELEMENT) {
      if (c !== 10) continue;
      // (Without a block, line breaks are pushed.)
      if (!indent) return PUSHED;
      line = IN_SPACES;
    } else if (c === 10) {
      return PUSHED;
    } else if (line === IN_FENCE) {
      if (c === 32) return PUSHED;
      if (c !== fence) line = IN_ELEMENT;
    } else if (c === 32) {
      if (line !== IN_SHOWN_SPACES) line = line - IN_SPACES < closing ? line + 1 : IN_SHOWN_SPACES;
    } else if (line === IN_SHOWN_SPACES) {
      // (The tail holds a fence's character after spaces back: what shows would shrink.)
      if (c === fence) return PUSHED;
      line = IN_ELEMENT;
    } else if (line - IN_SPACES < indent) {
      // (Indented less than the block: the line may end the item.)
      return PUSHED;
    } else {
      line = c === fence ? IN_FENCE : IN_ELEMENT;
    }
  }
  return line;
}

/**
 * The block of a code line inside the tail's element, from
 * `WasmStream.typing()`: its indentation in the low 6 bits (0: line breaks
 * are pushed), its closing fence's past it in the next 2, whether its fence
 * is `~` above (`ItemCode`).
 */
function blockOf(typing) {
  return (typing >>> 14) & 0x1ff;
}

/**
 * What `shown`, text typed that shows, shows as (`Typing::display`): in a
 * list item's code block, each line after a line break less the block's
 * indentation (`typing`'s); `lineStart`: `shown` starts a line.
 */
function displayed(typing, line, shown, lineStart) {
  const indent = line >= IN_ELEMENT ? blockOf(typing) & 0x3f : 0;
  if (!indent || (!lineStart && !shown.includes("\n"))) return shown;
  const text = lineStart ? "\n" + shown : shown;
  const out = text.replaceAll("\n" + " ".repeat(indent), "\n");
  return lineStart ? out.slice(1) : out;
}

/** What of `typed`, the text typed since the tail change or since what showed, the tail shows (`Typing::shown`; `line` after it). */
function shownOf(typing, line, typed) {
  const kind = typing & 3;
  if ((typing & 15) === CODE_SPAN_TYPING) return codeSpanShown(typed);
  if (kind === HELD_LINE) return "";
  if (kind === VERBATIM) {
    const shows = line === SETTLED || line === IN_ELEMENT || line === IN_SHOWN_SPACES;
    return shows ? typed : typed.slice(0, typed.lastIndexOf("\n") + 1);
  }
  // (By hand, as `escapeText`: this runs at every push typed here.)
  let end = withoutSpacesAfter(typed, typed.length);
  for (let space = typed.lastIndexOf(" ", end - 1); space >= 0 && isUrlBeingTyped(typed, space + 1, end); ) {
    end = withoutSpacesAfter(typed, space);
    space = typed.lastIndexOf(" ", end - 1);
  }
  return end === typed.length ? typed : typed.slice(0, end);
}

/**
 * `shownOf` in a code span: all but a URL being typed that ends it, after the `*` and `_` opening
 * its word, then all but the spaces ending what is left.
 */
function codeSpanShown(typed) {
  let end = typed.length;
  const space = typed.lastIndexOf(" ");
  if (space >= 0) {
    let at = space + 1;
    while (at < end && (typed.charCodeAt(at) === 42 || typed.charCodeAt(at) === 95)) at += 1;
    if (isUrlBeingTyped(typed, at, end)) end = at;
  }
  return typed.slice(0, withoutSpacesAfter(typed, end));
}

/**
 * Whether the word of `text` from `start` to `end` is a URL being typed, which the tail holds back (the crate's
 * `url_being_typed`): a scheme or `www.`, in part or whole (`h`, `https:`, `www`, `https://a`).
 */
function isUrlBeingTyped(text, start, end) {
  const first = text.charCodeAt(start);
  if (start >= end || (first !== 104 && first !== 119)) return false;
  const word = text.slice(start, end);
  return ["https://", "http://", "www."].some((scheme) => word.startsWith(scheme) || scheme.startsWith(word));
}

/** Where the spaces that end `text`'s first `end` units start. */
function withoutSpacesAfter(text, end) {
  while (end > 0 && text.charCodeAt(end - 1) === 32) end -= 1;
  return end;
}


/** The typing point of `typing` (`WasmStream.typing()`), its `line` known: how deep into the tail, before how many of its last units. */
function typingPoint(typing, line) {
  if ((typing & 15) === CODE_SPAN_TYPING) return { depth: (typing >>> 4) & 0x3f, before: typing >>> 10 };
  if ((typing & 3) === WORDS) return { depth: (typing >>> 2) & 0x3f, before: typing >>> 8 };
  if ((typing & 3) === VERBATIM && line >= IN_ELEMENT) return { depth: (typing >>> 8) & 0x3f, before: typing >>> 23 };
  return { depth: 0, before: 0 };
}

/** UTF-16 units of code lines typed here past which a line break pushes them. */
const PUSH_LINES_AT = 4096;

const UTF8 = new TextEncoder();

/** The UTF-8 length of `text`, a string without lone surrogates. */
function utf8Length(text) {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // (A surrogate pair is 2 units and 4 bytes.)
    if (c >= 0x80) bytes += c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}

/** `text` escaped as a code block's text is (`&`, `<`, `>`; pulldown-cmark's body-text escaping). */
function escapeText(text) {
  // (By hand: a regular expression with a replacer costs more than the few
  // characters typed between two tail changes.)
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 38 && c !== 60 && c !== 62) continue;
    out += text.slice(from, i) + (c === 38 ? "&amp;" : c === 60 ? "&lt;" : "&gt;");
    from = i + 1;
  }
  return from ? out + text.slice(from) : text;
}

/** `WasmStream.changeAt()` of a tail change that replaces the tail (else: depth in the low 8 bits, `before` above). */
const REPLACES = 0xffffffff;

/**
 * A patch's parts as `{append, steps, tail?, citations, rewind?, mark?, empty?}`
 * (`rewind`, `mark` and `empty` only when set, as the crate's serde JSON has
 * them), freeing the wasm object. Step lengths are UTF-16 units of `append`.
 */
function patch(parts) {
  try {
    const append = parts.takeHtml();
    const steps = stepsOf(parts.takeSteps(), 0);
    const flags = parts.flags();
    const empty = parts.empty();
    const tail = parts.takeTail();
    const citations = JSON.parse(parts.takeCitations());
    const fields = tail === undefined ? { append, steps, citations } : { append, steps, tail, citations };
    return withFlags(flags, empty === undefined ? fields : { empty, ...fields });
  } finally {
    parts.free();
  }
}

/**
 * A push's patch without its tail, as `WasmStream.takeCommittedMeta()` and
 * `takeCommitted()` hand it over (`meta`: flags, `empty` + 1, where the
 * citations' JSON starts in `text`, then the steps as `takeSteps()` gives them).
 */
function committedPatch(meta, text) {
  const citationsAt = meta[2];
  const append = citationsAt === text.length ? text : text.slice(0, citationsAt);
  const steps = stepsOf(meta, 3);
  const citations = citationsAt === text.length ? [] : JSON.parse(text.slice(citationsAt));
  const fields = { append, steps, citations };
  return withFlags(meta[0], meta[1] === 0 ? fields : { empty: meta[1] - 1, ...fields });
}

/** A patch's steps from `pairs`, `[kind, length, …]` from `from` on, as `Parts.takeSteps()` gives them. */
function stepsOf(pairs, from) {
  const steps = [];
  // (One literal per kind: a computed key made every step an object of a
  // new shape, which V8 reads slowly.)
  for (let i = from; i < pairs.length; i += 2) {
    const kind = pairs[i];
    const n = pairs[i + 1];
    steps.push(kind === 0 ? { open: n } : kind === 1 ? { html: n } : { close: n });
  }
  return steps;
}

/** `fields` with `rewind: true` and `mark: true` first, when `flags` has them. */
function withFlags(flags, fields) {
  if (!flags) return fields;
  return {
    ...(flags & REWIND ? { rewind: true } : {}),
    ...(flags & MARK ? { mark: true } : {}),
    ...fields,
  };
}

/**
 * A patch that changes nothing: one frozen object, handed out by most pushes
 * (a push that commits nothing cost three allocations a push, which the
 * garbage collector then paid for; index.d.ts says patches are read-only).
 */
const NOTHING = Object.freeze({ append: "", steps: Object.freeze([]), citations: Object.freeze([]) });

/** `last`, after `first` when it holds anything (`concat`: a patch then `finish`'s). */
function after(first, last) {
  const empty = !first.append && !first.rewind && !first.mark && first.empty === undefined && !first.citations.length;
  return empty ? last : concat(first, last);
}

/**
 * `first` then `last` as one patch, for `finish` when a held surrogate had
 * to be pushed first. Exact for a last patch: a rewind in `last` withdraws
 * `first`'s append (everything after `first`'s mark, or since the old
 * mark); a mark in `last` after `first` appended is dropped, since nothing
 * comes after `finish` to rewind to it.
 */
function concat(first, last) {
  let flags = 0;
  let head = { append: "", steps: [], citations: [] };
  if (last.rewind) {
    flags = first.mark ? (first.rewind ? REWIND : 0) | MARK : REWIND | (last.mark ? MARK : 0);
  } else {
    flags = (first.rewind ? REWIND : 0) | (first.mark || (last.mark && first.append === "") ? MARK : 0);
    head = first;
  }
  // (`finish` never empties: its element is re-rendered whole. A rewind
  // in `last` withdraws what `first` emptied.)
  const empty = last.rewind ? undefined : first.empty;
  return withFlags(flags, {
    ...(empty === undefined ? {} : { empty }),
    append: head.append + last.append,
    steps: head.steps.concat(last.steps),
    tail: last.tail,
    citations: head.citations.concat(last.citations),
  });
}

/**
 * Compiles the wasm at `url` (the asynchronous entries' `.wasm` file):
 * streaming compilation, off the main thread, where the server says
 * `application/wasm`; otherwise the bytes are read first and compiled.
 */
export async function fetchModule(url) {
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`fetching ${url} gave HTTP ${response.status}`);
  }
  const type = response.headers.get("content-type") ?? "";
  if (typeof WebAssembly.compileStreaming === "function" && /^application\/wasm\b/i.test(type)) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

/**
 * The public API over one entry's wasm. `payload` is the wasm as base64 text
 * (the synchronous entries) or as bytes (the asynchronous entries under
 * Node), compiled synchronously here, or a function returning a promise of
 * the compiled `WebAssembly.Module` (the asynchronous entries elsewhere),
 * which the API waits for: until `ready` resolves, calls throw.
 */
export function makeApi(createGlue, payload) {
  /** The compiled module (a `WebAssembly.Module`), instantiated again after a trap. */
  let compiled = null;
  let failure = null;
  /**
   * The instance in use: `{glue, lost}`, `lost` a sentence once it trapped or
   * was reset (then it is never used again); `null` until the next call
   * instantiates `compiled`.
   */
  let live = null;
  let ready;
  if (typeof payload === "function") {
    ready = later(Promise.resolve().then(payload));
  } else {
    let bytes = typeof payload === "string" ? decodeBase64(payload) : payload;
    try {
      // Synchronous: no top-level await, no `ready` to wait for. Node and
      // browsers compile a module of this size synchronously on the main thread.
      compiled = new WebAssembly.Module(bytes);
      bytes = null;
      live = instantiate();
      ready = Promise.resolve();
    } catch {
      // An engine that refuses synchronous compilation: compile asynchronously
      // and have callers `await ready` (or `await init()`) first.
      ready = later(compiled ? Promise.resolve(compiled) : WebAssembly.compile(bytes));
      bytes = null;
    }
  }

  /** `ready` for a module still being compiled: resolves once it is instantiated. */
  function later(module) {
    const done = module
      .then(async (module) => {
        const glue = createGlue();
        await glue.default({ module_or_path: module });
        compiled = module;
        live = { glue, lost: null };
      })
      .catch((e) => {
        failure = e;
        throw e;
      });
    done.catch(() => {});
    return done;
  }

  function instantiate() {
    const glue = createGlue();
    glue.initSync({ module: compiled });
    return { glue, lost: null };
  }

  /** The instance in use, instantiated again when the last one was retired. */
  function instance() {
    if (live) return live;
    if (!compiled) {
      const csp = failure && /Content Security Policy/i.test(String(failure))
        ? " (the page's Content-Security-Policy must allow it: script-src 'wasm-unsafe-eval')"
        : "";
      throw new Error(
        failure
          ? `citemark: the WebAssembly module failed to load: ${failure}${csp}`
          : "citemark: the WebAssembly module is still compiling; `await ready` (or `await init()`) first",
      );
    }
    live = instantiate();
    return live;
  }

  /** Stops using `record`'s instance: its streams are lost, with `why` as the reason they give. */
  function retire(record, why) {
    record.lost = why;
    record.glue.retire();
    if (live === record) live = null;
  }

  /**
   * Runs `f(glue)` on `record`'s instance. A string it throws is the crate's
   * message about bad input (a `TypeError`); a trap retires the instance and
   * throws an `Error` saying where (`where()`: the call and its input's size).
   */
  function run(record, where, f) {
    try {
      return f(record.glue);
    } catch (e) {
      if (typeof e === "string") throw new TypeError(e);
      if (!isTrap(e)) throw e;
      const place = where();
      retire(record, `the WebAssembly instance trapped in ${place}`);
      throw new Error(
        `citemark: the WebAssembly instance trapped (${e}) in ${place}. This is a bug in citemark: please report it with ` +
          "the input. The next call uses a new instance; streams created before this one are lost and throw.",
        { cause: e },
      );
    }
  }

  function render(markdown, options) {
    expectString("markdown", markdown);
    const { text, trusted } = splitOptions(options);
    const record = instance();
    const result = run(
      record,
      () => `render() of a ${markdown.length}-character markdown`,
      (glue) => rendered(glue.render(markdown, text)),
    );
    if (trusted) result.html = trustedHTML(result.html);
    return result;
  }

  function adapt(provider, response) {
    expectString("provider", provider);
    const text = typeof response === "string" ? response : json("response", response);
    return JSON.parse(
      run(instance(), () => `adapt() of a ${text.length}-character response`, (glue) => glue.adapt(provider, text)),
    );
  }

  class Stream {
    #inner;
    /** The instance the stream lives in (`{glue, lost}`). */
    #record;
    /** A high surrogate that ended the last chunk: its pair comes next. */
    #held = "";
    /** UTF-16 units pushed so far (for a trap's message). */
    #pushed = 0;
    #freed = false;
    #finished = false;
    /** Created with `trustedTypes: true`. */
    #trusted;
    // Typing shown here (docs/streaming.md, "Typing shown by the host"):
    // while the stream says what text typed next shows (a code line, a
    // paragraph's words, a table's row), such text is kept here and handed to the host as
    // tail changes without crossing into wasm; the next other call pushes it
    // first.
    /** `WasmStream.typing()` at the last tail change (0: push). */
    #typing = 0;
    /** Where the code line being typed stands (`SETTLED`, `BLANK`, `FENCE`; `IN_ELEMENT` …). */
    #line = SETTLED;
    /** Text typed so and not pushed yet; how much of it the host was handed; the rest of it. */
    #typed = "";
    #handed = 0;
    /** What the host was handed of it ends a line (`displayed` reads the next line's indentation). */
    #lineStart = false;
    // (Kept apart, so that a change reads only what came since the last:
    // reading the end of `#typed`, a rope of every chunk, would copy it whole.)
    #unhanded = "";
    /** Pushed since the last tail change: the stream has a change to tell. */
    #dirty = false;
    constructor(options) {
      const { text, trusted } = splitOptions(options);
      this.#trusted = trusted;
      this.#record = instance();
      this.#inner = run(
        this.#record,
        () => `createStream() with ${text.length} characters of options`,
        (glue) => new glue.WasmStream(text),
      );
    }
    /** Throws unless the stream can still be used (and still pushed to, for `push`, `pushDeferred` and `finish`). */
    #check(method, pushes = false) {
      if (this.#freed) throw new Error(`citemark: ${method}() on a stream that was freed; create a new stream`);
      if (this.#record.lost) {
        throw new Error(`citemark: ${method}() on a lost stream: ${this.#record.lost}; create a new stream`);
      }
      if (pushes && this.#finished) throw new Error(`citemark: ${method}() after finish(): the stream is finished`);
    }
    /** Runs `f(inner)` for `method`, `chunk` its input, if any (a trap's message gives their sizes). */
    #run(method, chunk, f) {
      const of = chunk === undefined ? "" : ` of a ${chunk.length}-character chunk`;
      return run(
        this.#record,
        () => `${method}()${of}, ${this.#pushed} characters into a stream`,
        () => f(this.#inner),
      );
    }
    /** `chunk` after the held surrogate, holding back one that ends it. */
    #take(chunk) {
      expectString("chunk", chunk);
      let text = this.#held + chunk;
      this.#held = "";
      const last = text.charCodeAt(text.length - 1);
      if (last >= 0xd800 && last <= 0xdbff) {
        this.#held = text.slice(-1);
        text = text.slice(0, -1);
      }
      return text;
    }
    /** `patch` as this stream hands it out (issued as TrustedHTML-safe with `trustedTypes`). */
    #out(patch) {
      return this.#trusted ? issue(patch) : patch;
    }
    /**
     * Pushes the text typed here (what the host was handed of it as
     * shown), so that the stream has all the text; returns its patch: the
     * code lines typing ended, if any (typing the stream vouched for
     * commits nothing else, however it is pushed, which the crate's tests
     * hold it to). Only calls that return a patch push typing.
     */
    #flush(inner) {
      const typed = this.#typed;
      const handed = this.#handed;
      const unhanded = this.#unhanded;
      this.#typing = 0;
      if (!typed) return NOTHING;
      this.#typed = "";
      this.#handed = 0;
      this.#lineStart = false;
      this.#unhanded = "";
      this.#dirty = true;
      // (As UTF-8: see `WasmStream.pushShown`, which counts what showed in
      // bytes: the typed text's but for what came since.)
      const bytes = UTF8.encode(typed);
      const shown = handed ? bytes.length - utf8Length(unhanded) : 0;
      return inner.pushShown(bytes, shown) ? this.#committed(inner) : NOTHING;
    }
    /**
     * Takes back the text typed here when the host was handed none of it,
     * to go to the stream with the text pushed next, in one call (the host
     * shows the tail it was handed, as after any push); `""` otherwise.
     */
    #takeUnshown() {
      const typed = this.#typed;
      if (!typed || this.#handed !== 0) return "";
      this.#typed = this.#unhanded = "";
      this.#typing = 0;
      return typed;
    }
    /** What the typing kept here shows (all of it since the tail change), escaped, inserted into `tail`, the stream's. */
    #withTyping(tail) {
      const typing = this.#typing;
      const html = escapeText(displayed(typing, this.#line, shownOf(typing, this.#line, this.#typed), false));
      const at = tail.length - typingPoint(typing, this.#line).before;
      return tail.slice(0, at) + html + tail.slice(at);
    }
    push(chunk) {
      this.#check("push", true);
      const text = this.#take(chunk);
      const result = this.#run("push", text, (inner) => {
        const flushed = this.#flush(inner);
        this.#dirty = true;
        const tail = inner.push(text);
        const { append, steps, citations, ...flags } = after(flushed, this.#committed(inner));
        return { ...flags, append, steps, tail, citations };
      });
      this.#pushed += text.length;
      return this.#out(result);
    }
    pushDeferred(chunk) {
      this.#check("pushDeferred", true);
      const text = this.#take(chunk);
      const line = this.#typing && text ? typingAfter(this.#typing, this.#line, text) : PUSHED;
      // (Code lines typed here are pushed once they make a few KiB: what is
      // kept here, and the tail the host shows, stay small.)
      if (line !== PUSHED && !(this.#typed.length >= PUSH_LINES_AT && text.includes("\n"))) {
        this.#line = line;
        this.#typed += text;
        this.#unhanded += text;
        this.#pushed += text.length;
        return this.#out(NOTHING);
      }
      const result = this.#run("pushDeferred", text, (inner) => {
        const pending = this.#takeUnshown() + text;
        const flushed = this.#flush(inner);
        this.#dirty = true;
        return after(flushed, inner.pushDeferred(pending) ? this.#committed(inner) : NOTHING);
      });
      this.#pushed += text.length;
      return this.#out(result);
    }
    /** The last push's patch without its tail (most pushes commit nothing). */
    #committed(inner) {
      const meta = inner.takeCommittedMeta();
      return meta.length === 0 ? NOTHING : committedPatch(meta, inner.takeCommitted());
    }
    tail() {
      this.#check("tail");
      const tail = this.#run("tail", undefined, (inner) => (this.#typed ? this.#withTyping(inner.tail()) : inner.tail()));
      return this.#trusted ? trustedHTML(tail) : tail;
    }
    /**
     * How the tail changed since the last call (docs/streaming.md, "The tail
     * as a change"): `undefined` (the same), `{ insert, depth, before }` or
     * `{ replace }`.
     */
    tailChange() {
      this.#check("tailChange");
      if (!this.#dirty) {
        // Only typing shown here since the last change: what of it shows goes at the typing point.
        const typing = this.#typing;
        // (What shows of the typing since the last change shows after what showed before.)
        const shown = shownOf(typing, this.#line, this.#unhanded);
        if (!shown) return undefined;
        const html = escapeText(displayed(typing, this.#line, shown, this.#lineStart));
        this.#lineStart = shown.charCodeAt(shown.length - 1) === 10;
        this.#handed += shown.length;
        this.#unhanded = this.#unhanded.slice(shown.length);
        const insert = this.#trusted ? trustedHTML(html) : html;
        const { depth, before } = typingPoint(typing, this.#line);
        const change = { insert, depth, before };
        return this.#trusted ? Object.freeze(change) : change;
      }
      return this.#run("tailChange", undefined, (inner) => {
        this.#dirty = false;
        if (this.#typed) {
          // New sources while typing was kept here (only calls that return
          // a patch push it): the stream's tail again, with the typing.
          inner.tailChange();
          const replace = this.#withTyping(inner.tail());
          const shown = shownOf(this.#typing, this.#line, this.#typed);
          this.#handed = shown.length;
          this.#lineStart = shown.charCodeAt(shown.length - 1) === 10;
          this.#unhanded = this.#typed.slice(this.#handed);
          const change = { replace: this.#trusted ? trustedHTML(replace) : replace };
          return this.#trusted ? Object.freeze(change) : change;
        }
        const html = inner.tailChange();
        this.#typing = inner.typing();
        this.#line = (this.#typing & 3) === VERBATIM ? (this.#typing >>> 2) & 0x3f : SETTLED;
        if (html === undefined) return undefined;
        const value = this.#trusted ? trustedHTML(html) : html;
        const at = inner.changeAt();
        const change = at === REPLACES ? { replace: value } : { insert: value, depth: at & 0xff, before: at >>> 8 };
        return this.#trusted ? Object.freeze(change) : change;
      });
    }
    openEndTags() {
      this.#check("openEndTags");
      // (Typing kept here opens and closes nothing.)
      return this.#run("openEndTags", undefined, (inner) => inner.openEndTags());
    }
    finish() {
      this.#check("finish", true);
      const held = this.#held;
      this.#held = "";
      const result = this.#run("finish", undefined, (inner) => {
        let first = this.#flush(inner);
        this.#dirty = true;
        if (held) {
          // A lone high surrogate: it becomes U+FFFD, as in `render`.
          inner.pushDeferred(held);
          first = after(first, this.#committed(inner));
        }
        return after(first, patch(inner.finish()));
      });
      this.#finished = true;
      return this.#out(result);
    }
    setSources(sources) {
      this.#check("setSources");
      if (sources === undefined) sources = null;
      if (sources !== null && !Array.isArray(sources)) {
        throw new TypeError(`sources: expected an array or null, got ${describe(sources)}`);
      }
      const text = json("sources", sources);
      this.#run("setSources", undefined, (inner) => {
        // (The tail is rendered again with them. Typing kept here waits for
        // a call that returns a patch: it may end code lines.)
        this.#dirty = true;
        inner.setSources(text);
      });
    }
    citationIndex() {
      this.#check("citationIndex");
      return JSON.parse(this.#run("citationIndex", undefined, (inner) => inner.citationIndex()));
    }
    provisionalIndex() {
      this.#check("provisionalIndex");
      return JSON.parse(
        // (Typing kept here holds no citations: code, words, a row not shown.)
        this.#run("provisionalIndex", undefined, (inner) => inner.provisionalIndex()),
      );
    }
    /**
     * Frees the WebAssembly memory now instead of at garbage collection. Every
     * other method throws afterwards; `free()` again does nothing.
     */
    free() {
      if (this.#freed) return;
      this.#freed = true;
      // A lost stream's instance is retired: there is nothing to free in it.
      if (!this.#record.lost) this.#inner.free();
      this.#inner = null;
    }
  }

  function createStream(options) {
    return new Stream(options);
  }

  function init() {
    return ready;
  }

  /** Bytes of WebAssembly linear memory the instance in use holds (0 before one exists). */
  function memoryBytes() {
    return live ? (live.glue.memory()?.buffer.byteLength ?? 0) : 0;
  }

  /**
   * Drops the instance in use and its memory (linear memory only grows); the
   * next call starts a new one. Streams created before throw on their next call.
   */
  function reset() {
    if (live) retire(live, "citemark was reset (reset())");
  }

  // What the components (citemark/react/core, …) take as `api`: one object, so
  // that passing it keeps nothing else of the entry in a bundle (a namespace,
  // `import * as`, would keep the lite entries' `adapt` and its own wasm).
  const engine = Object.freeze({ createStream, render, ready });

  return { render, adapt, createStream, ready, init, memoryBytes, reset, engine };
}
