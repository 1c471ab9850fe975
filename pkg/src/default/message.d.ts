// citemark/message: citemark/message/core's API (../message.d.ts) with the
// engine, `api`, optional: default `citemark` (which this entry imports).
import type { Message, MessageOptions as CoreOptions } from "../message.js";

export * from "../message.js";

export interface MessageOptions extends Omit<CoreOptions, "api"> {
  /** The engine; default `citemark`. For another, import from citemark/message/core instead. */
  api?: CoreOptions["api"];
}

/** Mounts a message into `element` (emptied first, then owned by the message). */
export function mountMessage(element: Element, options?: MessageOptions): Message;
