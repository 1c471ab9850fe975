import type { CitationIndex, CitationKind, Occurrence, Source } from "./types.js";

export type { CitationIndex, CitationKind, Occurrence, Source } from "./types.js";

/** Everything known about one citation element, in one object. */
export interface Citation {
  key: string;
  kind: CitationKind;
  ordinal: number;
  /** False while the element is marked `citation-unresolved`. */
  resolved: boolean;
  /** The element's (scheme-checked) `href`; null on buttons and unresolved links. */
  href: string | null;
  /** The `<a>` or `<button>` citemark wrote. */
  element: HTMLElement;
  /** Null while the index lags behind the HTML (or does not match it). */
  occurrence: Occurrence | null;
  /**
   * The cited source as the host supplied it (title, href, excerpt, data),
   * or what `resolve` returned. Its `href` is the host's own, unchecked.
   */
  source: Source | null;
}

/** What `resolve` may return to fill an unresolved citation in place. */
export interface Resolution {
  /** Set on links when it is http(s), mailto or relative; ignored otherwise. */
  href?: string;
  title?: string;
}

export interface HydrateOptions {
  /**
   * A citation was clicked or activated from the keyboard. Without it, link
   * clicks are left to the browser.
   */
  onActivate?: (citation: Citation, event: MouseEvent) => void;
  /**
   * Offered every unresolved citation at hydrate() and at each update() (not
   * while its earlier promise is pending); return (or resolve to) a
   * Resolution to fill it in, or nothing to leave it. A rejection is left
   * unhandled, for the host to see, and the citation is offered again later.
   */
  resolve?: (citation: Citation) => Resolution | null | undefined | Promise<Resolution | null | undefined>;
}

export interface Hydrated {
  /** A new index (the stream grew); new handlers when given. Re-offers unresolved citations to resolve(). */
  update(citations: CitationIndex, handlers?: HydrateOptions): void;
  /** The citation at or around `node` (e.g. the target of a mouseover), or null. */
  citationOf(node: Node | null): Citation | null;
  /** Removes the listener; pending resolutions are dropped. */
  destroy(): void;
}

/** Hydrates every citation element under `root` through one delegated click listener. */
export function hydrate(root: HTMLElement, citations: CitationIndex, options?: HydrateOptions): Hydrated;

/** The citation at or around `node`, looked up in `citations` (no resolve() results). */
export function citationOf(node: Node | null, citations: CitationIndex): Citation | null;

/** Whether `href` is http, https, mailto or relative (resolved against `base`). */
export function isSafeHref(href: string, base?: string): boolean;
