// The hand screen: the tiles as melds / concealed / winning / flowers, the
// tile dialog (replace, remove, form a meld), the tile keyboard and the
// notation field. Every edit changes the structure; the library writes it.
import { t, tileName } from "../i18n.js";
import { CODES, FLOWERS, PLAYING, isFlower, nextCode, svg, tileInfo } from "../tiles.js";
import { boxClass, showPhotoError } from "./photo.js";
import { changed, readNotation } from "./scoring.js";
import { $, state, tile, tileCount } from "./state.js";

function tileEl(x, opts = {}) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "tile" + (opts.side ? " side" : "");
  if (x.src !== null && state.recog && state.recog.tiles[x.src]) {
    const cls = boxClass(x.src);
    if (cls) b.classList.add(cls);
  }
  if (opts.hl) b.classList.add("hl");
  b.innerHTML = svg(x.code, !!opts.side);
  b.title = tileName(x.code);
  b.setAttribute("aria-label", tileName(x.code));
  b.dataset.code = x.code;
  if (opts.onClick) b.addEventListener("click", opts.onClick);
  return b;
}

function highlightCounts() {
  const counts = {};
  if (state.highlight === null || !state.result) return counts;
  const fan = state.result.fans[state.highlight];
  (fan && fan.tiles ? fan.tiles : []).forEach((occ) => (occ || []).forEach((c) => { counts[c] = (counts[c] || 0) + 1; }));
  return counts;
}

function sideIndex(m) {
  if (m.kind === "kong" && m.claimed === 0) return -1;
  if (m.kind === "chow") return m.claimed - 1;
  return m.claimed === 1 ? 0 : m.claimed === 2 ? 1 : m.tiles.length - 1;
}

function group(label, cls) {
  const g = document.createElement("div");
  g.className = "group " + cls;
  const l = document.createElement("div");
  l.className = "group-label"; l.textContent = label;
  const row = document.createElement("div");
  row.className = "tiles";
  g.append(l, row);
  return [g, row];
}

function meldControls(m, mi) {
  const box = document.createElement("div");
  box.className = "meld-ctl";
  const sel = document.createElement("select");
  sel.setAttribute("aria-label", m.kind === "chow" ? t("claimed_tile") : t("giver"));
  const opts = m.kind === "chow"
    ? [1, 2, 3].map((n) => [n, `${t("claimed_tile")} ${n}`])
    : [[1, t("from_left")], [2, t("from_opposite")], [3, t("from_right")]];
  if (m.kind === "kong") opts.push([0, t("concealed_kong")]);
  opts.forEach(([v, label]) => {
    const o = document.createElement("option");
    o.value = v; o.textContent = label; o.selected = v === m.claimed;
    sel.appendChild(o);
  });
  sel.addEventListener("change", () => { m.claimed = +sel.value; if (m.claimed === 0) m.promoted = false; changed(); });
  box.appendChild(sel);
  if (m.kind === "kong" && m.claimed !== 0) {
    const lab = document.createElement("label");
    lab.className = "mini";
    const cb = document.createElement("input");
    cb.type = "checkbox"; cb.checked = m.promoted;
    cb.addEventListener("change", () => { m.promoted = cb.checked; changed(); });
    lab.append(cb, document.createTextNode(t("promoted")));
    box.appendChild(lab);
  }
  const del = document.createElement("button");
  del.type = "button"; del.className = "btn small"; del.textContent = t("remove_meld");
  del.addEventListener("click", () => { state.melds.splice(mi, 1); state.concealed.push(...m.tiles); changed(); });
  box.appendChild(del);
  return box;
}

