import type { ReactElement, ReactNode, ReactPortal, RefObject } from "react";
import type { CitationIndex, Mode, Options, Source, Stream } from "../index.js";
import type { Citation, HydrateOptions } from "./hydrate.js";

/** Hydrates the citations in `ref.current`; `citations` is the index rendered with its HTML. */
export function useCitations(
  ref: RefObject<HTMLElement | null>,
  citations: CitationIndex,
  handlers?: HydrateOptions,
): void;

/** One portal per icon-mode placeholder, rendering `renderIcon(citation)` inside it. */
export function useCitationPortals(
  ref: RefObject<HTMLElement | null>,
  citations: CitationIndex,
  renderIcon: (citation: Citation | null) => ReactNode,
): ReactPortal[];

/** The engine: an entry's functions, as its `engine` (`import { engine } from "citemark/lite/async"`, after `await engine.ready`). */
export interface MessageApi {
  createStream(options?: Options | null): Stream;
  render(markdown: string, options?: Options | null): { html: string };
}

export interface StreamedMessage {
  /** The whole text so far (accumulated, as `useChat` hands it out). */
  markdown: string;
  /** The sources; new ones re-render only what they change. */
  sources?: Source[] | null;
  mode?: Mode;
  /** Other options; a change (other than to `sources`) starts the message over. */
  options?: Options | null;
  /** While true, repaints wait for animation frames; false finishes the message. Default false. */
  streaming?: boolean;
  /**
   * The engine. Required from citemark/react/core, which imports none; from
   * citemark/react, optional (default: `citemark`, bundled either way).
   */
  api: MessageApi;
}

export interface UseCitemark {
  /** Put it on the element that shows the message. */
  ref: RefObject<HTMLDivElement | null>;
  /**
   * For that element's `dangerouslySetInnerHTML`: the final HTML on a server, `""` in a
   * browser (give the element `suppressHydrationWarning` when it hydrates server HTML).
   */
  html: string;
  /** The committed part's citation index (all of it once finished). */
  citations: CitationIndex;
  /** The icon placeholders, tail included. */
  slots: HTMLElement[];
}

/** Streams the accumulated `markdown` into the element `ref` goes on (what `CitemarkMessage` is built on). */
export function useCitemark(message: StreamedMessage): UseCitemark;

export interface CitemarkMessageProps extends StreamedMessage, HydrateOptions {
  /**
   * Rendered into each icon placeholder (`mode: "icon"`), tail included;
   * `citation.occurrence` and `citation.source` are null while the citation
   * is in the unfinished tail.
   */
  renderCitation?: (citation: Citation | null) => ReactNode;
  /** The message element's class. Default `"citemark"`. */
  className?: string;
}

/** A streamed assistant message with its citations, hydrated, and `renderCitation` in its icons. */
export function CitemarkMessage(props: CitemarkMessageProps): ReactElement;
