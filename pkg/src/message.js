// citemark/message: a message element fed the accumulated text of a streamed
// answer, as chat SDKs hand it out (the whole text so far, on every token).
// The framework components (citemark/react, citemark/svelte) are thin shells
// over it. This module is `citemark/message/core`: it takes its engine as
// `api` and imports none; `citemark/message` (src/default/message.js)
// defaults it to the default entry.
//
// Each update names the text so far. When it extends what was pushed, only
// the new suffix is pushed to the stream; otherwise (an edit, a regenerate,
// other options) the message starts over with a new stream. The patches are
// applied by citemark/dom (work proportional to each patch), at most once
// per animation frame while streaming, at once when the text is final.
// New sources are given to the stream without re-parsing what was committed
// when that cannot change its HTML (sources appended to the old ones, every
// committed citation resolved: `keepsCommitted`); otherwise the message
// starts over.

import { mountStream } from "./dom.js";
import { expectEngine } from "./engine.js";

const PLACEHOLDER = "citation-icon";

const frame =
  typeof requestAnimationFrame === "function"
    ? [(f) => requestAnimationFrame(f), (id) => cancelAnimationFrame(id)]
    : [(f) => setTimeout(f, 16), (id) => clearTimeout(id)];

const EMPTY_INDEX = Object.freeze({ occurrences: [], sources: [], uncited: [], diagnostics: [] });

/** `options` without `sources`, as text: a change restarts the stream. */
function optionsKey(options) {
  if (options === undefined || options === null) return "{}";
  if (typeof options !== "object" || Array.isArray(options)) {
    throw new TypeError(`options: expected an object, got ${Array.isArray(options) ? "an array" : typeof options}`);
  }
  const { sources: _, ...rest } = options;
  return JSON.stringify(rest);
}

/** Each source as JSON text ([] for null: nothing known). */
function sourcesKeys(sources) {
  return Array.isArray(sources) ? sources.map((s) => JSON.stringify(s)) : [];
}

/**
 * Mounts a message into `element` (emptied first, then owned), its streams
 * created by `api.createStream` (the engine, required). `onChange`
 * is called after the citation index or the icon placeholders changed, with
 * `{citations, slots}` and `{frame}` (true when called from an animation
 * frame rather than from `update`).
 */
