// Type declarations for `citemark` (and `citemark/lite`, which has the same API).
// Hand-written from the crate's serde types (camelCase JSON); keep them in step
// with src/options.rs, src/stream/mod.rs and src/adapters/mod.rs (the index's
// types, from src/cite/index.rs and src/source.rs, are in src/types.d.ts).

import type { CitationIndex, CitationKind, Diagnostic, DiagnosticKind, JsonValue, Occurrence, Range, Source, SourceUse } from "./src/types.js";

// The citation index's types are declared once, in src/types.d.ts, for every entry point.
export type { CitationIndex, CitationKind, Diagnostic, DiagnosticKind, JsonValue, Occurrence, Range, Source, SourceUse };

/** A range of UTF-8 **bytes** in the input markdown (not UTF-16 string indices); `Range` in src/types.d.ts. */
export type Span = Range;

/** How each citation occurrence is written. Default `"link"`. */
export type Mode = "link" | "button" | "icon";

/**
 * What happens to raw HTML in the markdown. Default `"sanitize"` (a strict
 * allowlist). In `citemark/lite`, which leaves the sanitizer out,
 * `"sanitize"` escapes raw HTML as `"escape"` does.
 */
export type RawHtml = "sanitize" | "escape" | "strip";
/**
 * What happens to images: `"show"` writes `<img>` (the browser loads it as the
 * message appears); `"link"` a link to the image around its alt text; `"alt"`
 * the alt text alone. With `"link"` or `"alt"`, raw `<img>` tags are dropped.
 * Choose one of those when answers may carry prompt-injected image URLs.
 */
export type Images = "show" | "link" | "alt";

/**
 * The citation syntaxes to recognize; each defaults to `true` except the
 * opt-in marker spellings `copilotMarkers` and `promptMarkers`.
 */
export interface Syntaxes {
  /** `<cite id="call_1">label</cite>`. */
  citeTags?: boolean;
  /** `[1]`, `[2][3]`, `[1, 3]`, `[1-3]`, `[1#page=3]`. */
  markers?: boolean;
  /** Links and bare URLs matching `shortLinkPatterns`. */
  shortLinks?: boolean;
  /** Links to `…/-/open-query?query=<JSON>`. */
  queryLinks?: boolean;
  /** Clean up LLM slips around citation links. */
  recovery?: boolean;
  /** Copilot's `[^1^]`. Default `false`. */
  copilotMarkers?: boolean;
  /** Prompt templates' `[citation:3]` and `[source: 3]`. Default `false`. */
  promptMarkers?: boolean;
  /** OpenAI file search's `【3†source】` and `【3:0†file.pdf】`. Default `true`. */
  fileSearchMarkers?: boolean;
}

/** A URL path template whose `{name}` segments capture; `key` names the capture that is the citation key. */
export interface ShortLinkPattern {
  template: string;
  key: string;
}

/**
 * Everything that shapes one render. Every field is optional; unknown fields
 * and values of the wrong type throw a `TypeError` naming their path
 * (`options.sources[0].index: invalid type: …`).
 */
export interface Options {
  /** The host's sources; `null`/absent means "not known yet" (every `[n]` renders unresolved). */
  sources?: Source[] | null;
  /** Old citation keys mapped to new ones (forked conversations). */
  aliases?: Record<string, string>;
  mode?: Mode;
  /** In `"icon"` mode, write buttons instead of links. Default `false`. */
  embedded?: boolean;
  rawHtml?: RawHtml;
  /** Which URL schemes links and images may carry; only `"safe"` can be chosen. */
  urls?: "safe";
  syntaxes?: Syntaxes;
  shortLinkPatterns?: ShortLinkPattern[];
  /** GFM extended autolinks. Default `true`. */
  autolinks?: boolean;
  /** `rel` on external links; `null` writes none. Default `"noopener noreferrer nofollow"`. */
  linkRel?: string | null;
  /** `target` on external links. Default none. */
  linkTarget?: string | null;
  /** Prefix of every `id` citemark writes. Default `"user-content-"`. */
  idPrefix?: string;
  /** What happens to images. Default `"show"`. */
  images?: Images;
  /**
   * TeX math (`$…$`, `\(…\)` inline; `$$…$$`, `\[…\]` displayed) as
   * `<span class="math math-inline">` / `math-display` holding the TeX as
   * text, for the host to typeset. Default `true`.
   */
  math?: boolean;
  /**
   * JavaScript only: hand HTML over as `TrustedHTML` made by the Trusted Types
   * policy `citemark` (created on first use), for pages whose CSP has
   * `require-trusted-types-for 'script'`: `render`'s `html`, a stream's
   * `tail()` and its patches' `tail` (patches are then frozen, for
   * `citemark/dom`). Where the browser has no Trusted Types, strings. Default `false`.
   */
  trustedTypes?: boolean;
}

