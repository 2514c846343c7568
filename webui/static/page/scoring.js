// Every change of the hand: redraw at once, then (debounced) ask the library
// for the hand's notation, its score and which options it allows.
import { postJSON } from "../api.js";
import { t } from "../i18n.js";
import { handStructure, render, scoreRequest, state } from "./state.js";

let timer = null;
let inFlight = 0;

/** The hand changed: redraw now, rescore shortly. */
export function changed() {
  render();
  clearTimeout(timer);
  timer = setTimeout(async () => {
    timer = null;
    inFlight += 1;
    try { await rescore(); } finally { inFlight -= 1; }
  }, 120);
}

/** Whether an answer is still to come (people debugging and the browser tests wait on it). */
export const busy = () => timer !== null || inFlight > 0;

async function rescore() {
  const seq = ++state.seq;
  if (!state.melds.length && !state.concealed.length && !state.winning) {
    Object.assign(state, { notation: "", result: null, error: null, options: null });
    render();
    return;
  }
  if (state.melds.some((m) => m.tiles.some((x) => x.code === "back"))) {  // no tile shows
    Object.assign(state, { notation: "", result: null, error: { code: "kong_unnamed", message: t("name_kong") }, options: null });
    render();
    return;
  }
  const written = await postJSON("/api/hand", handStructure());
  if (seq !== state.seq) return;
  if (written.error) {  // no notation for this hand: the box shows none, not the last one
    Object.assign(state, { notation: "", result: null, error: written.error, options: null });
    render();
    return;
  }
  state.notation = written.hand;
  const req = scoreRequest();
  const [res, opts] = await Promise.all([postJSON("/api/score", req), postJSON("/api/options", req)]);
  if (seq !== state.seq) return;
  state.result = res.error ? null : res;
  state.options = opts.error ? null : opts;
  // a refused situation is worded as the page names its options, not by API field
  const worded = res.error && state.options && state.options.base_message;
  state.error = worded ? { ...res.error, message: state.options.base_message } : res.error || null;
  state.highlight = null;
  render();
  document.dispatchEvent(new CustomEvent("mcr:scored"));
}

/** A written hand (pasted text or the photo's reading) as the library reads it. */
export async function readNotation(text) {
  return postJSON("/api/hand", { hand: text });
}
