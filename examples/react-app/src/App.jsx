// One assistant message rendered by citemark, hydrated by its React hooks; in
// icon mode a React component is portalled into every icon placeholder. Below
// it, the same answer streamed by <CitemarkMessage/> (Streamed.jsx). The
// answer and its sources are the repo's sample (examples/answer.md,
// examples/sources.json), imported as a bundler would import any asset.
import { useMemo, useRef, useState } from "react";
import { render } from "citemark";
import { useCitationPortals, useCitations } from "citemark/react";
import answer from "../../answer.md?raw";
import sourcesFile from "../../sources.json";
import { CitationIcon } from "./CitationIcon.jsx";
import { Streamed } from "./Streamed.jsx";

const MODES = ["link", "button", "icon"];
const FIELDS = ["title", "href", "kind", "key", "ordinal"];

// Sources are data: only http(s) hrefs become links.
const safe = (href) => (/^https?:\/\//i.test(href ?? "") ? href : undefined);

export function App() {
  const [mode, setMode] = useState("link");
  /** The last activated citation, as plain fields (the panel's rows). */
  const [activated, setActivated] = useState(null);
  const { html, citations } = useMemo(() => render(answer, { sources: sourcesFile.sources, mode }), [mode]);
  const ref = useRef(null);

  const onActivate = (citation) =>
    setActivated({
      title: citation.source?.title ?? citation.element.title,
      href: citation.source?.href ?? citation.href ?? "",
      kind: citation.kind,
      key: citation.key,
      ordinal: String(citation.ordinal),
    });
  useCitations(ref, citations, { onActivate });
  const icons = useCitationPortals(ref, citations, (citation) => <CitationIcon citation={citation} />);

  return (
    <div className="app">
      <fieldset className="modes">
        <legend>Citations as</legend>
        {MODES.map((m) => (
          <label key={m}>
            <input type="radio" name="mode" value={m} checked={mode === m} onChange={() => setMode(m)} /> {m}
          </label>
        ))}
      </fieldset>

      <article className="message">
        {/* citemark's HTML is sanitized: safe for innerHTML. */}
        <div className="body" ref={ref} dangerouslySetInnerHTML={{ __html: html }} />
        {icons}
        <section className="sources">
          <h2>Grounded in {citations.sources.length} sources</h2>
          <ol>
            {citations.sources.map((use) => (
              <li key={use.position} value={use.number}>
                <a href={safe(use.source.href)}>{use.source.title}</a> · cited {use.uses}×
              </li>
            ))}
          </ol>
        </section>
      </article>

      <aside className="activated" aria-live="polite">
        <h2>Activated citation</h2>
        {activated ? (
          <dl>
            {FIELDS.map((field) => [
              <dt key={`${field}-term`}>{field}</dt>,
              <dd key={field} data-field={field}>
                {activated[field]}
              </dd>,
            ])}
          </dl>
        ) : (
          <p>Click a citation in the message.</p>
        )}
      </aside>

      <Streamed onActivate={onActivate} />
    </div>
  );
}
