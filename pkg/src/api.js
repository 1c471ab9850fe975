// The JavaScript face of citemark, shared by the default and the lite entry.
//
// `makeApi(glue, payload)` takes one entry's wasm-bindgen glue (`--target web`,
// with its `import.meta.url` fallback removed at build time) and that entry's
// WebAssembly binary as base64 text, instantiates it, and returns the public
// functions. Values cross the boundary as JSON text: `JSON.stringify` on the
// way in, `JSON.parse` on the way out. Errors from the crate are one-line
// strings naming the bad value's path; they are thrown here as `TypeError`s.

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

function optionsJson(options) {
  if (options === undefined || options === null) return "{}";
  if (typeof options !== "object" || Array.isArray(options)) {
    throw new TypeError(`options: expected an object, got ${describe(options)}`);
  }
  return json("options", options);
}

/** Runs a wasm call; a string it throws is the crate's message about bad input. */
function call(f) {
  try {
    return f();
  } catch (e) {
    if (typeof e === "string") throw new TypeError(e);
    throw e;
  }
}

/** A render's parts as `{html, citations}`, freeing the wasm object. */
function rendered(parts) {
  try {
    return { html: parts.takeHtml(), citations: JSON.parse(parts.takeCitations()) };
  } finally {
    parts.free();
  }
}

const STEP_KINDS = ["open", "html", "close"];
const REWIND = 1;
const MARK = 2;

/**
 * A patch's parts as `{append, steps, tail?, citations, rewind?, mark?, empty?}`
 * (`rewind`, `mark` and `empty` only when set, as the crate's serde JSON has
 * them), freeing the wasm object. Step lengths are UTF-16 units of `append`.
 */
function patch(parts) {
  try {
    const append = parts.takeHtml();
    const pairs = parts.takeSteps();
    const steps = [];
    for (let i = 0; i < pairs.length; i += 2) steps.push({ [STEP_KINDS[pairs[i]]]: pairs[i + 1] });
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

/** `fields` with `rewind: true` and `mark: true` first, when `flags` has them. */
function withFlags(flags, fields) {
  if (!flags) return fields;
  return {
    ...(flags & REWIND ? { rewind: true } : {}),
    ...(flags & MARK ? { mark: true } : {}),
    ...fields,
  };
}

/** A patch that changes nothing. */
const nothing = () => ({ append: "", steps: [], citations: [] });

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

export function makeApi(glue, payload) {
  let initialized = false;
  let failure = null;
  let ready;
  let bytes = decodeBase64(payload);
  try {
    // Synchronous: no top-level await, no `ready` to wait for. Node and
    // browsers compile a module of this size synchronously on the main thread.
    glue.initSync({ module: new WebAssembly.Module(bytes) });
    initialized = true;
    bytes = null;
    ready = Promise.resolve();
  } catch (error) {
    // An engine that refuses synchronous compilation: compile asynchronously
    // and have callers `await ready` (or `await init()`) first.
    ready = WebAssembly.compile(bytes)
      .then((module) => glue.default({ module_or_path: module }))
      .then(() => {
        initialized = true;
        bytes = null;
      })
      .catch((e) => {
        failure = e;
        throw e;
      });
    ready.catch(() => {});
    void error;
  }

  function wasm() {
    if (!initialized) {
      throw new Error(
        failure
          ? `citemark: the WebAssembly module failed to load: ${failure}`
          : "citemark: the WebAssembly module is still compiling; `await ready` (or `await init()`) first",
      );
    }
    return glue;
  }

  function render(markdown, options) {
    expectString("markdown", markdown);
    const opts = optionsJson(options);
    return rendered(call(() => wasm().render(markdown, opts)));
  }

  function adapt(provider, response) {
    expectString("provider", provider);
    const text = typeof response === "string" ? response : json("response", response);
    return JSON.parse(call(() => wasm().adapt(provider, text)));
  }

  class Stream {
    #inner;
    /** A high surrogate that ended the last chunk: its pair comes next. */
    #held = "";
    constructor(options) {
      const opts = optionsJson(options);
      const Inner = wasm().WasmStream;
      this.#inner = call(() => new Inner(opts));
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
    push(chunk) {
      const text = this.#take(chunk);
      const tail = call(() => this.#inner.push(text));
      const { append, steps, citations, ...flags } = this.#committed();
      return { ...flags, append, steps, tail, citations };
    }
    pushDeferred(chunk) {
      const text = this.#take(chunk);
      call(() => this.#inner.pushDeferred(text));
      return this.#committed();
    }
    /** The last push's patch without its tail (most pushes commit nothing). */
    #committed() {
      const parts = this.#inner.committed();
      return parts === undefined ? nothing() : patch(parts);
    }
    tail() {
      return this.#inner.tail();
    }
    openEndTags() {
      return this.#inner.openEndTags();
    }
    finish() {
      if (this.#held) {
        // A lone high surrogate: it becomes U+FFFD, as in `render`.
        const held = this.#held;
        this.#held = "";
        call(() => this.#inner.pushDeferred(held));
        const first = this.#committed();
        return concat(first, patch(call(() => this.#inner.finish())));
      }
      return patch(call(() => this.#inner.finish()));
    }
    setSources(sources) {
      if (sources === undefined) sources = null;
      if (sources !== null && !Array.isArray(sources)) {
        throw new TypeError(`sources: expected an array or null, got ${describe(sources)}`);
      }
      const text = json("sources", sources);
      call(() => this.#inner.setSources(text));
    }
    citationIndex() {
      return JSON.parse(call(() => this.#inner.citationIndex()));
    }
    /** Frees the WebAssembly memory now instead of at garbage collection. */
    free() {
      this.#inner.free();
    }
  }

  function createStream(options) {
    return new Stream(options);
  }

  function init() {
    return ready;
  }

  return { render, adapt, createStream, ready, init };
}
