// citemark/react: the hydration core as React hooks. React (and react-dom,
// for portals) are optional peer dependencies: only this entry imports them.

import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { hydrate, citationOf } from "./hydrate.js";

/**
 * Hydrates the citations inside `ref.current` (which holds citemark's HTML,
 * e.g. via dangerouslySetInnerHTML). `citations` must be the index rendered
 * with that HTML; a new index re-hydrates. Handlers are read when called, so
 * passing new closures each render costs nothing.
 */
export function useCitations(ref, citations, handlers = {}) {
  const latest = useRef(handlers);
  // Updated once the render commits (a discarded render must not leak its handlers).
  useLayoutEffect(() => {
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
  useLayoutEffect(() => {
    const node = ref.current;
    setSlots(node ? Array.from(node.querySelectorAll(".citation-icon")) : []);
  }, [ref, citations]);
  return slots.map((slot) => {
    const citation = citationOf(slot, citations);
    const key = citation ? `${citation.ordinal}:${citation.key}` : String(slots.indexOf(slot));
    return createPortal(renderIcon(citation), slot, key);
  });
}
