// The photo screen: upload, the recognizer's answer as an editable hand, the
// boxes on the photo, and the breakdown brought into view once it is scored.
import { postJSON, uploadFile } from "../api.js";
import { getLang, t } from "../i18n.js";
import { byHandOrder, isFlower } from "../tiles.js";
import { changed, readNotation } from "./scoring.js";
import { $, state, tile } from "./state.js";
import { forget, namedTiles, rememberHand } from "./tableset.js";

const MAX_UPLOAD = 25 * 1024 * 1024;
// the server's refusals of the named tiles sent (not of the photo)
const REFUSED_MEMORY = ["bad_exemplars", "body_too_large", "too_many_parts", "too_deep", "bad_json", "too_long"];

let openTile = () => {};
/** The hand screen's tile dialog, opened from a box on the photo. */
export function setTileOpener(fn) { openTile = fn; }

export function showPhotoError(message) {
  const box = $("photo-error");
  box.textContent = message;
  box.hidden = !message;
}

export async function upload(file, tries = 0) {
  if (!file) return;
  showPhotoError("");
  if (file.size > MAX_UPLOAD) { showPhotoError(t("too_big")); return; }
  $("progress").hidden = false;
  $("progress-text").textContent = t("uploading");
  $("progress-bar").style.width = "0%";
  rememberHand();  // the last photo's hand, as the player left it, names this set's tiles
  const named = namedTiles();
  const fields = named.length ? { exemplars: JSON.stringify(named) } : {};
  const data = await uploadFile("/api/recognize", "photo", file, fields, (stage, part) => {
    if (stage === "read") $("progress-text").textContent = t("reading");
    $("progress-bar").style.width = `${Math.round(100 * part)}%`;
  });
  $("progress").hidden = true;
  if (named.length && data.error && REFUSED_MEMORY.includes(data.error.code)) {
    forget();  // kept by another version of the page or the reader: start afresh
    await upload(file, tries);
    return;
  }
  if (data.error && data.error.code === "busy" && tries < 5) {  // the readers are all busy: wait as told
    showPhotoError(data.error.message);
    setTimeout(() => upload(file, tries + 1), 1000 * (data.retryAfter || 3));
    return;
  }
  if (data.error) { showPhotoError(data.error.message); return; }
  if (state.photoUrl) URL.revokeObjectURL(state.photoUrl);
  state.photoUrl = URL.createObjectURL(file);
  await loadRecognition(data);
}

function takeSource(code, used) {
  const tiles = (state.recog && state.recog.tiles) || [];
  for (let i = 0; i < tiles.length; i++) {
    if (!used.has(i) && tiles[i].tile === code) { used.add(i); return i; }
  }
  return null;
}

function meldFromRecognition(m, used) {
  const read = (m.tiles || []).map((x) => (typeof x === "string" ? x : x.tile || x.code));
  if (read.length < 3) return null;
  // a kong lying with its ends face down is its face-up tiles four times
  const up = read.filter((c) => c !== "back");
  const known = m.kind === "kong" && up.length && up.every((c) => c === up[0]) ? up[0] : null;
  const codes = read.map((c) => (c === "back" && known ? known : c));
  const same = codes.every((c) => c === codes[0]);
  const kind = m.kind || (codes.length === 4 ? "kong" : same ? "pung" : "chow");
  const givers = { left: 1, opposite: 2, right: 3 };
  const claimed = m.concealed ? 0 : (typeof m.claimed === "number" ? m.claimed : givers[m.giver] || 1);
  const sorted = kind === "chow" ? [...codes].sort(byHandOrder) : codes;
  const promoted = kind === "kong" && claimed !== 0 && !!m.promoted;  // a claimed kong only (加杠)
  return { kind, claimed, promoted, tiles: sorted.map((c) => tile(c, takeSource(c, used))) };
}

