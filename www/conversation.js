// What the demo shows: a two-turn conversation and the options each answer is
// rendered with. No DOM and no imports, so the browser tests can import it in
// Node and render the same inputs with the same options.

/** The sources every answer may cite (the host's tool calls and documents). */
export const SOURCES_URL = "/examples/sources.json";

/**
 * The turns: the user's question and the URL of the assistant's markdown.
 * The first answer is the repo's sample (examples/answer.md); the short
 * follow-up adds the one citation kind the sample lacks, a legacy query link.
 */
export const TURNS = [
  { question: "Why did EMEA revenue drop in Q3?", answerUrl: "/examples/answer.md" },
  { question: "Can I check the conversion numbers myself?", answerUrl: "/follow-up.md" },
];

export const MODES = ["link", "button", "icon"];

/**
 * Options for turn `turn` (0-based). Each answer gets its own `idPrefix`, as
 * the README advises when several answers share a page (footnote ids).
 */
export function renderOptions(sources, mode, turn) {
  return { sources, mode, idPrefix: `msg-${turn + 1}-` };
}
