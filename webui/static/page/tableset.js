// This table's own tile set: the looks of tiles named at this table, kept on this
// tablet and sent with every photo, so the reader leans on them (vision.exemplars).
// Two sources name them: a photo of the set laid out in order (vision.tileset: every
// kind at once, kept until forgotten), and each hand scored here (the player has
// fixed what was misread and kept the rest; counted once the next photo is taken).
import { sendJSON, uploadFile } from "../api.js";
import { t, tileName } from "../i18n.js";
import { $, state } from "./state.js";

const KEY = "mcr-table-set";
const TAUGHT_KEY = "mcr-table-set-taught";
const MOST = 300;  // vision.config.ExemplarConfig.most: the server refuses more

function stored(key) {
  try {
    const kept = JSON.parse(localStorage.getItem(key) || "[]");
    return Array.isArray(kept) ? kept.filter((x) => x && typeof x.tile === "string" && typeof x.look === "string") : [];
  } catch (e) {
    return [];
  }
}

/** The named tiles sent with a photo: [{tile, look}], the taught set first, then the
 * newest of the hands' tiles that fit beside it. */
export function namedTiles() {
  const taught = stored(TAUGHT_KEY).slice(0, MOST);
  const room = MOST - taught.length;
  return [...taught, ...(room > 0 ? stored(KEY).slice(-room) : [])];
}

function keep(key, items) {
  try { localStorage.setItem(key, JSON.stringify(items.slice(-MOST))); } catch (e) { /* storage full or off */ }
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
  keep(KEY, [...stored(KEY).filter((x) => !looks.has(x.look)), ...fresh]);
}

/** Start this table's set afresh (a new tile set): the photo on screen is not kept either. */
export function forget() {
  if (state.recog) state.recog.named = true;
  try {
    localStorage.removeItem(KEY);
    localStorage.removeItem(TAUGHT_KEY);
  } catch (e) { /* storage off */ }
  $("teach-result").hidden = true;
  $("teach-error").hidden = true;
  showCount();
}

export function showCount() {
  renderHall();
  const n = namedTiles().length;
  const taught = Math.min(stored(TAUGHT_KEY).length, MOST);
  $("table-set").hidden = !n;
  $("table-set-text").textContent = t("table_set", { n }) + (taught ? " " + t("table_set_taught", { n: taught }) : "");
}

function teachMessage(kind, text) {
  $("teach-error").textContent = kind === "error" ? text : "";
  $("teach-error").hidden = kind !== "error";
  $("teach-result").textContent = kind === "error" ? "" : text;
  $("teach-result").hidden = kind === "error";
}

/** The tiles their places named otherwise than the reader read them: a player sees at a
 * glance whether the set was laid out as the page asked. */
function renamedText(tiles) {
  const renamed = tiles.filter((x) => x.read !== x.tile)
    .map((x) => t("taught_as", { tile: tileName(x.tile), read: tileName(x.read) }));
  return renamed.length ? " " + t("taught_renamed", { list: renamed.join(", ") }) : "";
}

/** A set photo sent to `url`; the answer, once the readers had time for it. */
async function sendSet(url, file, tries = 0) {
  const data = await uploadFile(url, "photo", file, {}, () => {});
  if (data.error && data.error.code === "busy" && tries < 5) {  // the readers are all busy: wait as told
    teachMessage("status", data.error.message);
    await new Promise((done) => setTimeout(done, 1000 * (data.retryAfter || 3)));
    return sendSet(url, file, tries + 1);
  }
  return data;
}

/** Teach the set from a photo of it laid out in order; the server reads it and names each
 * tile by its place. A set taught replaces the one before. */
export async function teach(file) {
  if (!file) return;
  teachMessage("status", t("teach_reading"));
  const data = await sendSet("/api/teach", file);
  if (data.error) { teachMessage("error", data.error.message); return; }
  const set = (data.set || []).map((x) => ({ tile: x.tile, look: x.look }));
  try {
    localStorage.setItem(TAUGHT_KEY, JSON.stringify(set));
  } catch (e) {
    teachMessage("error", t("teach_not_kept"));  // private mode or full storage
    return;
  }
  teachMessage("status", t("taught", { n: set.length, agreed: data.agreed }) + renamedText(data.set || []));
  showCount();
}

/** Teach the set for the whole hall: the server keeps it and reads every table's photos
 * with it (the hall PIN is needed, as for the game sheets). */
export async function teachHall(file) {
  if (!file) return;
  teachMessage("status", t("teach_reading"));
  const data = await sendSet("/api/hall-set", file);
  if (data.error) { teachMessage("error", data.error.message); return; }
  teachMessage("status", t("taught_hall", { n: (data.set || []).length }) + renamedText(data.set || []));
  await showHall();
}

let hallCount = 0;  // tiles of the hall's set, as the server last said

/** Ask the server how many tiles the hall's set holds, and show it. */
export async function showHall() {
  const data = await sendJSON("GET", "/api/hall-set");
  hallCount = data.error ? 0 : data.count;
  renderHall();
}

function renderHall() {
  $("hall-set").hidden = !hallCount;
  $("hall-set-text").textContent = t("hall_set", { n: hallCount });
}

async function forgetHall() {
  const data = await sendJSON("DELETE", "/api/hall-set");
  if (data.error) { teachMessage("error", data.error.message); return; }
  await showHall();
}

export function initTableSet() {
  $("table-set-forget").addEventListener("click", forget);
  $("hall-set-forget").addEventListener("click", forgetHall);
  $("teach-input").addEventListener("change", (e) => { teach(e.target.files[0]); e.target.value = ""; });
  $("teach-hall-input").addEventListener("change", (e) => { teachHall(e.target.files[0]); e.target.value = ""; });
  showCount();
  showHall();
}