export function renderHand() {
  const el = $("hand");
  el.replaceChildren();
  const hl = highlightCounts();
  const mark = (x) => { if (hl[x.code] > 0) { hl[x.code]--; return true; } return false; };
  if (!state.melds.length && !state.concealed.length && !state.winning && !state.flowers.length) {
    const p = document.createElement("p");
    p.className = "hint"; p.textContent = t("no_tiles");
    el.appendChild(p);
  }
  state.melds.forEach((m, mi) => {
    const [g, row] = group(m.kind === "kong" && m.claimed === 0 ? t("concealed_kong") : t(m.kind), "meld");
    const side = sideIndex(m);
    m.tiles.forEach((x, ti) => row.appendChild(tileEl(x, {
      side: ti === side, hl: mark(x), onClick: () => openDialog({ meld: mi, index: ti }),
    })));
    g.appendChild(meldControls(m, mi));
    el.appendChild(g);
  });
  if (state.concealed.length) {
    const [g, row] = group(t("concealed"), "concealed");
    state.concealed.forEach((x, ti) => row.appendChild(tileEl(x, { hl: mark(x), onClick: () => openDialog({ concealed: ti }) })));
    el.appendChild(g);
  }
  if (state.winning) {
    const [g, row] = group(t("winning"), "winning");
    row.appendChild(tileEl(state.winning, { hl: mark(state.winning), onClick: () => openDialog({ winning: true }) }));
    el.appendChild(g);
  }
  if (state.flowers.length) {
    const [g, row] = group(t("flowers"), "flowers");
    state.flowers.forEach((x, ti) => row.appendChild(tileEl(x, { onClick: () => openDialog({ flower: ti }) })));
    el.appendChild(g);
  }
  const field = $("notation");
  if (document.activeElement !== field) field.value = state.notation;
  $("flower-count").textContent = state.flowers.length;
  $("flower-plus").disabled = state.flowers.length >= FLOWERS.length;  // a set has 8
  $("flower-minus").disabled = state.flowers.length === 0;
}

// ---------- the tile dialog: replace, remove, move ----------

function refOf(target) {
  if (target.meld !== undefined) return state.melds[target.meld].tiles[target.index];
  if (target.concealed !== undefined) return state.concealed[target.concealed];
  if (target.winning) return state.winning;
  if (target.flower !== undefined) return state.flowers[target.flower];
  if (target.src !== undefined) return findBySource(target.src);
  return null;
}

function findBySource(src) {
  const all = [...state.melds.flatMap((m) => m.tiles), ...state.concealed, ...(state.winning ? [state.winning] : []), ...state.flowers];
  return all.find((x) => x.src === src) || null;
}

function markEdited(src, code) {
  if (src === null || src === undefined || !state.recog) return;
  const rec = state.recog.tiles[src];
  if (rec && rec.tile !== code) { rec.tile = code; rec.edited = true; }
}

function replaceTile(target, code) {
  const x = refOf(target);
  const src = x ? x.src : target.src;
  markEdited(src, code);
  if (!x) { // a box on the photo that is not in the hand yet
    (isFlower(code) ? state.flowers : state.concealed).push(tile(code, src));
    return;
  }
  if (isFlower(code) !== isFlower(x.code)) { // flowers live in their own group
    removeTile(target);
    (isFlower(code) ? state.flowers : state.concealed).push(tile(code, x.src));
    return;
  }
  const meld = state.melds.find((m) => m.tiles.includes(x));
  if (meld && meld.kind !== "chow") {  // a pung or kong is one tile four times: fix them all
    meld.tiles.forEach((y) => { y.code = code; markEdited(y.src, code); });
    return;
  }
  x.code = code;
}

function removeTile(target) {
  const x = refOf(target);
  if (!x) return;
  for (let mi = 0; mi < state.melds.length; mi++) {
    const m = state.melds[mi];
    const i = m.tiles.indexOf(x);
    if (i >= 0) { m.tiles.splice(i, 1); state.melds.splice(mi, 1); state.concealed.push(...m.tiles); return; }
  }
  let i = state.concealed.indexOf(x);
  if (i >= 0) { state.concealed.splice(i, 1); return; }
  if (state.winning === x) { state.winning = null; return; }
  i = state.flowers.indexOf(x);
  if (i >= 0) state.flowers.splice(i, 1);
}

