// Compiled (never run) by types.test.mjs: the declarations in pkg/src must
// type what an app writes, and reject what it must not.
import { hydrate, citationOf, isSafeHref, type Citation, type CitationIndex } from "../../../pkg/src/hydrate.js";
// The entries bound to the default engine (citemark/svelte, /react, /message, /dom: pkg/src/default/).
import { citations as action, citemark, type CitationComponent } from "../../../pkg/src/default/svelte.js";
import { CitemarkMessage, useCitationPortals, useCitations, useCitemark } from "../../../pkg/src/default/react.js";
import { mountMessage, type Message as StreamedMessage } from "../../../pkg/src/default/message.js";
// (Apps import it as "citemark/svelte/CitemarkMessage.svelte", whose `types` is this file.)
import CitemarkMessageSvelte from "../../../pkg/src/default/CitemarkMessage.svelte.js";
import type { Occurrence, SourceUse } from "../../../pkg/src/types.js";
import { mountPatches, mountStream, type PatchView, type StreamView } from "../../../pkg/src/default/dom.js";
// Their engine-free cores (citemark/svelte/core, …), which take the engine as `api`.
import { citemark as citemarkCore } from "../../../pkg/src/svelte.js";
import { CitemarkMessage as CitemarkMessageCore, useCitemark as useCitemarkCore, type MessageApi } from "../../../pkg/src/react.js";
import { mountMessage as mountMessageCore } from "../../../pkg/src/message.js";
import CitemarkMessageSvelteCore from "../../../pkg/src/CitemarkMessage.svelte.js";
import { mountStream as mountStreamCore } from "../../../pkg/src/dom.js";
import { engine as liteEngine } from "../../../pkg/lite.js";
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

// A streamed message, as the README shows it.
export function Answer({ text, isStreaming }: { text: string; isStreaming: boolean }) {
  return createElement(CitemarkMessage, {
    markdown: text,
    sources: [{ id: "a", title: "A", href: "https://a.example/" }],
    mode: "icon",
    streaming: isStreaming,
    onActivate: (citation) => void citation.source?.href,
    renderCitation: (citation) => createElement("i", null, citation?.source?.title ?? "?"),
  });
}

export function OwnElement({ text }: { text: string }) {
  const { ref, html, citations, slots } = useCitemark({ markdown: text, options: { rawHtml: "escape" }, streaming: true });
  const count: number = citations.occurrences.length + slots.length;
  return createElement("section", { ref, "data-count": count, dangerouslySetInnerHTML: { __html: html } });
}

declare const Icon: CitationComponent;
// The Svelte component's declaration, called as Svelte 5 calls a component.
declare const internals: never;
CitemarkMessageSvelte(internals, { markdown: "Hi [1]", sources: [], mode: "icon", streaming: true, icon: Icon, class: "answer" });
// @ts-expect-error: the component takes the text so far
CitemarkMessageSvelte(internals, { sources: [] });
const streamedAction = citemark(root, { markdown: "Hi [1]", sources: null, mode: "icon", streaming: true, icon: Icon });
streamedAction.update({ markdown: "Hi [1] there", streaming: false, onActivate: (c) => void c.ordinal });
streamedAction.destroy();

const message: StreamedMessage = mountMessage(root, { onChange: ({ citations, slots }, { frame }) => void [citations, slots, frame] });
message.update({ markdown: "Hi", options: { sources: [] }, streaming: true });
const slotCount: number = message.slots().length + message.citations().occurrences.length;
message.destroy();

const view: StreamView = mountStream(root, { sources: null, mode: "icon" });
const pushed: string = view.push("Hello [1").append + view.stream.tail();
view.pushDeferred(" world");
view.paint();
view.setSources([{ id: "a", title: "A" }]);
const finalTail: string = view.finish().tail;
const cited: number = view.citationIndex().occurrences.length + view.citations().length;
view.destroy();
const patches: PatchView = mountPatches(root);
patches.apply({ append: "<pre><code>x\n", steps: [{ open: 11 }, { html: 2 }], tail: "y" });
patches.apply({ rewind: true, mark: true });
patches.changeTail({ insert: "z", depth: 0, before: 0 });
patches.changeTail(view.stream.tailChange());
patches.setTail("<p>z</p>");
const withLite: StreamView = mountStream(root, null, { api: { createStream: (options) => view.stream } });

// The cores with an engine (an entry's functions, as `import * as lite from "citemark/lite/async"` gives them).
declare const engine: MessageApi;
export function LiteAnswer({ text }: { text: string }) {
  const own = useCitemarkCore({ markdown: text, api: engine });
  return createElement(CitemarkMessageCore, { markdown: text, mode: "icon", api: engine, className: own.html });
}
const coreMessage: StreamedMessage = mountMessageCore(root, { api: engine });
const coreView: StreamView = mountStreamCore(root, { mode: "icon" }, { api: engine });
citemarkCore(root, { markdown: "Hi", api: engine }).destroy();
// An entry's `engine` is what they take.
createElement(CitemarkMessageCore, { markdown: "Hi", api: liteEngine });
mountStreamCore(root, null, { api: liteEngine }).destroy();
CitemarkMessageSvelteCore(internals, { markdown: "Hi [1]", api: engine });

// What the declarations must reject.
// @ts-expect-error: kind is a closed set
const badKind: Citation["kind"] = "footnote";
// @ts-expect-error: resolve answers with a Resolution, not a string
hydrate(root, index, { resolve: () => "https://example.org" });
// @ts-expect-error: the Svelte action needs the index
action(root, { onActivate: () => undefined });
// @ts-expect-error: a step is open, html or close
patches.apply({ append: "x", steps: [{ text: 1 }] });
// @ts-expect-error: options are checked as render's are
mountStream(root, { mode: "fancy" });
// @ts-expect-error: the message takes the text so far
createElement(CitemarkMessage, { sources: [] });
// @ts-expect-error: a mode citemark knows
citemark(root, { markdown: "", mode: "fancy" });
// @ts-expect-error: the cores need their engine
createElement(CitemarkMessageCore, { markdown: "x" });
// @ts-expect-error: the cores need their engine
mountStreamCore(root, null);
// @ts-expect-error: the cores need their engine
mountMessageCore(root, { onChange: () => undefined });
// @ts-expect-error: the cores need their engine
citemarkCore(root, { markdown: "" });
// @ts-expect-error: the cores need their engine
CitemarkMessageSvelteCore(internals, { markdown: "Hi" });

void [tip, pure, safe, uses, badKind, pushed, finalTail, cited, withLite, slotCount, coreMessage, coreView];
