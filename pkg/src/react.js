// citemark/react: the hydration core as React hooks, and a streamed message
// as a component (CitemarkMessage) over a hook (useCitemark). React (and
// react-dom, for portals) are optional peer dependencies: only this entry
// imports them. This module is `citemark/react/core`: the message takes its
// engine as `api` (required) and imports none, so that a bundle holds only
// the engine the app passes; `citemark/react` (src/default/react.js)
// defaults it to the default entry.

import { Fragment, createElement, memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { createPortal, flushSync } from "react-dom";
import { hydrate, citationOf } from "./hydrate.js";
import { mountMessage } from "./message.js";
import { expectEngine } from "./engine.js";
import { trustedHTML } from "./trusted.js";

// No layout effects on a server (React 18 warns of them there): nothing runs there anyway.
const useClientLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

/**
 * Hydrates the citations inside `ref.current` (which holds citemark's HTML,
 * e.g. via dangerouslySetInnerHTML). `citations` must be the index rendered
 * with that HTML; a new index re-hydrates. Handlers are read when called, so
 * passing new closures each render costs nothing.
 */
export function useCitations(ref, citations, handlers = {}) {
  const latest = useRef(handlers);
  // Updated once the render commits (a discarded render must not leak its handlers).
  useClientLayoutEffect(() => {
    latest.current = handlers;
  });
  // Without onActivate, link clicks must stay the browser's: only then is
  // the handler left out (and its appearing re-hydrates).
  const activates = Boolean(handlers.onActivate);
  useEffect(() => {
    const node = ref.current;
    if (!node) return undefined;
    const handle = hydrate(node, citations, {
      onActivate: activates ? (citation, event) => latest.current.onActivate?.(citation, event) : undefined,
      resolve: (citation) => latest.current.resolve?.(citation),
    });
    return () => handle.destroy();
  }, [ref, citations, activates]);
}

/**
 * Portals rendering `renderIcon(citation)` into each icon-mode placeholder
 * (`span.citation-icon`) inside `ref.current`. Render the returned array
 * anywhere in the component, next to the element holding the HTML.
 */
export function useCitationPortals(ref, citations, renderIcon) {
  const [slots, setSlots] = useState([]);
  // Layout effect: find the placeholders right after React wrote the HTML,
  // before the browser paints them empty.
  useClientLayoutEffect(() => {
    const node = ref.current;
    setSlots(node ? Array.from(node.querySelectorAll(".citation-icon")) : []);
  }, [ref, citations]);
  return slots.map((slot) => {
    const citation = citationOf(slot, citations);
    const key = citation ? `${citation.ordinal}:${citation.key}` : String(slots.indexOf(slot));
    return createPortal(renderIcon(citation), slot, key);
  });
}

const EMPTY = { citations: { occurrences: [], sources: [], uncited: [], diagnostics: [] }, slots: [] };

/** A stable key per placeholder element, for its portal. */
const slotKeys = new WeakMap();
let nextSlotKey = 0;
function slotKey(slot) {
  let key = slotKeys.get(slot);
  if (key === undefined) {
    key = `citemark-slot-${nextSlotKey++}`;
    slotKeys.set(slot, key);
  }
  return key;
}

/**
 * Streams the accumulated text `markdown` into the element `ref` is put on
 * (citemark/message, with the engine `api`): only a new suffix is pushed,
 * other text starts over, patches are applied to the DOM at most once per
 * animation frame, and the message is finished when `streaming` is false. Returns `{ref, html,
 * citations, slots}`: `html` is for `dangerouslySetInnerHTML` (the final
 * HTML when rendered on a server, `""` in a browser, where the stream owns
 * the element's children), `citations` the committed part's index, `slots`
 * the icon placeholders (tail included).
 */
export function useCitemark({ markdown, sources, mode, options, streaming = false, api } = {}) {
  expectEngine(api, "useCitemark", ["createStream", "render"]);
  const ref = useRef(null);
  const message = useRef(null);
  const [state, setState] = useState(EMPTY);
  // The server's render is the final message; in a browser the stream fills the element
  // (with `options.trustedTypes`, React's innerHTML gets an empty TrustedHTML: Trusted Types pages).
  const [html] = useState(() =>
    typeof document === "undefined"
      ? api.render(markdown ?? "", merged(options, sources, mode)).html
      : options?.trustedTypes === true
        ? trustedHTML("")
        : "",
  );

  useClientLayoutEffect(() => {
    const mounted = mountMessage(ref.current, {
      api,
      // From an animation frame, portals go into new placeholders before it is painted.
      onChange: (next, { frame }) => (frame ? flushSync(() => setState(next)) : setState(next)),
    });
    message.current = mounted;
    return () => {
      mounted.destroy();
      if (message.current === mounted) message.current = null;
    };
  }, [api]);

  useClientLayoutEffect(() => {
    message.current?.update({ markdown: markdown ?? "", options: merged(options, sources, mode), streaming });
  });

  return { ref, html, citations: state.citations, slots: state.slots };
}

/** The options the message renders with: `options` with `sources` and `mode` when given. */
function merged(options, sources, mode) {
  if (sources === undefined && mode === undefined) return options;
  return {
    ...options,
    ...(sources === undefined ? {} : { sources }),
    ...(mode === undefined ? {} : { mode }),
  };
}

const WHILE_STREAMING = {};

/** The portals as one child: an update of the text alone (same array) skips them all. */
const Portals = memo(function CitemarkPortals({ portals }) {
  return portals;
});

/** What a placeholder's icon was rendered from, as text: each new index has new objects for the same citations. */
function describe(citation) {
  return citation?.occurrence ? JSON.stringify([citation.occurrence, citation.source]) : "";
}

/**
 * One portal per placeholder, `renderCitation(citation)` inside. A message
 * re-renders on every update of its text, with a new `renderCitation`
 * closure each time: while streaming, the portals are rebuilt only when the
 * placeholders or the index change, and a placeholder's portal is reused
 * (React skips it) while its citation is the same. Once finished, a new
 * `renderCitation` renders every icon again.
 */
function useSlotPortals(slots, citations, renderCitation, streaming) {
  const cache = useRef(new WeakMap());
  const epoch = streaming ? WHILE_STREAMING : renderCitation;
  return useMemo(() => {
    if (!renderCitation) return null;
    return slots.map((slot) => {
      const hit = cache.current.get(slot);
      if (hit && hit.epoch === epoch && hit.citations === citations) return hit.portal;
      const citation = citationOf(slot, citations);
      const seen = describe(citation);
      if (hit && hit.epoch === epoch && hit.seen === seen) {
        hit.citations = citations;
        return hit.portal;
      }
      const portal = createPortal(renderCitation(citation), slot, slotKey(slot));
      cache.current.set(slot, { epoch, citations, seen, portal });
      return portal;
    });
    // renderCitation is read through `epoch`: while streaming, a new closure alone changes nothing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [slots, citations, epoch]);
}

/**
 * A streamed assistant message: `<CitemarkMessage markdown={text}
 * sources={sources} mode="icon" streaming={isStreaming} onActivate={…}
 * renderCitation={(citation) => <MyIcon/>} />`. Renders a `div` (its
 * `className` default `"citemark"`) and one portal per icon placeholder.
 */
export function CitemarkMessage({
  markdown,
  sources,
  mode,
  options,
  streaming,
  api,
  onActivate,
  resolve,
  renderCitation,
  className = "citemark",
}) {
  const { ref, html, citations, slots } = useCitemark({ markdown, sources, mode, options, streaming, api });
  useCitations(ref, citations, { onActivate, resolve });
  const portals = useSlotPortals(slots, citations, renderCitation, Boolean(streaming));
  return createElement(
    Fragment,
    null,
    createElement("div", {
      ref,
      className,
      dangerouslySetInnerHTML: { __html: html },
      suppressHydrationWarning: true,
    }),
    portals ? createElement(Portals, { portals }) : null,
  );
}