function formMeld(x, kind) {
  const need = kind === "chow" ? [x.code, nextCode(x.code, 1), nextCode(x.code, 2)]
    : Array(kind === "kong" ? 4 : 3).fill(x.code);
  if (need.includes(null)) { toast(t("bad_chow")); return; }
  const pool = [...state.concealed];
  if (state.winning) pool.push(state.winning);
  const picked = [];
  for (const c of need) {
    const pref = picked.length === 0 ? x : null;
    const found = pref && pref.code === c ? pref : pool.find((y) => y.code === c && !picked.includes(y));
    if (!found) { toast(t("meld_needs", { tiles: need.map(tileName).join(" ") })); return; }
    picked.push(found);
  }
  state.concealed = state.concealed.filter((y) => !picked.includes(y));
  if (picked.includes(state.winning)) state.winning = null;
  state.melds.push({ kind, claimed: 1, promoted: false, tiles: picked });
}

let dialogTarget = null;

function action(key, fn) {
  const b = document.createElement("button");
  b.type = "button"; b.className = "btn"; b.textContent = t(key); b.dataset.action = key;
  b.addEventListener("click", () => { fn(); $("tile-dialog").close(); changed(); });
  return b;
}

function alternatives(rec) {
  const alts = $("dialog-alts");
  alts.replaceChildren();
  if (!rec || !rec.alternatives || !rec.alternatives.length) return;
  const l = document.createElement("span"); l.textContent = t("maybe"); alts.appendChild(l);
  rec.alternatives.filter((a, i) => i === 0 || a.p >= 0.01).forEach((a) => {
    const b = document.createElement("button");
    b.type = "button"; b.className = "alt";
    b.innerHTML = svg(a.tile) + `<small>${Math.round(100 * a.p)}%</small>`;
    b.setAttribute("aria-label", tileName(a.tile));
    b.addEventListener("click", () => { replaceTile(dialogTarget, a.tile); $("tile-dialog").close(); changed(); });
    alts.appendChild(b);
  });
}

export function openDialog(target) {
  dialogTarget = target;
  const x = refOf(target);
  const code = x ? x.code : state.recog.tiles[target.src].tile;
  const src = x ? x.src : target.src;
  $("dialog-title").textContent = `${t("replace_with")} · ${tileName(code)}`;
  alternatives(src !== null && src !== undefined && state.recog ? state.recog.tiles[src] : null);
  const acts = $("dialog-actions");
  acts.replaceChildren();
  if (x) acts.appendChild(action("remove", () => removeTile(target)));
  if (target.concealed !== undefined) {
    acts.appendChild(action("make_winning", () => {
      const old = state.winning;
      state.concealed.splice(target.concealed, 1);
      if (old) state.concealed.push(old);
      state.winning = x;
    }));
    acts.appendChild(action("form_pung", () => formMeld(x, "pung")));
    acts.appendChild(action("form_kong", () => formMeld(x, "kong")));
    if (nextCode(x.code, 2)) acts.appendChild(action("form_chow", () => formMeld(x, "chow")));
  }
  if (target.winning) acts.appendChild(action("to_concealed", () => { state.concealed.push(x); state.winning = null; }));
  buildPalette($("dialog-palette"), CODES, (c) => { replaceTile(dialogTarget, c); $("tile-dialog").close(); changed(); }, code);
  $("tile-dialog").showModal();
}

// ---------- keyboard ----------

/** Keys in rows of one suit (or honors, or flowers), as the library orders the tiles. */
function buildPalette(el, codes, onKey, current = null) {
  el.replaceChildren();
  const rows = new Map();
  codes.forEach((c) => {
    const info = tileInfo(c);
    const kind = info.suit || info.kind;  // a row per suit, then honors, flowers, the back
    if (!rows.has(kind)) {
      const row = document.createElement("div");
      row.className = "key-row";
      rows.set(kind, row);
      el.appendChild(row);
    }
    const b = document.createElement("button");
    b.type = "button"; b.className = "key" + (c === current ? " current" : ""); b.dataset.code = c;
    b.innerHTML = svg(c); b.title = tileName(c); b.setAttribute("aria-label", tileName(c));
    b.addEventListener("click", () => onKey(c));
    rows.get(kind).appendChild(b);
  });
}

