import type { CitationIndex, Mode, Options, Source, Stream } from "../index.js";
import type { Citation, HydrateOptions } from "./hydrate.js";

export interface CitationsParams extends HydrateOptions {
  citations: CitationIndex;
}

/** A Svelte action: `<div use:citations={{ citations, onActivate }}>{@html html}</div>`. */
export function citations(
  node: HTMLElement,
  params: CitationsParams,
): { update(params: CitationsParams): void; destroy(): void };

/**
 * A Svelte 5 component taking a `citation` prop (Svelte's `Component<{citation}>`,
 * written without importing Svelte's types).
 */
export type CitationComponent = (internals: never, props: { citation: Citation | null }) => unknown;

export interface CitemarkParams extends HydrateOptions {
  /** The whole text so far (accumulated, as chat SDKs hand it out). */
  markdown: string;
  /** The sources; new ones re-render only what they change. */
  sources?: Source[] | null;
  mode?: Mode;
  /** Other options; a change (other than to `sources`) starts the message over. */
  options?: Options | null;
  /** While true, repaints wait for animation frames; false finishes the message. Default false. */
  streaming?: boolean;
  /**
   * Mounted into each icon placeholder (`mode: "icon"`), tail included, with
   * its `citation` (whose `occurrence` and `source` are null while it is in the tail).
   */
  icon?: CitationComponent;
  /**
   * The engine streams come from (read once, at mount): an entry's `engine`
   * (`import { engine } from "citemark/lite/async"`). Required from citemark/svelte/core; from
   * citemark/svelte, optional (default: `citemark`, bundled either way).
   */
  api: { createStream(options?: Options | null): Stream };
}

/**
 * A Svelte action streaming the accumulated `markdown` into the node:
 * `<div use:citemark={{ markdown, sources, mode: "icon", streaming, onActivate, icon: Icon }}></div>`.
 */
export function citemark(
  node: HTMLElement,
  params: CitemarkParams,
): { update(params: CitemarkParams): void; destroy(): void };
