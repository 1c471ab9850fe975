// The math page: an answer with TeX in its four spellings streamed into the
// page with citemark/dom, each committed math element typeset once by KaTeX
// (`typeset`); the tail's math shows as its TeX until its block commits.

import { mountStream } from "citemark/dom";
import katex from "katex";

/** Typesets a citemark math element in place, keeping its TeX in `data-tex`. */
export function typeset(element) {
  const tex = element.textContent;
  element.dataset.tex = tex;
  katex.render(tex, element, { displayMode: element.classList.contains("math-display"), throwOnError: false });
}

const answer = document.getElementById("answer");
const pause = () => new Promise((resolve) => requestAnimationFrame(resolve));

async function play() {
  const markdown = await (await fetch("/math.md")).text();
  const view = mountStream(answer, {}, { typeset });
  document.documentElement.dataset.state = "streaming";
  for (let at = 0; at < markdown.length; at += 4) {
    view.push(markdown.slice(at, at + 4));
    if (at % 64 === 0) await pause();
  }
  view.finish();
  view.destroy();
  document.documentElement.dataset.state = "done";
}

document.getElementById("replay").addEventListener("click", play);
play();