function keyPress(code) {
  if (isFlower(code)) { state.flowers.push(tile(code)); changed(); return; }
  const mode = state.mode;
  if (mode === "winning") {
    if (state.winning) state.concealed.push(state.winning);
    state.winning = tile(code);
  } else if (mode === "concealed") {
    if (tileCount() >= 14) { toast(t("hand_full")); return; }
    if (!state.winning && tileCount() === 13) state.winning = tile(code);
    else state.concealed.push(tile(code));
  } else {
    if (tileCount() + 3 > 14) { toast(t("hand_full")); return; }
    const kind = mode === "ckong" ? "kong" : mode;
    let codes;
    if (kind === "chow") {
      if (!nextCode(code, 2)) { toast(t("bad_chow")); return; }
      codes = [code, nextCode(code, 1), nextCode(code, 2)];
    } else codes = Array(kind === "kong" ? 4 : 3).fill(code);
    state.melds.push({ kind, claimed: mode === "ckong" ? 0 : 1, promoted: false, tiles: codes.map((c) => tile(c)) });
    setMode("concealed");
  }
  changed();
}

function backspace() {
  if (state.winning) state.winning = null;
  else if (state.concealed.length) state.concealed.pop();
  else if (state.melds.length) state.melds.pop();
  else state.flowers.pop();
  changed();
}

function setMode(mode) {
  state.mode = mode;
  document.querySelectorAll("#kb-modes [data-mode]").forEach((b) => b.classList.toggle("on", b.dataset.mode === mode));
}

async function applyNotation() {
  const err = $("notation-error");
  const parsed = await readNotation($("notation").value);
  if (parsed.error) { err.textContent = parsed.error.message; err.hidden = false; return; }
  err.hidden = true;
  Object.assign(state, {
    melds: parsed.melds.map((m) => ({ ...m, tiles: m.tiles.map((c) => tile(c)) })),
    concealed: parsed.concealed.map((c) => tile(c)),
    winning: parsed.winning ? tile(parsed.winning) : null,
    notation: parsed.hand,
    recog: null,
  });
  $("photo-view").hidden = true;
  $("notation").blur();
  changed();
}

let toastTimer = null;
export function toast(msg) {
  const el = $("toast");
  el.textContent = msg; el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 2500);
}

export function relabelKeys() {
  document.querySelectorAll(".key[data-code]").forEach((k) => { k.title = tileName(k.dataset.code); k.setAttribute("aria-label", tileName(k.dataset.code)); });
}

export function initHand() {
  buildPalette($("keyboard"), [...PLAYING, ...FLOWERS], keyPress);
  document.querySelectorAll("#kb-modes [data-mode]").forEach((b) => b.addEventListener("click", () => setMode(b.dataset.mode)));
  $("kb-back").addEventListener("click", backspace);
  $("clear-hand").addEventListener("click", () => {
    Object.assign(state, { melds: [], concealed: [], winning: null, flowers: [], recog: null });
    $("photo-view").hidden = true; showPhotoError("");
    changed();
  });
  $("notation-apply").addEventListener("click", applyNotation);
  $("notation").addEventListener("keydown", (e) => { if (e.key === "Enter") applyNotation(); });
  $("flower-plus").addEventListener("click", () => {
    const free = FLOWERS.find((c) => !state.flowers.some((x) => x.code === c));
    if (free) { state.flowers.push(tile(free)); changed(); }
  });
  $("flower-minus").addEventListener("click", () => { if (state.flowers.length) { state.flowers.pop(); changed(); } });
}
