// citemark/hydrate: makes the citation elements citemark wrote interactive.
//
// One click listener on the root (event delegation), so HTML that changes
// under it (a streamed answer growing block by block) needs no re-binding.
// No keydown listener: Enter on a link and Enter/Space on a button already
// fire `click`, so listening to keys as well would activate twice.

const SELECTOR = "[data-citation-key]";
const SAFE_PROTOCOLS = ["http:", "https:", "mailto:"];
// citemark's default `linkRel`, for links that resolve() points elsewhere.
const EXTERNAL_REL = "noopener noreferrer nofollow";

/**
 * The citation `node` (or the citation element around it) stands for,
 * looked up in `index` by its ordinal; `null` when `node` is not in a citation.
 */
export function citationOf(node, index) {
  const start = node instanceof Element ? node : node?.parentElement;
  const element = start ? start.closest(SELECTOR) : null;
  if (!element) return null;
  const ordinal = Number(element.getAttribute("data-citation-ordinal"));
  const key = element.getAttribute("data-citation-key");
  // The index may lag behind the HTML while a stream arrives: an occurrence
  // only counts when it is the same citation (same ordinal and key).
  const occurrences = index?.occurrences ?? [];
  const candidate = occurrences[ordinal - 1] ?? occurrences.find((o) => o.ordinal === ordinal);
  const occurrence = candidate && candidate.ordinal === ordinal && candidate.key === key ? candidate : null;
  return {
    key,
    kind: element.getAttribute("data-citation-kind"),
    ordinal,
    resolved: !element.classList.contains("citation-unresolved"),
    href: element.getAttribute("href"),
    element,
    occurrence,
    source: sourceOf(occurrence, index),
  };
}

/** The source an occurrence cites (`number` is 1-based into `index.sources`). */
function sourceOf(occurrence, index) {
  const number = occurrence?.number;
  if (number == null) return null;
  const sources = index.sources ?? [];
  const use = sources[number - 1]?.number === number ? sources[number - 1] : sources.find((s) => s.number === number);
  return use?.source ?? null;
}

/** Whether `href` is a URL citemark itself would write (http, https, mailto, relative). */
export function isSafeHref(href, base = document.baseURI) {
  try {
    return SAFE_PROTOCOLS.includes(new URL(href, base).protocol);
  } catch {
    return false;
  }
}

/**
 * Hydrates the citations under `root`. Returns a handle with `update`,
 * `citationOf` and `destroy`.
 */
export function hydrate(root, citations, options = {}) {
  let index = citations;
  let { onActivate, resolve } = options;
  let destroyed = false;
  // What resolve() supplied, per element: a source for citationOf() to report.
  const resolvedByHost = new WeakMap();
  // Elements whose resolution is a promise not settled yet: not offered again
  // (update() comes with every streamed chunk; one lookup per citation).
  const pending = new WeakSet();

  function lookup(node) {
    const citation = citationOf(node, index);
    if (citation && !citation.source && resolvedByHost.has(citation.element)) {
      citation.source = resolvedByHost.get(citation.element);
    }
    return citation;
  }

  function onClick(event) {
    const citation = event.target instanceof Element ? lookup(event.target) : null;
    if (!citation || !root.contains(citation.element) || !onActivate) return;
    if (citation.element.localName === "a") {
      // Modified and non-primary clicks keep the browser's own behaviour
      // (new tab, new window, download); only a plain click is the app's.
      if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
    }
    onActivate(citation, event);
  }

  function apply(element, result) {
    if (destroyed || !result || !element.classList.contains("citation-unresolved")) return;
    // Host data is as untrusted as the markdown: same URL policy as citemark.
    const href = typeof result.href === "string" && isSafeHref(result.href) ? result.href : undefined;
    const title = typeof result.title === "string" ? result.title : undefined;
    if (href !== undefined && element.localName === "a") {
      element.setAttribute("href", href);
      if (new URL(href, document.baseURI).origin !== location.origin && !element.hasAttribute("rel")) {
        element.setAttribute("rel", EXTERNAL_REL);
      }
    }
    if (title !== undefined) element.setAttribute("title", title);
    element.classList.remove("citation-unresolved");
    resolvedByHost.set(element, { title, href });
  }

  // Offers every still-unresolved citation to resolve(); it may answer at
  // once or with a promise (sources fetched after the text arrived).
  function resolveAll() {
    if (!resolve) return;
    for (const element of root.querySelectorAll(`${SELECTOR}.citation-unresolved`)) {
      if (pending.has(element)) continue;
      const result = resolve(lookup(element));
      if (result && typeof result.then === "function") {
        pending.add(element);
        // A rejection stays unhandled (the host sees its error); the element
        // is offered again at the next update().
        result.then((value) => apply(element, value)).finally(() => pending.delete(element));
      } else {
        apply(element, result);
      }
    }
  }

  root.addEventListener("click", onClick);
  resolveAll();

  return {
    /** A new index for the same root (a stream grew); optionally new handlers. */
    update(next, handlers) {
      index = next;
      if (handlers) ({ onActivate, resolve } = handlers);
      resolveAll();
    },
    /** The citation at (or around) `node`, e.g. for a hover tooltip. */
    citationOf: lookup,
    destroy() {
      destroyed = true;
      root.removeEventListener("click", onClick);
    },
  };
}
