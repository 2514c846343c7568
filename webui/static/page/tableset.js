// This table's own tile set: the looks of the tiles its players named, kept on this
// tablet and sent with every photo, so the reader leans on them (vision.exemplars).
// A hand counts as named once it was scored and the next photo is taken: the player
// has fixed what was misread and kept the rest.
import { t } from "../i18n.js";
import { $, state } from "./state.js";

const KEY = "mcr-table-set";
const MOST = 300;  // vision.config.ExemplarConfig.most: the server refuses more

/** The named tiles kept: [{tile, look}], newest last. */
export function namedTiles() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "[]");
    const ok = Array.isArray(kept) ? kept.filter((x) => x && typeof x.tile === "string" && typeof x.look === "string") : [];
    return ok.slice(-MOST);
  } catch (e) {
    return [];
  }
}

function keep(items) {
  try { localStorage.setItem(KEY, JSON.stringify(items.slice(-MOST))); } catch (e) { /* storage full or off */ }
  showCount();
}

/** The tiles of the photo's hand as the player left them: each read face up from the
 * photo, with its look and the code the page now shows. */
function handNamed() {
  const read = (state.recog && state.recog.tiles) || [];
  const tiles = [...state.melds.flatMap((m) => m.tiles), ...state.concealed, ...state.flowers];
  if (state.winning) tiles.push(state.winning);
  return tiles
    .filter((x) => x.src !== null && read[x.src] && read[x.src].tile !== "back" && x.code !== "back")
    .map((x) => ({ tile: x.code, look: read[x.src].look }))
    .filter((x) => typeof x.look === "string");
}

/** Keep the last photo's hand, once, if it was scored. */
export function rememberHand() {
  if (!state.recog || state.recog.named || !state.result || state.error) return;
  state.recog.named = true;
  const fresh = handNamed();
  if (!fresh.length) return;
  const looks = new Set(fresh.map((x) => x.look));
  keep([...namedTiles().filter((x) => !looks.has(x.look)), ...fresh]);
}

/** Start this table's set afresh (a new tile set): the photo on screen is not kept either. */
export function forget() {
  if (state.recog) state.recog.named = true;
  try { localStorage.removeItem(KEY); } catch (e) { /* storage off */ }
  showCount();
}

export function showCount() {
  const n = namedTiles().length;
  $("table-set").hidden = !n;
  $("table-set-text").textContent = t("table_set", { n });
}

export function initTableSet() {
  $("table-set-forget").addEventListener("click", forget);
  showCount();
}
