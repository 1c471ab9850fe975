// The demo page: streams the conversation in conversation.js as a model
// would, renders it with citemark's streaming API and wires the controls.

import { SOURCES_URL, TURNS } from "./conversation.js";
import { el } from "./dom.js";
import { showActivated, showTooltip } from "./inspect.js";
import { MessageView, messageArticle } from "./message.js";
import { pause, type } from "./typist.js";

const $ = (selector) => document.querySelector(selector);
const chat = $("#chat");
const panel = $("#panel");
const tooltip = $("#tooltip");
const speed = $("#speed");
const root = document.documentElement;

let views = [];
let controller = null;
let seed = 0;

const mode = () => $("input[name=mode]:checked").value;

async function text(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.text();
}

// examples/sources.json is `{"sources": [...]}` (the CLI's file format).
const [{ sources }, ...answers] = await Promise.all([
  text(SOURCES_URL).then(JSON.parse),
  ...TURNS.map((turn) => text(turn.answerUrl)),
]);

/** Adds one question/answer pair to the chat; returns the answer's view. */
function addTurn(turn) {
  const article = messageArticle();
  chat.append(el("p", { className: "message user" }, TURNS[turn].question), article);
  return new MessageView(article, {
    sources,
    mode: mode(),
    turn,
    onActivate: (citation) => showActivated(panel, citation),
    onHover: (citation) => showTooltip(tooltip, citation),
  });
}

/** Plays the whole conversation from the start (a new seed cuts new chunks). */
async function play() {
  controller?.abort();
  controller = new AbortController();
  const { signal } = controller;
  chat.replaceChildren();
  views = [];
  seed += 1;
  root.dataset.state = "streaming";
  try {
    for (let turn = 0; turn < TURNS.length; turn++) {
      const view = addTurn(turn);
      views.push(view);
      await pause(300, signal); // the model "thinks"
      await type(answers[turn], {
        onChunk: (chunk) => view.push(chunk),
        speed: () => Number(speed.value),
        seed: seed * 100 + turn,
        signal,
      });
      view.finish();
    }
    root.dataset.state = "done";
  } catch (error) {
    if (error?.name !== "AbortError") throw error;
  }
}

$("#replay").addEventListener("click", play);
$("#modes").addEventListener("change", () => {
  showTooltip(tooltip, null);
  for (const view of views) view.setMode(mode());
});

$("#status").remove();
root.dataset.ready = "1";
play();
