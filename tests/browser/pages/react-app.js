// The React test page's module: a chat message component using the hooks
// as an app would, with a stand-in for a design system's <CitationIcon/>.
import { StrictMode, createElement as h, useRef } from "react";
import { createRoot, flushSync } from "react-dom";
import { useCitationPortals, useCitations } from "/pkg/src/react.js";

const calls = [];

function CitationIcon({ citation }) {
  return h("i", { className: "test-icon", "data-ordinal": citation?.ordinal }, citation?.source?.title ?? "?");
}

function Message({ html, citations, tag }) {
  const ref = useRef(null);
  useCitations(ref, citations, {
    // A new closure every render, as apps write them: the latest must be called.
    onActivate: (citation) => calls.push({ tag, ordinal: citation.ordinal, key: citation.key, title: citation.source?.title ?? null }),
  });
  const icons = useCitationPortals(ref, citations, (citation) => h(CitationIcon, { citation }));
  return h("div", null, h("div", { ref, className: "message", dangerouslySetInnerHTML: { __html: html } }), icons);
}

let root;
const fixtures = {};
window.test = {
  calls,
  /** Keeps a rendered answer in the page, so re-renders pass the same objects (as React state would). */
  load(name, fixture) {
    fixtures[name] = fixture;
  },
  /**
   * (Re-)renders <Message/> with a loaded answer synchronously into #root.
   * StrictMode runs every effect twice on mount (set up, clean up, set up):
   * a listener left behind would show as a second activation.
   */
  render(name, tag) {
    root ??= createRoot(document.getElementById("root"));
    flushSync(() => root.render(h(StrictMode, null, h(Message, { ...fixtures[name], tag }))));
  },
  unmount() {
    root.unmount();
    root = undefined;
  },
};
document.documentElement.dataset.ready = "1";