/**
 * A `TrustedHTML` made by the `citemark` Trusted Types policy (assign it to
 * `innerHTML` as is; `String(html)` is the HTML); a plain string where the
 * browser has no Trusted Types.
 */
export type TrustedHTML = string | { toString(): string; toJSON(): string };

/** `Options` with `trustedTypes: true`. */
export type TrustedOptions = Options & { trustedTypes: true };

/** What `render` returns with `trustedTypes: true`. */
export interface TrustedRendered {
  html: TrustedHTML;
  citations: CitationIndex;
}

/** What `render` returns. */
export interface Rendered {
  /** Sanitized HTML, safe to insert with `innerHTML`. */
  html: string;
  citations: CitationIndex;
}

/**
 * One piece of a patch's `append`, by its length in UTF-16 code units (a JS
 * string's indices; the crate counts UTF-8 bytes): the steps of a patch are
 * consecutive and cover all of `append`.
 * - `{open: n}`: the next `n` units open an element (`<pre><code class="language-rust">`)
 *   and may hold its first content; the new innermost open element is the last
 *   element inserted, then its last child while that is an element.
 * - `{html: n}`: balanced HTML, appended inside the innermost open element
 *   (the message's root when none is open).
 * - `{close: n}`: the end tags of the innermost open element (`</code></pre>`).
 */
export type Step = { open: number } | { html: number } | { close: number };

/**
 * What changed after a `push`, applied in this order (`citemark/dom`'s
 * `mountPatches` applies patches to an element; docs/streaming.md has the protocol):
 * `rewind`, `mark`, `empty`, `append` cut by `steps`, then `tail`.
 * Read it, do not change it: a patch that changes nothing may be one
 * shared, frozen object.
 */
export interface Patch {
  /**
   * First: withdraw the HTML appended since the mark, and the citations that
   * came with it (the mark stays). Present only when `true`.
   */
  rewind?: true;
  /**
   * Then: what was appended so far is final; remember this place (no element
   * is open there but, maybe, a raw element such as `<details>`). Present only
   * when `true`.
   */
  mark?: true;
  /**
   * Then: the innermost open element loses what was appended inside it after
   * its open step, and only the first `empty` citations stay (a list that
   * turned loose is appended again, its items now paragraphs). Present only
   * when it happens.
   */
  empty?: number;
  /**
   * HTML to append. It may open an element that a later patch closes (a long
   * code block arrives line by line inside its `<pre><code>`): without a
   * rewind, the appends of every patch concatenated are `render`'s HTML.
   */
  append: string;
  /** `append` cut where it opens and closes elements; `[]` when `append` is `""`. */
  steps: Step[];
  /**
   * HTML of the unfinished end: replace the previous tail with it. It goes
   * inside the innermost open element, after its content (a string host shows
   * the appends, then `tail`, then `stream.openEndTags()`). Absent after
   * `pushDeferred`; `""` after `finish`.
   */
  tail?: string;
  /** The citation occurrences in `append`, in document order. */
  citations: Occurrence[];
}

/**
 * How the tail changed (`Stream.tailChange()`): HTML to `insert` at the
 * tail's typing point (inside the element `depth` levels into the tail,
 * each the last element of the one before, 0 being the innermost element
 * the appends leave open, after what it holds; in the tail's HTML, before its
 * last `before` UTF-16 units, which are end tags), or a tail that replaces it.
 */
export type TailChange = { insert: string; depth: number; before: number } | { replace: string };

/** A `Patch` from `push` or `finish`, which always carry `tail`. */
export interface PatchWithTail extends Patch {
  tail: string;
}

/**
 * An incremental renderer: the appends (with rewinds applied) plus the last tail equal `render` of the whole message.
 *
 * After `free()`, every method but `free` throws an `Error` saying so; after
 * `finish()`, `push`, `pushDeferred` and `finish` throw. If the WebAssembly
 * instance traps (a bug in citemark), or after `reset()`, streams created
 * before throw an `Error` on their next call (docs/reliability.md).
 */
