/** The host's own icon, rendered into citemark's `span.citation-icon`. */
export function CitationIcon({ citation }) {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true" data-number={citation?.occurrence?.number}>
      <path d="M3 1.5h6.5L13 5v9.5H3z" fill="none" stroke="currentColor" strokeWidth="1.5" />
      <path d="M5.5 8h5M5.5 11h5" stroke="currentColor" strokeWidth="1.5" />
    </svg>
  );
}
