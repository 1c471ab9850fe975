// One assistant message: its streamed HTML, hydrated citations and the
// "Grounded in N sources" list under it.
//
// The view keeps the markdown received so far; the HTML is a function of that
// text and the mode. Switching modes therefore replays the same text into a
// fresh stream, mid-stream or after the end alike.

import { createStream } from "citemark";
import { hydrate } from "citemark/hydrate";
import { renderOptions } from "./conversation.js";
import { el } from "./dom.js";

export class MessageView {
  #text = "";
  #finished = false;
  #stream = null;
  #handle;
  #options;

  /**
   * `element` is the message's <article>; `turn` its 0-based position;
   * `onActivate(citation)` and `onHover(citation | null)` are the page's.
   */
  constructor(element, { sources, mode, turn, onActivate, onHover }) {
    this.element = element;
    this.body = element.querySelector(".body");
    this.committed = element.querySelector(".committed");
    this.tailBox = element.querySelector(".tail");
    this.grounding = element.querySelector(".grounding");
    this.#options = (m) => renderOptions(sources, m, turn);
    this.mode = mode;
    this.#restart();
    // One delegated listener for the whole message: the streamed HTML below
    // it changes all the time, and nothing needs re-binding.
    this.#handle = hydrate(this.body, this.#stream.citationIndex(), { onActivate });
    const hover = (event) => onHover(this.#handle.citationOf(event.target));
    this.body.addEventListener("mouseover", hover);
    this.body.addEventListener("focusin", hover);
    this.body.addEventListener("mouseleave", () => onHover(null));
    this.body.addEventListener("focusout", () => onHover(null));
  }

  /** A chunk from the model: append what became final, replace the tail. */
  push(chunk) {
    this.#text += chunk;
    this.#apply(this.#stream.push(chunk));
  }

  /** The model is done: the rest becomes final. */
  finish() {
    this.#finished = true;
    this.#apply(this.#stream.finish());
    this.element.dataset.state = "done";
  }

  /** Renders everything received so far again, in `mode`. */
  setMode(mode) {
    this.mode = mode;
    this.#restart();
    if (this.#text) this.#apply(this.#stream.push(this.#text));
    if (this.#finished) this.#apply(this.#stream.finish());
  }

  #restart() {
    this.#stream?.free();
    this.#stream = createStream(this.#options(this.mode));
    this.committed.replaceChildren();
    this.tailBox.replaceChildren();
    this.#show();
  }

  #apply(patch) {
    // Appended blocks never change: parse and add only the new ones.
    if (patch.append) this.committed.insertAdjacentHTML("beforeend", patch.append);
    this.tailBox.innerHTML = patch.tail;
    this.#show();
  }

  /** Brings the hydration and the sources list up to date with the index. */
  #show() {
    const index = this.#stream.citationIndex();
    this.#handle?.update(index);
    renderGrounding(this.grounding, index, this.#finished);
  }
}

/**
 * "Grounded in N sources": the cited ones by display number, then (once the
 * answer is complete: until then a source may still be cited) the uncited.
 */
function renderGrounding(section, index, finished) {
  const { sources } = index;
  const uncited = finished ? index.uncited : [];
  section.hidden = sources.length === 0 && uncited.length === 0;
  const heading = el("h3", {}, `Grounded in ${sources.length} source${sources.length === 1 ? "" : "s"}`);
  const cited = el(
    "ol",
    { className: "sources" },
    ...sources.map((use) =>
      el(
        "li",
        { value: use.number },
        sourceLink(use.source),
        el("span", { className: "uses" }, use.uses === 1 ? "cited once" : `cited ${use.uses}×`),
      ),
    ),
  );
  const rest = uncited.length
    ? el(
        "p",
        { className: "uncited" },
        "Also retrieved, not cited: ",
        ...uncited.flatMap((use, i) => [i ? ", " : "", sourceLink(use.source)]),
      )
    : "";
  section.replaceChildren(heading, cited, rest);
}

function sourceLink(source) {
  const title = source.title ?? source.id ?? "untitled source";
  // Only http(s) hrefs become links: sources are data from elsewhere.
  return /^https?:\/\//i.test(source.href ?? "")
    ? el("a", { href: source.href, rel: "noopener noreferrer", target: "_blank", title: source.href }, title)
    : el("span", {}, title);
}
