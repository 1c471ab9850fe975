import type { CitationIndex } from "./types.js";
import type { HydrateOptions } from "./hydrate.js";

export interface CitationsParams extends HydrateOptions {
  citations: CitationIndex;
}

/** A Svelte action: `<div use:citations={{ citations, onActivate }}>{@html html}</div>`. */
export function citations(
  node: HTMLElement,
  params: CitationsParams,
): { update(params: CitationsParams): void; destroy(): void };
