// What the Node benches share: a host that keeps the streamed HTML as a
// string, as the crate's `StreamedHtml` does.

/**
 * A host that keeps a string, as `StreamedHtml` does: a rewind truncates to
 * the mark, and `empty` to where the innermost open element's content starts
 * (the patch's `steps` say where elements open and close).
 */
export class StringHost {
  constructor() {
    this.html = "";
    this.rewinds = 0;
    /** Where each open element's content starts, innermost last. */
    this.contents = [];
    this.mark = { html: 0, contents: [] };
  }
  apply(patch) {
    if (patch.rewind) {
      this.html = this.html.slice(0, this.mark.html);
      this.contents = this.mark.contents.slice();
      this.rewinds += 1;
    }
    if (patch.mark) this.mark = { html: this.html.length, contents: this.contents.slice() };
    if (patch.empty !== undefined) this.html = this.html.slice(0, this.contents.at(-1));
    let at = 0;
    for (const step of patch.steps) {
      const [[kind, length]] = Object.entries(step);
      this.html += patch.append.slice(at, at + length);
      at += length;
      if (kind === "open") this.contents.push(this.html.length);
      else if (kind === "close") this.contents.pop();
    }
    // (A patch without steps appends as one piece.)
    this.html += patch.append.slice(at);
  }
}
