// The sample answer streamed as a chat SDK hands it out: the whole text so
// far on every token, given to <CitemarkMessage/>, which pushes only what is
// new, repaints once per frame and portals the icon component into every
// placeholder as it appears. "Replay" streams it again, 6 characters per
// 15 ms. `window.citemarkStream` lets the browser tests (tests/browser/
// stream-apps.test.mjs) drive the same component one update at a time.
import { useEffect, useState, version } from "react";
import { flushSync } from "react-dom";
import { CitemarkMessage } from "citemark/react";
import answer from "../../answer.md?raw";
import sourcesFile from "../../sources.json";
import { CitationIcon } from "./CitationIcon.jsx";

export function Streamed({ onActivate }) {
  const [message, setMessage] = useState({ markdown: answer, sources: sourcesFile.sources, streaming: false });
  const [shown, setShown] = useState(true);

  function replay() {
    let length = 0;
    const timer = setInterval(() => {
      length = Math.min(answer.length, length + 6);
      setMessage({ markdown: answer.slice(0, length), sources: sourcesFile.sources, streaming: length < answer.length });
      if (length === answer.length) clearInterval(timer);
    }, 15);
  }

  useEffect(() => {
    // Counts this effect's runs: two in development, where StrictMode runs effects twice.
    const mounts = (window.citemarkStream?.mounts ?? 0) + 1;
    window.citemarkStream = {
      react: version,
      mounts,
      /** One update of the accumulated text, rendered before this returns. */
      set: (markdown, streaming, sources = sourcesFile.sources) =>
        flushSync(() => setMessage({ markdown, sources, streaming })),
      show: (value) => flushSync(() => setShown(value)),
    };
  }, []);

  return (
    <article className="streamed">
      <button type="button" onClick={replay}>
        Replay streaming
      </button>
      {shown && (
        <CitemarkMessage
          markdown={message.markdown}
          sources={message.sources}
          mode="icon"
          streaming={message.streaming}
          onActivate={onActivate}
          renderCitation={(citation) => <CitationIcon citation={citation} />}
        />
      )}
    </article>
  );
}
