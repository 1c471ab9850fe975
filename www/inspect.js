// What the page shows about one citation: the "activated" panel (on click)
// and the hover tooltip. Both read the citation that citemark/hydrate hands
// over: {key, kind, ordinal, href, element, occurrence, source}.

import { el } from "./dom.js";

/** The fields the panel lists, in order: [field, label, value of a citation]. */
const FIELDS = [
  ["title", "Title", titleOf],
  ["href", "Link", (c) => c.source?.href ?? c.href ?? ""],
  ["excerpt", "Excerpt", excerptOf],
  ["kind", "Kind", (c) => c.kind],
  ["key", "Key", (c) => c.key],
  ["ordinal", "Ordinal", (c) => String(c.ordinal)],
  ["label", "Label in the text", (c) => c.occurrence?.label ?? c.element.textContent],
];

/** A query link cites no source: its title is its label, its "excerpt" the query. */
function titleOf(citation) {
  return citation.source?.title ?? citation.element.getAttribute("title") ?? citation.key;
}

function excerptOf(citation) {
  if (citation.source?.excerpt) return citation.source.excerpt;
  if (citation.occurrence?.query !== undefined) return JSON.stringify(citation.occurrence.query, null, 1);
  return "";
}

/** Fills the panel (an <aside> holding a <dl>) with `citation`. */
export function showActivated(panel, citation) {
  const rows = FIELDS.flatMap(([field, label, value]) => {
    const text = value(citation);
    return [el("dt", {}, label), el("dd", { className: text ? "" : "empty" }, text || "none")].map((node) => {
      node.dataset.field = field;
      return node;
    });
  });
  panel.querySelector("dl").replaceChildren(...rows);
  panel.dataset.state = "activated";
  // Flash the panel so a click visibly lands even when it is scrolled aside.
  panel.animate([{ boxShadow: "0 0 0 3px var(--accent)" }, { boxShadow: "0 0 0 0 transparent" }], 600);
}

/** The hover card: shows `citation` under its element, or hides on null. */
export function showTooltip(tooltip, citation) {
  if (!citation) {
    tooltip.hidden = true;
    return;
  }
  const host = hostOf(citation.source?.href ?? citation.href);
  const excerpt = excerptOf(citation);
  tooltip.replaceChildren(
    el("strong", {}, titleOf(citation)),
    excerpt ? el("p", {}, excerpt) : "",
    el("small", {}, [citation.source ? `source ${citation.occurrence?.number}` : citation.kind, host].filter(Boolean).join(" · ")),
  );
  tooltip.hidden = false;
  const box = citation.element.getBoundingClientRect();
  const width = tooltip.offsetWidth;
  tooltip.style.left = `${Math.max(8, Math.min(box.left, innerWidth - width - 8)) + scrollX}px`;
  tooltip.style.top = `${box.bottom + 6 + scrollY}px`;
}

function hostOf(href) {
  try {
    return href ? new URL(href, location.href).host : "";
  } catch {
    return "";
  }
}
