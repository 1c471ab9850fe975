// The hydration test page's module: exposes the entry points under test to
// the tests' page.evaluate() calls, and records what the handlers receive.
import * as core from "/pkg/src/hydrate.js";
import { citations as svelteAction } from "/pkg/src/svelte.js";

// Plain data about a citation (page.evaluate can only return JSON).
function describe(citation, event, tag) {
  return {
    tag,
    key: citation.key,
    kind: citation.kind,
    ordinal: citation.ordinal,
    resolved: citation.resolved,
    href: citation.href,
    occurrence: citation.occurrence,
    sourceTitle: citation.source?.title ?? null,
    sourceExcerpt: citation.source?.excerpt ?? null,
    elementTitle: citation.element.getAttribute("title"),
    eventType: event?.type ?? null,
    detail: event?.detail ?? null,
  };
}

const calls = [];
window.test = {
  core,
  svelteAction,
  calls,
  describe,
  /** An onActivate that records its calls under `tag`. */
  recorder: (tag) => (citation, event) => calls.push(describe(citation, event, tag)),
  /** Puts `html` in #root (emptied first) and returns it. */
  show(html) {
    const root = document.getElementById("root");
    root.innerHTML = html;
    return root;
  },
};

// Whether a click reached the document with its default prevented: recorded
// last in the bubble phase, then prevented so no test navigates the page away.
window.clickLog = [];
document.addEventListener("click", (event) => {
  window.clickLog.push({ defaultPrevented: event.defaultPrevented });
  event.preventDefault();
});
document.documentElement.dataset.ready = "1";