export function mountMessage(element, { api, onChange, typeset } = {}) {
  expectEngine(api, "mountMessage");
  /** The last update's wishes. */
  let target = null;
  /** What the stream holds: its view, the text pushed, its options and sources. */
  let view = null;
  let text = "";
  let key = "";
  let sources = null;
  let keys = [];
  let finished = false;
  let destroyed = false;
  let scheduled = null;
  let citations = EMPTY_INDEX;
  let indexStale = false;
  let slots = [];
  /** Every citation element in the message, committed or in the tail. */
  const liveCitations = element.getElementsByClassName("citation");
  /** The text and options a failure stopped at (updates that only extend it wait). */
  let failed = null;

  function restart() {
    view?.destroy();
    view = null;
    text = "";
    finished = false;
    indexStale = true;
    sources = target.sources;
    keys = target.keys;
    key = target.key;
    const options = { ...target.options, sources };
    view = mountStream(element, options, { api, typeset });
  }

  /**
   * Whether the `next` sources (`nextKeys` their JSON) leave the committed
   * HTML as it is: they append to the old ones without taking an old id or
   * an old number (an explicit `index` other than its position's), and
   * every committed citation was resolved, no `[n]` left as text for want
   * of a source (an `unresolvedIndex` diagnostic).
   */
  function keepsCommitted(next, nextKeys) {
    if (nextKeys.length < keys.length || keys.some((k, i) => k !== nextKeys[i])) return false;
    const ids = new Set((sources ?? []).map((s) => s?.id));
    for (let i = keys.length; i < next.length; i++) {
      const source = next[i];
      if (source?.index !== undefined && source.index !== i + 1) return false;
      if (source?.id !== undefined && ids.has(source.id)) return false;
    }
    if (citations.diagnostics.some((d) => d.kind === "unresolvedIndex")) return false;
    return view.citations().every((o) => o.resolved);
  }

  /** Frees the stream, even one lost to a trap or to `reset()` (whose `free` may throw). */
  function drop() {
    try {
      view?.destroy();
    } catch {
      // Nothing more to free.
    }
    view = null;
    text = "";
  }

  function flush(fromFrame) {
    if (scheduled !== null) frame[1](scheduled);
    scheduled = null;
    if (destroyed || target === null) return;
    if (failed && failed.key === target.key && target.markdown.startsWith(failed.text)) return;
    failed = null;
    try {
      apply();
    } catch (error) {
      drop();
      // A stream lost to a trap or to `reset()` elsewhere: the next stream gets a
      // new instance, so the message starts over once. Bad options (a TypeError),
      // or a second failure, stop it until other text or options come.
      try {
        if (error instanceof TypeError) throw error;
        apply();
      } catch (again) {
        drop();
        failed = { key: target.key, text: target.markdown };
        throw again;
      }
    }
    // A citation element the index does not list is the tail's: read the
    // provisional index, which does (a live count, no DOM walk).
    if (!finished && liveCitations.length !== citations.occurrences.length) indexStale = true;
    if (indexStale) {
      indexStale = false;
      citations = finished ? view.citationIndex() : view.provisionalIndex();
      notify(fromFrame, true);
    } else {
      notify(fromFrame, false);
    }
  }

  /** The stream's work for the last update: a restart or new sources, the suffix, the tail or the end. */
  function apply() {
    const { markdown, streaming } = target;
    const extends_ = view !== null && key === target.key && markdown.startsWith(text) && !(finished && markdown !== text);
    if (!extends_) {
      restart();
    } else if (target.sources !== sources) {
      if (target.keys.length !== keys.length || target.keys.some((k, i) => k !== keys[i])) {
        if (keepsCommitted(target.sources ?? [], target.keys)) {
          view.setSources(target.sources);
          indexStale = true;
        } else {
          restart();
        }
      }
      sources = target.sources;
      keys = target.keys;
    }
    const suffix = markdown.slice(text.length);
    if (suffix) {
      const patch = view.pushDeferred(suffix);
      text = markdown;
      if (patch.citations.length || patch.rewind || patch.empty !== undefined) indexStale = true;
    }
    if (!streaming && !finished) {
      view.finish();
      finished = true;
      indexStale = true;
    } else {
      view.paint();
    }
  }

  /** Tells `onChange` when the index changed or the placeholders did (tail included). */
  function notify(fromFrame, indexChanged) {
    const found = element.getElementsByClassName(PLACEHOLDER);
    let same = found.length === slots.length;
    for (let i = 0; same && i < found.length; i++) same = found[i] === slots[i];
    if (!same) slots = Array.from(found);
    if ((indexChanged || !same) && onChange) onChange({ citations, slots }, { frame: fromFrame });
  }

  return {
    element,
    /**
     * The text so far and how to render it. While `streaming`, the work
     * waits for the next animation frame (the first update after mounting
     * excepted); when not, the message is finished at once.
     */
    update({ markdown, options, streaming = false }) {
      if (destroyed) throw new Error("citemark/message: update after destroy()");
      if (typeof markdown !== "string") {
        throw new TypeError(`markdown: expected a string, got ${markdown === null ? "null" : typeof markdown}`);
      }
      const next = options?.sources ?? null;
      const unchanged =
        target !== null &&
        target.markdown === markdown &&
        target.options === options &&
        target.streaming === Boolean(streaming);
      if (unchanged) return;
      target = {
        markdown,
        options,
        streaming: Boolean(streaming),
        key: optionsKey(options),
        sources: next,
        keys: next === sources ? keys : sourcesKeys(next),
      };
      if (!target.streaming || view === null) {
        flush(false);
      } else if (scheduled === null) {
        scheduled = frame[0](() => {
          scheduled = null;
          flush(true);
        });
      }
    },
    /** The committed part's citation index (all of it once finished). */
    citations: () => citations,
    /** The icon placeholders (`span.citation-icon`) in the element, tail included. */
    slots: () => slots,
    /** Cancels the pending frame and frees the stream; the element keeps its content. */
    destroy() {
      if (destroyed) return;
      destroyed = true;
      if (scheduled !== null) frame[1](scheduled);
      scheduled = null;
      view?.destroy();
      view = null;
    },
  };
}