export interface Stream {
  /** Adds a chunk; returns what became final and the new tail. */
  push(chunk: string): PatchWithTail;
  /** Like `push` without computing the tail (call `tail()` once per frame instead). */
  pushDeferred(chunk: string): Patch;
  /** HTML of the unfinished end, with syntax still being typed held back. */
  tail(): string;
  /**
   * How the tail changed since the last `tailChange()` (or since a patch that
   * appended, rewound, marked or emptied, after which the host shows no tail):
   * `undefined` when it is the same. Call it after `pushDeferred` instead of
   * `tail()` to hand the host only what changed (`citemark/dom` applies it).
   */
  tailChange(): TailChange | undefined;
  /**
   * The end tags of the elements the appends leave open (`"</code></pre>"` while a
   * code block streams, else `""`): a string host shows appends + tail + these.
   */
  openEndTags(): string;
  /** Ends the message: everything left is appended. */
  finish(): PatchWithTail;
  /** Replaces the sources (`null`: not known yet). */
  setSources(sources: Source[] | null): void;
  /** The citation index of the committed part (all of it after `finish`). */
  citationIndex(): CitationIndex;
  /**
   * `citationIndex()` with the tail's citations too, as the last tail shows
   * them (their ordinals are the tail elements'): provisional, read again
   * after painting a new tail. Hydration then finds a streaming citation's
   * occurrence and source before its block commits.
   */
  provisionalIndex(): CitationIndex;
  /** Frees the WebAssembly memory now rather than at garbage collection. Calling it again does nothing. */
  free(): void;
}

/** A `Patch` from a stream created with `trustedTypes: true`: frozen, its `tail` a `TrustedHTML`. */
export type TrustedPatch = Readonly<Omit<Patch, "tail"> & { tail?: TrustedHTML }>;

/** A `TrustedPatch` from `push` or `finish`. */
export type TrustedPatchWithTail = Readonly<Omit<Patch, "tail"> & { tail: TrustedHTML }>;

/** A `Stream` created with `trustedTypes: true`: its HTML for `innerHTML` comes as `TrustedHTML`. */
export interface TrustedStream extends Omit<Stream, "push" | "pushDeferred" | "tail" | "tailChange" | "finish"> {
  push(chunk: string): TrustedPatchWithTail;
  pushDeferred(chunk: string): TrustedPatch;
  tail(): TrustedHTML;
  /** `Stream.tailChange()`, its HTML a `TrustedHTML` (and the change frozen). */
  tailChange(): Readonly<{ insert: TrustedHTML; depth: number; before: number } | { replace: TrustedHTML }> | undefined;
  finish(): TrustedPatchWithTail;
}

/** The response formats `adapt` reads. */
export type Provider = "openwebui" | "rag" | "gemini" | "openai" | "anthropic" | "perplexity" | "rill";

/** Something in a response an adapter could not use. */
export interface Warning {
  /** Where in the response, as a JSON path (`candidates[0].groundingMetadata`). */
  path: string;
  message: string;
}

/** What an adapter made of a provider's response. */
export interface Adapted {
  /** The answer's markdown, with `[n]` markers where the provider placed citations. */
  markdown: string;
  sources: Source[];
  aliases: Record<string, string>;
  warnings: Warning[];
}

/**
 * Renders markdown to sanitized HTML and a citation index.
 * @throws TypeError when `markdown` is not a string or `options` do not fit `Options`.
 */
export function render(markdown: string, options: TrustedOptions): TrustedRendered;
export function render(markdown: string, options?: Options | null): Rendered;

/**
 * Turns a provider's raw response (an object, or its JSON text) into citemark's input.
 * Never fails on a malformed response: what it skips is in `warnings`.
 * @throws TypeError for an unknown provider or a response string that is not JSON.
 */
export function adapt(provider: Provider, response: JsonValue): Adapted;

/**
 * An incremental renderer for a message arriving in chunks.
 * @throws TypeError when `options` do not fit `Options`.
 */
export function createStream(options: TrustedOptions): TrustedStream;
export function createStream(options?: Options | null): Stream;

/**
 * Resolves once the WebAssembly module is ready: at once where it compiled
 * synchronously on import (`citemark`, `citemark/lite`, and the async entries
 * under Node); after the `.wasm` file is fetched and compiled for
 * `citemark/async` and `citemark/lite/async` in browsers, whose calls throw
 * until then. Rejects if the module cannot be loaded.
 */
export const ready: Promise<void>;

/** Returns `ready`. */
export function init(): Promise<void>;

/** This entry as the components' engine (their `api`). */
export interface Engine {
  createStream: typeof createStream;
  render: typeof render;
  ready: Promise<void>;
}

/**
 * `createStream`, `render` and `ready` as one frozen object, for the `api` of
 * the components' engine-free modules (`<CitemarkMessage api={engine}/>` from
 * citemark/react/core): a bundle then holds this entry's wasm and nothing
 * else (`import * as` of a lite entry would also keep `adapt`'s own wasm).
 */
export const engine: Engine;

/**
 * Bytes of WebAssembly linear memory held by the instance in use (0 when
 * there is none). Linear memory grows to the largest message's needs and never
 * shrinks; `reset()` gives it back.
 */
export function memoryBytes(): number;

/**
 * Drops the instance in use, and with it its linear memory; the next call
 * instantiates the compiled module again (about a millisecond). Streams
 * created before throw on their next call.
 */
export function reset(): void;