/** The hand the recognizer read: its notation through the library, else its tiles in hand order. */
async function handOf(data, used) {
  const parsed = data.hand ? await readNotation(data.hand) : null;
  if (parsed && !parsed.error) {
    return {
      melds: parsed.melds.map((m) => ({ ...m, tiles: m.tiles.map((c) => tile(c, takeSource(c, used))) })),
      concealed: parsed.concealed.map((c) => tile(c, takeSource(c, used))),
      winning: parsed.winning ? tile(parsed.winning, takeSource(parsed.winning, used)) : null,
    };
  }
  const melds = (data.melds || []).map((m) => meldFromRecognition(m, used)).filter(Boolean);
  const win = typeof data.winning_tile === "string" ? data.winning_tile : null;
  const winning = win ? tile(win, takeSource(win, used)) : null;
  const rest = [];
  (data.tiles || []).forEach((x, i) => {
    if (!used.has(i) && !isFlower(x.tile) && x.tile !== "back") { used.add(i); rest.push(tile(x.tile, i)); }
  });
  rest.sort((a, b) => byHandOrder(a.code, b.code));  // as the notation lists them, not as detected
  return { melds, concealed: rest, winning };
}

async function loadRecognition(data) {
  state.recog = data;
  state.group = null;
  // 和绝张 is offered ticked when the photo shows the winning tile's other three copies
  state.sit.fourth_tile = data.fourth_tile_seen === true;
  showTableNote(data);
  const used = new Set();
  Object.assign(state, await handOf(data, used));
  state.flowers = [];
  (data.tiles || []).forEach((x, i) => { if (isFlower(x.tile) && !used.has(i)) { used.add(i); state.flowers.push(tile(x.tile, i)); } });
  $("photo-view").hidden = false;
  $("kb-details").open = false;
  $("photo-img").src = state.photoUrl || "";
  $("photo-hand-null").hidden = !!data.hand;
  showNotes();
  document.addEventListener("mcr:scored", showBreakdown, { once: true });
  changed();
}

/** The reader's notes on the photo, in the page's language: the server words each note in
 * every language (`notes[].texts`), so a switch of language needs no new request; an answer
 * without them shows its `warnings` as they came, in the language it was asked in. */
export function showNotes(data = state.recog) {
  const lang = getLang();
  const notes = data && Array.isArray(data.notes) && data.notes.every((n) => n && n.texts)
    ? data.notes.map((n) => n.texts[lang] || n.texts.en)
    : (data && data.warnings) || [];
  const box = $("photo-notes");
  box.hidden = !notes.length;
  $("photo-notes-summary").textContent = t("photo_warnings", { n: notes.length });
  box.open = true;
  const list = $("photo-warnings");
  list.lang = lang === "zh" ? "zh-CN" : lang;
  list.replaceChildren(...notes.map((w) => { const li = document.createElement("li"); li.textContent = w; return li; }));
}

/** After a photo, the answer is what the player wants: bring the breakdown into view. */
function showBreakdown() {
  const card = $("result-card");
  const box = card.getBoundingClientRect();
  if (box.top < 0 || box.top > window.innerHeight * 0.6) {
    card.scrollIntoView({ behavior: "smooth", block: "start" });
  }
}

/** How a tile read from the photo is marked: fixed by hand, changed by the rules, or one
 * the reader itself lists as uncertain (its own line, not one of the page's). */
export function boxClass(index) {
  const x = state.recog.tiles[index];
  if (x.edited) return "edited";
  if (x.overridden) return "overridden";
  if ((state.recog.uncertain || []).includes(index)) return "uncertain";
  return "";
}

export function renderBoxes() {
  const layer = $("boxes");
  layer.replaceChildren();
  const data = state.recog;
  if (!data || !data.size) return;
  const [w, h] = photoSize(data);
  const scale = ($("photo-img").clientWidth || 0) / w;
  (data.tiles || []).forEach((x, i) => {
    const [x1, y1, x2, y2] = x.box;
    const b = document.createElement("div");
    b.className = "box " + boxClass(i) + (scale && (x2 - x1) * scale < 28 ? " tiny" : "")
      + (x.partial ? " partial" : "");
    b.style.left = `${(100 * x1) / w}%`; b.style.top = `${(100 * y1) / h}%`;
    b.style.width = `${(100 * (x2 - x1)) / w}%`; b.style.height = `${(100 * (y2 - y1)) / h}%`;
    b.dataset.index = i;
    b.title = `${Math.round(100 * (x.confidence ?? 1))}%`;
    const tag = document.createElement("span");
    tag.className = "tag"; tag.textContent = x.tile;
    b.appendChild(tag);
    layer.appendChild(b);
  });
  renderIgnored(layer, w, h);
}

/** The tiles that are not the hand (walls, ponds, the other hands), dimmed; a tap on one
 * offers its group as the hand. */
