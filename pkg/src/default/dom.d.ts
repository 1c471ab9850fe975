// citemark/dom: citemark/dom/core's API (../dom.d.ts) with `mountStream`'s
// engine, `api`, optional: default `citemark` (which this entry imports).
import type { MountOptions as CoreOptions, Options, StreamView } from "../dom.js";

export * from "../dom.js";

export interface MountOptions extends Omit<CoreOptions, "api"> {
  /** The engine; default `citemark`. For another, import from citemark/dom/core instead. */
  api?: CoreOptions["api"];
}

/**
 * Streams a message into `element` (emptied first) with a stream created
 * with `options` by the default entry (or `mount.api`); with
 * `options.trustedTypes`, its HTML goes in as TrustedHTML.
 * @throws TypeError when `options` do not fit `Options`.
 */
export function mountStream(element: Element, options?: Options | null, mount?: MountOptions): StreamView;
