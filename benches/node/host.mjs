// What the Node benches share: a host that keeps the streamed HTML as a
// string, as the crate's `StreamedHtml` does.

/** A host that keeps a string, as `StreamedHtml` does: a rewind truncates to the mark. */
export class StringHost {
  constructor() {
    this.html = "";
    this.markAt = 0;
    this.rewinds = 0;
  }
  apply(patch) {
    if (patch.rewind) {
      this.html = this.html.slice(0, this.markAt);
      this.rewinds += 1;
    }
    if (patch.mark) this.markAt = this.html.length;
    this.html += patch.append;
  }
}
