import type { CitationIndex, Options, Stream } from "../index.js";

export type { CitationIndex, Options };

/** What a message's listeners are told: the committed index and the icon placeholders. */
export interface MessageState {
  /** The committed part's citation index (all of it once finished). */
  citations: CitationIndex;
  /** The icon-mode placeholders (`span.citation-icon`) in the element, tail included, in order. */
  slots: HTMLElement[];
}

export interface MessageOptions {
  /**
   * The engine streams come from: an entry's `engine` (`import { engine } from "citemark/lite/async"`).
   * Required from citemark/message/core; from citemark/message, optional (default: `citemark`).
   */
  api: { createStream(options?: Options | null): Stream };
  /** Called after the index or the placeholders changed; `frame` when from an animation frame. */
  onChange?: (state: MessageState, when: { frame: boolean }) => void;
  /** Typesets each math element once it is committed (see citemark/dom's `PatchOptions.typeset`). */
  typeset?: (element: Element) => void;
}

export interface MessageUpdate {
  /** The whole text so far. */
  markdown: string;
  /** A change other than to `sources` starts the message over. */
  options?: Options | null;
  /** While true the work waits for an animation frame; false finishes the message. Default false. */
  streaming?: boolean;
}

/** A message element fed the accumulated text of a streamed answer. */
export interface Message {
  readonly element: Element;
  /**
   * The text so far: a new suffix is pushed, other text starts over. A stream
   * lost to `reset()` or a trap is replaced once; what fails again is thrown
   * once (here, or from the animation frame), and updates that only extend
   * that text then wait for other text or options.
   * @throws TypeError when `markdown` is not a string or `options` do not fit `Options`.
   * @throws Error after `destroy()`.
   */
  update(update: MessageUpdate): void;
  citations(): CitationIndex;
  slots(): HTMLElement[];
  /** Cancels the pending frame and frees the stream; the element keeps its content. */
  destroy(): void;
}

/**
 * Mounts a message into `element` (emptied first, then owned by the message).
 * @throws TypeError when `options.api` has no `createStream`.
 */
export function mountMessage(element: Element, options: MessageOptions): Message;