function renderIgnored(layer, w, h) {
  (state.recog.ignored || []).forEach((group, gi) => {
    group.tiles.forEach((x) => {
      const [x1, y1, x2, y2] = x.box;
      const b = document.createElement("div");
      b.className = "box ignored" + (gi === state.group ? " chosen" : "")
        + (x.partial ? " partial" : "");
      b.style.left = `${(100 * x1) / w}%`; b.style.top = `${(100 * y1) / h}%`;
      b.style.width = `${(100 * (x2 - x1)) / w}%`; b.style.height = `${(100 * (y2 - y1)) / h}%`;
      b.dataset.group = gi;
      layer.appendChild(b);
    });
  });
}

/** What the page read beside the hand: the groups it left out, the last tile seen. */
function showTableNote(data) {
  const notes = [];
  if ((data.ignored || []).length) notes.push(t("ignored_hint"));
  if (data.fourth_tile_seen) notes.push(t("fourth_seen"));
  $("table-note").textContent = notes.join(" ");
  $("table-note").hidden = !notes.length;
  renderGroupBar();
}

function renderGroupBar() {
  const groups = (state.recog && state.recog.ignored) || [];
  const bar = $("group-bar");
  bar.hidden = state.group === null || !groups[state.group];
  if (bar.hidden) return;
  const group = groups[state.group];
  $("group-text").textContent = t("group_is", { kind: t(`kind_${group.kind}`), n: group.tiles.length });
  $("group-make").textContent = t("make_hand");
}

/** Read the chosen group as the hand (the library reads it; the page only asks). */
async function makeHand() {
  const data = state.recog;
  const gi = state.group;
  if (!data || gi === null || !data.ignored[gi]) return;
  const others = data.ignored.filter((_, k) => k !== gi);
  if ((data.tiles || []).length) others.push({ kind: "stray", tiles: data.tiles.map(({ tile: code, box, confidence, alternatives, up, look }) => ({ tile: code, box, confidence, alternatives, up, look })) });
  const answer = await postJSON("/api/regroup", { tiles: data.ignored[gi].tiles, ignored: others, size: data.size, image: data.image });
  if (answer.error) { showPhotoError(answer.error.message); return; }
  showPhotoError("");
  answer.named = !!data.named;  // the same photo: kept (or forgotten) once
  await loadRecognition(answer);
  renderBoxes();
}

function photoSize(data) {
  return Array.isArray(data.size) ? data.size : [data.size.w || data.size.width, data.size.h || data.size.height];
}

/** A tap on the photo opens the tile under the finger, or the nearest one: the
 * photo is one large touch target, however small its tiles are on a phone. */
function tapPhoto(e) {
  const data = state.recog;
  if (!data || !data.size || !((data.tiles || []).length || (data.ignored || []).length)) return;
  const rect = $("boxes").getBoundingClientRect();
  const [w, h] = photoSize(data);
  const x = ((e.clientX - rect.left) / rect.width) * w;
  const y = ((e.clientY - rect.top) / rect.height) * h;
  let best = null, bestDist = Infinity;
  const near = (box, pick) => {
    const [x1, y1, x2, y2] = box;
    const dist = Math.hypot(Math.max(x1 - x, 0, x - x2), Math.max(y1 - y, 0, y - y2));
    if (dist < bestDist) { best = pick; bestDist = dist; }
  };
  data.tiles.forEach((tileRead, i) => near(tileRead.box, { src: i }));
  (data.ignored || []).forEach((g, gi) => g.tiles.forEach((x) => near(x.box, { group: gi })));
  if (best === null || bestDist > 0.08 * w) return;
  if (best.group !== undefined) {  // a tile not in the hand: offer its group as the hand
    state.group = best.group;
    renderGroupBar();
    renderBoxes();
    return;
  }
  state.group = null;
  renderGroupBar();
  openTile(best);
}

export function initPhoto() {
  $("boxes").addEventListener("click", tapPhoto);
  $("group-make").addEventListener("click", makeHand);
  for (const id of ["camera-input", "upload-input"]) {
    $(id).addEventListener("change", (e) => { upload(e.target.files[0]); e.target.value = ""; });
  }
  $("photo-img").addEventListener("load", renderBoxes);
  window.addEventListener("resize", () => { if (state.recog) renderBoxes(); });
}
