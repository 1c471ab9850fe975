// citemark/react: citemark/react/core's API (../react.d.ts) with the
// message's engine, `api`, optional: default `citemark` (which this entry
// imports, so that it is bundled whether or not `api` names another).
import type { ReactElement } from "react";
import type { CitemarkMessageProps as CoreProps, MessageApi, StreamedMessage as CoreMessage, UseCitemark } from "../react.js";

export * from "../react.js";

export interface StreamedMessage extends Omit<CoreMessage, "api"> {
  /** The engine; default `citemark`. For another, import from citemark/react/core instead. */
  api?: MessageApi;
}

export interface CitemarkMessageProps extends Omit<CoreProps, "api"> {
  /** The engine; default `citemark`. For another, import from citemark/react/core instead. */
  api?: MessageApi;
}

/** Streams the accumulated `markdown` into the element `ref` goes on (what `CitemarkMessage` is built on). */
export function useCitemark(message: StreamedMessage): UseCitemark;

/** A streamed assistant message with its citations, hydrated, and `renderCitation` in its icons. */
export function CitemarkMessage(props: CitemarkMessageProps): ReactElement;
