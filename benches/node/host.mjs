// What the Node benches share: a host that keeps the streamed HTML as a
// string, as the crate's `StreamedHtml` does; a text cut into chunks; the
// shapes of benches/support/shapes.rs.

import { execFileSync } from "node:child_process";

/** `text` cut into chunks of `size` code points. */
export function chunked(text, size) {
  const points = Array.from(text);
  const out = [];
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(""));
  return out;
}

/**
 * benches/support/shapes.rs's `shape(name, bytes)`, from `streamCost` (the
 * `stream_cost` example, which prints it).
 */
export function shapeText(streamCost, name, bytes) {
  return execFileSync(streamCost, ["text", String(bytes), "4", `shape:${name}`], { maxBuffer: 1 << 26 }).toString();
}

/**
 * A host that keeps a string, as `StreamedHtml` does: a rewind truncates to
 * the mark, and `empty` to where the innermost open element's content starts
 * (the patch's `steps` say where elements open and close).
 *
 * The string is kept as its pieces, joined when read: cutting a string that
 * `+=` has built (a V8 rope) flattens the whole of it first, so a host that
 * sliced `html` at every `empty` paid the message's length each time, where
 * `StreamedHtml` pays what it cuts (`String::truncate`).
 */
export class StringHost {
  #pieces = [];
  #length = 0;
  constructor() {
    this.rewinds = 0;
    /** Where each open element's content starts, innermost last. */
    this.contents = [];
    this.mark = { html: 0, contents: [] };
  }
  /** The HTML so far. */
  get html() {
    const html = this.#pieces.join("");
    this.#pieces = [html];
    return html;
  }
  #append(text) {
    if (text.length === 0) return;
    this.#pieces.push(text);
    this.#length += text.length;
  }
  /** Cuts the HTML to its first `length` characters, in time proportional to what goes. */
  #truncate(length) {
    while (this.#length > length) {
      const last = this.#pieces.pop();
      this.#length -= last.length;
      if (this.#length < length) this.#append(last.slice(0, length - this.#length));
    }
  }
  apply(patch) {
    if (patch.rewind) {
      this.#truncate(this.mark.html);
      this.contents = this.mark.contents.slice();
      this.rewinds += 1;
    }
    if (patch.mark) this.mark = { html: this.#length, contents: this.contents.slice() };
    if (patch.empty !== undefined) this.#truncate(this.contents.at(-1));
    let at = 0;
    for (const step of patch.steps) {
      const [[kind, length]] = Object.entries(step);
      this.#append(patch.append.slice(at, at + length));
      at += length;
      if (kind === "open") this.contents.push(this.#length);
      else if (kind === "close") this.contents.pop();
    }
    // (A patch without steps appends as one piece.)
    this.#append(patch.append.slice(at));
  }
}
