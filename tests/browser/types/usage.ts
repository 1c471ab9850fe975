// Compiled (never run) by types.test.mjs: the declarations in pkg/src must
// type what an app writes, and reject what it must not.
import { hydrate, citationOf, isSafeHref, type Citation, type CitationIndex } from "../../../pkg/src/hydrate.js";
import { citations as action } from "../../../pkg/src/svelte.js";
import { useCitationPortals, useCitations } from "../../../pkg/src/react.js";
import type { Occurrence, SourceUse } from "../../../pkg/src/types.js";
import { createElement, useRef, type ReactPortal } from "react";

declare const index: CitationIndex;
declare const root: HTMLElement;

const handle = hydrate(root, index, {
  onActivate(citation: Citation, event: MouseEvent) {
    const title: string | undefined = citation.source?.title;
    const ordinal: number = citation.ordinal;
    const kind: "cite" | "index" | "shortlink" | "query" = citation.kind;
    const occurrence: Occurrence | null = citation.occurrence;
    event.preventDefault();
    void [title, ordinal, kind, occurrence];
  },
  resolve: async (citation) => (citation.key === "1" ? { href: "https://example.org", title: "One" } : null),
});
handle.update(index, { resolve: () => undefined });
const tip: Citation | null = handle.citationOf(root.firstChild);
const pure: Citation | null = citationOf(root, index);
const safe: boolean = isSafeHref("/x");
handle.destroy();

const first: SourceUse | undefined = index.sources[0];
const uses: number | undefined = first?.uses;

const svelte = action(root, { citations: index, onActivate: (c) => void c.key });
svelte.update({ citations: index });
svelte.destroy();

export function Message({ html, citations }: { html: string; citations: CitationIndex }) {
  const ref = useRef<HTMLDivElement>(null);
  useCitations(ref, citations, { onActivate: (c) => void c.element.focus() });
  const icons: ReactPortal[] = useCitationPortals(ref, citations, (c) => createElement("i", null, c?.ordinal));
  return createElement("div", null, createElement("div", { ref, dangerouslySetInnerHTML: { __html: html } }), icons);
}

// What the declarations must reject.
// @ts-expect-error: kind is a closed set
const badKind: Citation["kind"] = "footnote";
// @ts-expect-error: resolve answers with a Resolution, not a string
hydrate(root, index, { resolve: () => "https://example.org" });
// @ts-expect-error: the Svelte action needs the index
action(root, { onActivate: () => undefined });

void [tip, pure, safe, uses, badKind];
