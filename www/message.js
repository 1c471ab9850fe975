// One assistant message: its streamed HTML, hydrated citations and the
// "Grounded in N sources" list under it.
//
// The view keeps the markdown received so far; the HTML is a function of that
// text and the mode. Switching modes therefore replays the same text into a
// fresh stream, mid-stream or after the end alike.
//
// citemark/dom applies each patch to the message's body: what became final is
// parsed once and appended (a code block line by line, inside its open
// <pre><code>), and the tail, the unfinished end, is painted once per
// animation frame however many chunks arrived in it.

import { mountStream } from "citemark/dom";
import { hydrate } from "citemark/hydrate";
import { renderOptions } from "./conversation.js";
import { el } from "./dom.js";

/** An assistant message's element, empty and streaming: what a MessageView renders into. */
export function messageArticle() {
  const article = el(
    "article",
    { className: "message assistant" },
    el("div", { className: "body" }),
    el("section", { className: "grounding", hidden: true }),
  );
  article.dataset.state = "streaming";
  return article;
}

export class MessageView {
  #text = "";
  #finished = false;
  /** The body's stream (citemark/dom). */
  #view = null;
  /** The animation frame that will paint the tail, when one is asked for. */
  #frame = 0;
  #handle;
  #options;

  /**
   * `element` is the message's <article>; `turn` its 0-based position;
   * `onActivate(citation)` and `onHover(citation | null)` are the page's.
   */
  constructor(element, { sources, mode, turn, onActivate, onHover }) {
    this.element = element;
    this.body = element.querySelector(".body");
    this.grounding = element.querySelector(".grounding");
    this.#options = (m) => renderOptions(sources, m, turn);
    this.mode = mode;
    this.#restart();
    // One delegated listener for the whole message: the streamed HTML below
    // it changes all the time, and nothing needs re-binding.
    // The tail's citations are clickable too: their occurrence is null until
    // they are appended and the index has them.
    this.#handle = hydrate(this.body, this.#view.citationIndex(), { onActivate });
    const hover = (event) => onHover(this.#handle.citationOf(event.target));
    this.body.addEventListener("mouseover", hover);
    this.body.addEventListener("focusin", hover);
    this.body.addEventListener("mouseleave", () => onHover(null));
    this.body.addEventListener("focusout", () => onHover(null));
  }

  /**
   * A chunk from the model: what became final is appended at once; the tail
   * and the sources list wait for the next animation frame.
   */
  push(chunk) {
    this.#text += chunk;
    this.#view.pushDeferred(chunk);
    this.#frame ||= requestAnimationFrame(() => {
      this.#frame = 0;
      this.#view.paint();
      this.#show();
    });
  }

  /** The model is done: the rest becomes final. */
  finish() {
    this.#cancelFrame();
    this.#finished = true;
    this.#view.finish();
    this.#show();
    this.element.dataset.state = "done";
  }

  /** Renders everything received so far again, in `mode`. */
  setMode(mode) {
    this.mode = mode;
    this.#restart();
    if (this.#text) this.#view.push(this.#text);
    if (this.#finished) this.#view.finish();
    this.#show();
  }

  #restart() {
    this.#cancelFrame();
    this.#view?.destroy();
    this.#view = mountStream(this.body, this.#options(this.mode));
    this.#show();
  }

  #cancelFrame() {
    if (this.#frame) cancelAnimationFrame(this.#frame);
    this.#frame = 0;
  }

  /** Brings the hydration and the sources list up to date with the index. */
  #show() {
    // While streaming, the tail's citations too: they hydrate and count as cited.
    const index = this.#finished ? this.#view.citationIndex() : this.#view.provisionalIndex();
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
