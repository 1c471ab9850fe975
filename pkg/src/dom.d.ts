import type { CitationIndex, Occurrence, Options, Patch, PatchWithTail, Source, Step, Stream, TailChange, TrustedHTML } from "../index.js";

export type { CitationIndex, Occurrence, Options, Patch, PatchWithTail, Source, Step, Stream, TailChange, TrustedHTML };

/**
 * A patch as `mountPatches` takes it: a `Patch`, or one made by hand (a host
 * with its own stream, a test). Absent fields are empty or false; absent
 * `steps` with a non-empty `append` is one `{html}` step.
 */
export interface PatchLike {
  rewind?: boolean;
  mark?: boolean;
  /** The innermost open element loses what was appended inside it; the first `empty` citations stay. */
  empty?: number;
  append?: string;
  /** In UTF-16 units of `append`, covering all of it. */
  steps?: Step[];
  /** Absent: the tail shown stays (unless something was appended: then none shows until `setTail`). */
  tail?: string;
  citations?: Occurrence[];
}

/** What `mountPatches` returns: the element and what applies patches to it. */
export interface PatchView {
  readonly element: Element;
  /**
   * Applies one patch: `rewind` (removes the tail and the nodes added since
   * the mark, in the root and in the elements open there), `mark`, `empty`
   * (removes what was appended inside the innermost open element), `append`
   * by its steps, then `tail`.
   * @throws TypeError when the steps do not cover `append`, or close nothing,
   * or `empty` is not a count of the citations so far.
   */
  apply(patch: PatchLike): void;
  /**
   * Replaces the tail (`stream.tail()` at a frame after `pushDeferred`); nothing happens when it is unchanged.
   * @throws TypeError with `trustedTypes`, for a string where the browser has Trusted Types.
   */
  setTail(html: string | TrustedHTML): void;
  /**
   * Applies a stream's `tailChange()` (after `apply` of the same push's patch):
   * inserts its HTML at the tail's typing point, or replaces the tail. DOM work
   * in proportion to the change; `undefined` does nothing.
   * @throws TypeError when the change does not fit the tail shown (a depth it does not have).
   */
  changeTail(change: TailChange | undefined): void;
  /** The citation occurrences appended so far (rewinds applied), in order. */
  citations(): Occurrence[];
}

/**
 * Applies patches to `element`, which it empties first and then owns:
 * each patch's HTML is parsed once and added (in the context of the element
 * it goes into), and only the tail's own nodes are replaced.
 */
export function mountPatches(element: Element, options?: PatchOptions): PatchView;

/** `mountPatches`'s options. */
export interface PatchOptions {
  /**
   * Insert HTML as TrustedHTML of the `citemark` policy (pages with
   * `require-trusted-types-for 'script'`): `apply` then takes only the
   * (frozen) patches of a stream created with `trustedTypes: true`, and
   * `setTail` only a TrustedHTML. Default `false`.
   */
  trustedTypes?: boolean;
  /**
   * Typesets a math element (`<span class="math math-inline">` or
   * `math-display`, holding the TeX as text) with the host's library, e.g.
   * `(el) => katex.render(el.textContent, el, { displayMode: el.classList.contains("math-display"), throwOnError: false })`.
   * Called once for each math element appended, never for the tail's.
   */
  typeset?: (element: Element) => void;
}

/** Where `mountStream` gets its stream, and `typeset` (see `PatchOptions`). */
export interface MountOptions {
  /**
   * The engine: an entry's `engine` (`import { engine } from "citemark/lite/async"`). Required from
   * citemark/dom/core; from citemark/dom, optional (default: `citemark`, bundled either way).
   */
  api: { createStream(options?: Options | null): Stream };
  typeset?: (element: Element) => void;
}

/** A message streaming into an element. */
export interface StreamView {
  readonly element: Element;
  /** The stream underneath (for `openEndTags`, say). */
  readonly stream: Stream;
  /** Renders `chunk`, applies the patch (returned, for its citations) and the tail's change. */
  push(chunk: string): Patch;
  /**
   * Like `push` without the tail (what was appended shows at once); call
   * `paint()` once per animation frame to show the tail.
   */
  pushDeferred(chunk: string): Patch;
  /** Shows the tail, when a `pushDeferred` came since the last one; otherwise does nothing. */
  paint(): void;
  /** Ends the message: the rest is appended and the tail removed. */
  finish(): PatchWithTail;
  /** Replaces the sources; the tail is rendered again with them (what was appended stays). */
  setSources(sources: Source[] | null): void;
  /** The stream's citation index: what was appended (all of it after `finish`). */
  citationIndex(): CitationIndex;
  /** The stream's `provisionalIndex()`: the tail's citations included, as last painted. */
  provisionalIndex(): CitationIndex;
  /** The citation occurrences appended so far, in order. */
  citations(): Occurrence[];
  /** Frees the stream's WebAssembly memory; the element keeps its content. */
  destroy(): void;
}

/**
 * Streams a message into `element` (emptied first) with a stream created
 * with `options` by `mount.api.createStream`; with `options.trustedTypes`,
 * its HTML goes in as TrustedHTML.
 * @throws TypeError when `options` do not fit `Options`, or `mount.api` has no `createStream`.
 */
export function mountStream(element: Element, options: Options | null | undefined, mount: MountOptions): StreamView;
