import type { ReactNode, ReactPortal, RefObject } from "react";
import type { CitationIndex } from "./types.js";
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
