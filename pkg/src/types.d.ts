// The citation index citemark writes (`Rendered.citations`, camelCase JSON),
// declared once for every entry point of the package.

export type CitationKind = "cite" | "index" | "shortlink" | "query";

/** A byte range in the input markdown. */
export interface Range {
  start: number;
  end: number;
}

/** Any JSON value (a source's `data`, a query link's decoded query). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A source the host knows of. Every field is optional. */
export interface Source {
  id?: string;
  index?: number;
  title?: string;
  href?: string;
  excerpt?: string;
  data?: JsonValue;
}

/** One citation in the document, in reading order. */
export interface Occurrence {
  /** 1-based; equals the element's `data-citation-ordinal`. */
  ordinal: number;
  kind: CitationKind;
  /** The source id after aliases, or the number for `[n]`. */
  key: string;
  /** The key as written, when an alias changed it. */
  originalKey?: string;
  label: string;
  resolved: boolean;
  /** The cited source's display number: 1-based index into `sources`. */
  number?: number;
  range: Range;
  /** The URL written in the markdown (short links, query links). */
  url?: string;
  /** `page=3` for `[1#page=3]`. */
  fragment?: string;
  conversation?: string;
  captures?: Record<string, string>;
  /** A query link's decoded JSON. */
  query?: JsonValue;
}

/** A source and how the document uses it. */
export interface SourceUse {
  /** Display number, in order of first use (absent for uncited sources). */
  number?: number;
  /** Position in the host's source list. */
  position: number;
  uses: number;
  source: Source;
}

export type DiagnosticKind = "unresolvedIndex" | "malformedQuery" | "unclosedCite" | "citeWithoutId";

export interface Diagnostic {
  kind: DiagnosticKind;
  range: Range;
  key?: string;
}

export interface CitationIndex {
  occurrences: Occurrence[];
  sources: SourceUse[];
  uncited: SourceUse[];
  diagnostics: Diagnostic[];
}
