// citemark/svelte: citemark/svelte/core's API (../svelte.d.ts) with the
// `citemark` action's engine, `api`, optional: default `citemark` (which
// this entry imports).
import type { CitemarkParams as CoreParams } from "../svelte.js";

export * from "../svelte.js";

export interface CitemarkParams extends Omit<CoreParams, "api"> {
  /** The engine (read once, at mount); default `citemark`. For another, import from citemark/svelte/core instead. */
  api?: CoreParams["api"];
}

/**
 * A Svelte action streaming the accumulated `markdown` into the node:
 * `<div use:citemark={{ markdown, sources, mode: "icon", streaming, onActivate, icon: Icon }}></div>`.
 */
export function citemark(
  node: HTMLElement,
  params: CitemarkParams,
): { update(params: CitemarkParams): void; destroy(): void };
