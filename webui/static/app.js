// The table page: photo → tiles → fixes → fan breakdown, and the referee check.
// The page keeps the hand as a structure (melds, concealed tiles, winning tile,
// flowers), sends its notation to /api/score on every change and shows the answer.
"use strict";

(() => {
  const { t } = MCRI18n;
  const $ = (id) => document.getElementById(id);
  const MAX_UPLOAD = 25 * 1024 * 1024;
  const LOW_CONFIDENCE = 0.6;
  const WINDS = ["E", "S", "W", "N"];
  const PLAYING = MCRTiles.CODES.slice(0, 34);
  const FLOWERS = MCRTiles.CODES.slice(34, 42);

  const state = {
    melds: [],       // {kind: "chow"|"pung"|"kong", tiles: [T], claimed: 0-3, promoted: bool}
    concealed: [],   // [T]
    winning: null,   // T | null
    flowers: [],     // [T]
    sit: { self_drawn: false, fourth_tile: false, kong: false, last_tile: false, seat_wind: "E", round_wind: "E" },
    recog: null,     // the recognition answer; its tiles stay editable
    photoUrl: null,
    result: null,
    error: null,
    options: null,
    mode: "concealed",
    highlight: null, // index of the tapped fan
    showExcluded: false,
    seq: 0,          // answers to older requests are dropped
  };

  const tile = (code, src = null) => ({ code, src });
  const isSuited = (c) => /^[1-9][mps]$/.test(c);
  const isFlower = (c) => /^[1-8]f$/.test(c);

  // ---------- notation ----------

  function compact(codes) {
    let out = "", run = "", suit = "";
    for (const c of codes) {
      if (isSuited(c)) {
        if (suit && c[1] !== suit) { out += run + suit; run = ""; }
        suit = c[1]; run += c[0];
      } else {
        if (suit) { out += run + suit; run = ""; suit = ""; }
        out += c;
      }
    }
    return suit ? out + run + suit : out;
  }

  function meldNotation(m) {
    const body = compact(m.tiles.map((x) => x.code));
    if (m.kind === "kong" && m.claimed === 0) return `[${body}]`;
    const num = m.kind === "kong" && m.promoted ? m.claimed + 4 : m.claimed;
    return `[${body},${num}]`;
  }

  function handNotation() {
    const rest = state.concealed.map((x) => x.code);
    if (state.winning) rest.push(state.winning.code);
    return state.melds.map(meldNotation).join("") + compact(rest);
  }

  function tilesOf(str) {
    const out = [];
    let digits = [];
    for (const ch of str) {
      if (/[1-9]/.test(ch)) digits.push(ch);
      else if ("mps".includes(ch)) {
        if (!digits.length) throw new Error(`'${ch}' without digits`);
        digits.forEach((d) => out.push(d + ch));
        digits = [];
      } else if ("ESWNCFP".includes(ch)) {
        if (digits.length) throw new Error(`digits before '${ch}' need a suit letter m/p/s`);
        out.push(ch);
      } else throw new Error(`unknown character '${ch}'`);
    }
    if (digits.length) throw new Error("a suit letter (m, p or s) is missing at the end");
    return out;
  }

  function parseNotation(text) {
    const s = text.replace(/\s+/g, "");
    const melds = [];
    let i = 0;
    while (s[i] === "[") {
      const j = s.indexOf("]", i);
      if (j < 0) throw new Error("a bracket '[' is not closed");
      const m = s.slice(i + 1, j).match(/^(.*?[mpsESWNCFP]),?([0-7])?$/);
      if (!m) throw new Error(`cannot read the meld '${s.slice(i, j + 1)}'`);
      const codes = tilesOf(m[1]);
      const num = m[2] === undefined ? null : +m[2];
      const same = codes.every((c) => c === codes[0]);
      let meld;
      if (codes.length === 4 && same) {
        meld = num === null || num === 0 ? { kind: "kong", claimed: 0, promoted: false }
          : { kind: "kong", claimed: num > 4 ? num - 4 : num, promoted: num > 4 };
      } else if (codes.length === 3 && same) meld = { kind: "pung", claimed: num || 1, promoted: false };
      else if (codes.length === 3) meld = { kind: "chow", claimed: num || 1, promoted: false };
      else throw new Error(`'${s.slice(i, j + 1)}' is not a chow, pung or kong`);
      meld.tiles = codes.map((c) => tile(c));
      melds.push(meld);
      i = j + 1;
    }
    const rest = tilesOf(s.slice(i)).map((c) => tile(c));
    const full = rest.length + 3 * melds.length >= 14;
    return { melds, concealed: full ? rest.slice(0, -1) : rest, winning: full ? rest[rest.length - 1] : null };
  }

  // ---------- requests ----------

  function scoreRequest() {
    return { hand: handNotation(), flowers: state.flowers.length, ...state.sit };
  }

  async function postJSON(url, body) {
    const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    let data;
    try { data = await res.json(); } catch (e) { data = { error: { code: "bad_response", message: `HTTP ${res.status}` } }; }
    return data;
  }

  let timer = null;
  function changed() {
    render();
    clearTimeout(timer);
    timer = setTimeout(rescore, 120);
  }

  async function rescore() {
    const seq = ++state.seq;
    if (!state.concealed.length && !state.melds.length && !state.winning) {
      state.result = null; state.error = null; state.options = null;
      renderResult(); renderSituation();
      return;
    }
    const req = scoreRequest();
    try {
      const [res, opts] = await Promise.all([postJSON("/api/score", req), postJSON("/api/options", req)]);
      if (seq !== state.seq) return;
      state.result = res.error ? null : res;
      state.error = res.error || null;
      state.options = opts.error ? null : opts;
      state.highlight = null;
    } catch (e) {
      if (seq !== state.seq) return;
      state.result = null;
      state.error = { code: "network", message: t("net_error") };
    }
    renderResult(); renderSituation(); renderHand();
  }

  // ---------- photo ----------

  function showPhotoError(message) {
    const box = $("photo-error");
    box.textContent = message;
    box.hidden = !message;
  }

  function upload(file, tries = 0) {
    if (!file) return;
    showPhotoError("");
    if (file.size > MAX_UPLOAD) { showPhotoError(t("too_big")); return; }
    const form = new FormData();
    form.append("photo", file, file.name || "photo.jpg");
    const xhr = new XMLHttpRequest();
    $("progress").hidden = false;
    $("progress-text").textContent = t("uploading");
    $("progress-bar").style.width = "0%";
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) $("progress-bar").style.width = `${Math.round((100 * e.loaded) / e.total)}%`;
    };
    xhr.upload.onload = () => { $("progress-text").textContent = t("reading"); $("progress-bar").style.width = "100%"; };
    xhr.onerror = () => { $("progress").hidden = true; showPhotoError(t("net_error")); };
    xhr.onload = () => {
      $("progress").hidden = true;
      let data;
      try { data = JSON.parse(xhr.responseText); } catch (e) { data = { error: { message: `HTTP ${xhr.status}` } }; }
      if (xhr.status === 503 && data.error && data.error.code === "busy" && tries < 5) {  // the server's queue is full: wait as it says
        showPhotoError(data.error.message);
        setTimeout(() => upload(file, tries + 1), 1000 * (parseInt(xhr.getResponseHeader("Retry-After"), 10) || 3));
        return;
      }
      if (xhr.status >= 400 || data.error) { showPhotoError((data.error && data.error.message) || `HTTP ${xhr.status}`); return; }
      if (state.photoUrl) URL.revokeObjectURL(state.photoUrl);
      state.photoUrl = URL.createObjectURL(file);
      loadRecognition(data);
    };
    xhr.open("POST", "/api/recognize");
    xhr.send(form);
  }

  function meldFromRecognition(m, used) {
    const codes = (m.tiles || []).map((x) => (typeof x === "string" ? x : x.tile || x.code));
    if (codes.length < 3) return null;
    const same = codes.every((c) => c === codes[0]);
    const kind = m.kind || (codes.length === 4 ? "kong" : same ? "pung" : "chow");
    const givers = { left: 1, opposite: 2, right: 3 };
    let claimed = m.concealed ? 0 : (typeof m.claimed === "number" ? m.claimed : givers[m.giver] || 1);
    const sorted = kind === "chow" ? [...codes].sort() : codes;
    return { kind, claimed, promoted: !!m.promoted, tiles: sorted.map((c) => tile(c, takeSource(c, used))) };
  }

  function takeSource(code, used) {
    const tiles = (state.recog && state.recog.tiles) || [];
    for (let i = 0; i < tiles.length; i++) {
      if (!used.has(i) && tiles[i].tile === code) { used.add(i); return i; }
    }
    return null;
  }

  function loadRecognition(data) {
    state.recog = data;
    const used = new Set();
    const tiles = data.tiles || [];
    let parsed = null;
    if (data.hand) { try { parsed = parseNotation(data.hand); } catch (e) { parsed = null; } }
    if (parsed) {
      state.melds = parsed.melds.map((m) => ({ ...m, tiles: m.tiles.map((x) => tile(x.code, takeSource(x.code, used))) }));
      state.concealed = parsed.concealed.map((x) => tile(x.code, takeSource(x.code, used)));
      state.winning = parsed.winning ? tile(parsed.winning.code, takeSource(parsed.winning.code, used)) : null;
    } else {
      state.melds = (data.melds || []).map((m) => meldFromRecognition(m, used)).filter(Boolean);
      const win = typeof data.winning_tile === "string" ? data.winning_tile : null;
      state.winning = win ? tile(win, takeSource(win, used)) : null;
      state.concealed = [];
      tiles.forEach((x, i) => {
        if (!used.has(i) && !isFlower(x.tile)) { used.add(i); state.concealed.push(tile(x.tile, i)); }
      });
    }
    state.flowers = [];
    tiles.forEach((x, i) => { if (isFlower(x.tile) && !used.has(i)) { used.add(i); state.flowers.push(tile(x.tile, i)); } });
    $("photo-view").hidden = false;
    $("kb-details").open = false;
    $("photo-img").src = state.photoUrl || "";
    const warnings = [...(data.warnings || [])];
    if (!data.hand) warnings.unshift(t("hand_null"));
    $("photo-warnings").innerHTML = "";
    warnings.forEach((w) => { const li = document.createElement("li"); li.textContent = w; $("photo-warnings").appendChild(li); });
    changed();
  }

  function renderBoxes() {
    const layer = $("boxes");
    layer.innerHTML = "";
    const data = state.recog;
    if (!data || !data.size) return;
    const [w, h] = Array.isArray(data.size) ? data.size : [data.size.w || data.size.width, data.size.h || data.size.height];
    const scale = ($("photo-img").clientWidth || 0) / w;
    (data.tiles || []).forEach((x, i) => {
      const [x1, y1, x2, y2] = x.box;
      const b = document.createElement("button");
      b.type = "button";
      b.className = "box " + boxClass(x) + (scale && (x2 - x1) * scale < 28 ? " tiny" : "");
      b.style.left = `${(100 * x1) / w}%`; b.style.top = `${(100 * y1) / h}%`;
      b.style.width = `${(100 * (x2 - x1)) / w}%`; b.style.height = `${(100 * (y2 - y1)) / h}%`;
      b.dataset.index = i;
      b.title = `${x.tile} ${Math.round(100 * (x.confidence ?? 1))}%`;
      const tag = document.createElement("span");
      tag.className = "tag"; tag.textContent = x.tile;
      b.appendChild(tag);
      b.addEventListener("click", () => openDialog({ src: i }));
      layer.appendChild(b);
    });
  }

  function boxClass(x) {
    if (x.edited) return "edited";
    if (x.overridden) return "overridden";
    if ((x.confidence ?? 1) < LOW_CONFIDENCE) return "uncertain";
    return "";
  }

  // ---------- the hand ----------

  function tileEl(x, opts = {}) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "tile" + (opts.side ? " side" : "");
    const rec = x.src !== null && state.recog ? state.recog.tiles[x.src] : null;
    if (rec) { const cls = boxClass(rec); if (cls) b.classList.add(cls); }
    if (opts.hl) b.classList.add("hl");
    b.innerHTML = MCRTiles.svg(x.code, !!opts.side);
    b.title = MCRTiles.name(x.code, MCRI18n.lang);
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
    const n = m.tiles.length;
    return m.claimed === 1 ? 0 : m.claimed === 2 ? 1 : n - 1;
  }

  function group(label, cls) {
    const g = document.createElement("div");
    g.className = "group " + cls;
    const l = document.createElement("div");
    l.className = "group-label"; l.textContent = label;
    g.appendChild(l);
    const row = document.createElement("div");
    row.className = "tiles";
    g.appendChild(row);
    return [g, row];
  }

  function meldControls(m, mi) {
    const box = document.createElement("div");
    box.className = "meld-ctl";
    const sel = document.createElement("select");
    sel.setAttribute("aria-label", m.kind === "chow" ? t("claimed_tile") : "giver");
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
    del.addEventListener("click", () => {
      state.melds.splice(mi, 1);
      state.concealed.push(...m.tiles);
      changed();
    });
    box.appendChild(del);
    return box;
  }

  function renderHand() {
    const el = $("hand");
    el.innerHTML = "";
    const hl = highlightCounts();
    const mark = (x) => { if (hl[x.code] > 0) { hl[x.code]--; return true; } return false; };
    if (!state.melds.length && !state.concealed.length && !state.winning && !state.flowers.length) {
      el.innerHTML = `<p class="hint">${t("no_tiles")}</p>`;
    }
    state.melds.forEach((m, mi) => {
      const kindName = m.kind === "kong" && m.claimed === 0 ? t("concealed_kong") : t(m.kind);
      const [g, row] = group(kindName, "meld");
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
    $("notation").value = handNotation();
    $("flower-count").textContent = state.flowers.length;
    renderBoxes();
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

  function replaceTile(target, code) {
    const x = refOf(target);
    const src = x ? x.src : target.src;
    markEdited(src, code);
    if (!x) { // a box on the photo that is not in the hand yet
      if (isFlower(code)) state.flowers.push(tile(code, src)); else state.concealed.push(tile(code, src));
      return;
    }
    if (isFlower(code) !== isFlower(x.code)) { // flowers live in their own group
      removeTile(target);
      if (isFlower(code)) state.flowers.push(tile(code, x.src)); else state.concealed.push(tile(code, x.src));
      return;
    }
    const meld = state.melds.find((m) => m.tiles.includes(x));
    if (meld && meld.kind !== "chow") {  // a pung or kong is one tile four times: fix them all
      meld.tiles.forEach((y) => { y.code = code; markEdited(y.src, code); });
      return;
    }
    x.code = code;
  }

  function markEdited(src, code) {
    if (src === null || src === undefined || !state.recog) return;
    const rec = state.recog.tiles[src];
    if (rec && rec.tile !== code) { rec.tile = code; rec.edited = true; }
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
      if (!found) { toast(t("meld_needs").replace("{tiles}", need.join(" "))); return; }
      picked.push(found);
    }
    state.concealed = state.concealed.filter((y) => !picked.includes(y));
    if (picked.includes(state.winning)) state.winning = null;
    state.melds.push({ kind, claimed: 1, promoted: false, tiles: picked });
  }

  function nextCode(code, k) {
    if (!isSuited(code) || +code[0] + k > 9) return null;
    return `${+code[0] + k}${code[1]}`;
  }

  let dialogTarget = null;

  function action(key, fn) {
    const b = document.createElement("button");
    b.type = "button"; b.className = "btn"; b.textContent = t(key); b.dataset.action = key;
    b.addEventListener("click", () => { fn(); $("tile-dialog").close(); changed(); });
    return b;
  }

  function openDialog(target) {
    dialogTarget = target;
    const x = refOf(target);
    const code = x ? x.code : state.recog.tiles[target.src].tile;
    const src = x ? x.src : target.src;
    $("dialog-title").textContent = `${t("replace_with")} · ${MCRTiles.name(code, MCRI18n.lang)}`;
    const alts = $("dialog-alts");
    alts.innerHTML = "";
    const rec = src !== null && src !== undefined && state.recog ? state.recog.tiles[src] : null;
    if (rec && rec.alternatives && rec.alternatives.length) {
      const l = document.createElement("span"); l.textContent = t("maybe"); alts.appendChild(l);
      rec.alternatives.filter((a, i) => i === 0 || a.p >= 0.01).forEach((a) => {
        const b = document.createElement("button");
        b.type = "button"; b.className = "alt";
        b.innerHTML = MCRTiles.svg(a.tile) + `<small>${Math.round(100 * a.p)}%</small>`;
        b.addEventListener("click", () => { replaceTile(dialogTarget, a.tile); $("tile-dialog").close(); changed(); });
        alts.appendChild(b);
      });
    }
    const acts = $("dialog-actions");
    acts.innerHTML = "";
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
    const pal = $("dialog-palette");
    pal.innerHTML = "";
    MCRTiles.CODES.forEach((c) => {
      const b = document.createElement("button");
      b.type = "button"; b.className = "key" + (c === code ? " current" : "");
      b.innerHTML = MCRTiles.svg(c); b.title = MCRTiles.name(c, MCRI18n.lang); b.dataset.code = c;
      b.addEventListener("click", () => { replaceTile(dialogTarget, c); $("tile-dialog").close(); changed(); });
      pal.appendChild(b);
    });
    $("tile-dialog").showModal();
  }

  // ---------- keyboard ----------

  function tileCount() {
    return state.concealed.length + 3 * state.melds.length + (state.winning ? 1 : 0);
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

  function buildKeyboard() {
    const kb = $("keyboard");
    kb.innerHTML = "";
    [...PLAYING, ...FLOWERS].forEach((c) => {
      const b = document.createElement("button");
      b.type = "button"; b.className = "key"; b.dataset.code = c;
      b.innerHTML = MCRTiles.svg(c); b.title = MCRTiles.name(c, MCRI18n.lang);
      b.addEventListener("click", () => keyPress(c));
      kb.appendChild(b);
    });
  }

  // ---------- situation ----------

  function buildWinds(id, key) {
    const row = $(id);
    WINDS.forEach((w) => {
      const b = document.createElement("button");
      b.type = "button"; b.className = "seg wind"; b.dataset.wind = w;
      b.addEventListener("click", () => { state.sit[key] = w; changed(); });
      row.appendChild(b);
    });
  }

  function renderSituation() {
    const s = state.sit;
    $("win-self").classList.toggle("on", s.self_drawn);
    $("win-discard").classList.toggle("on", !s.self_drawn);
    $("label-kong").textContent = t(s.self_drawn ? "kong_self" : "kong_discard");
    $("label-last_tile").textContent = t(s.self_drawn ? "last_self" : "last_discard");
    for (const [id, key] of [["seat-wind", "seat_wind"], ["round-wind", "round_wind"]]) {
      $(id).querySelectorAll("button").forEach((b) => {
        b.classList.toggle("on", b.dataset.wind === s[key]);
        b.textContent = MCRI18n.lang === "zh" ? MCRTiles.ZH[b.dataset.wind] : b.dataset.wind;
      });
    }
    const flags = (state.options && state.options.flags) || {};
    for (const flag of ["fourth_tile", "kong", "last_tile", "self_drawn"]) {
      const info = flags[flag];
      const blocked = info && !info.possible;
      const reason = $(`reason-${flag}`);
      reason.hidden = !blocked;
      reason.textContent = blocked ? info.message : "";
      if (flag === "self_drawn") {
        (s.self_drawn ? $("win-discard") : $("win-self")).disabled = !!blocked;
        (s.self_drawn ? $("win-self") : $("win-discard")).disabled = false;
      } else {
        const cb = $(`flag-${flag}`);
        cb.checked = s[flag];
        cb.disabled = !!blocked && !s[flag];
        cb.closest(".flag").classList.toggle("disabled", cb.disabled);
      }
    }
  }

  // ---------- result ----------

  function fanName(f) {
    return MCRI18n.lang === "zh" ? [f.name_zh, f.name_en] : [f.name_en, f.name_zh];
  }

  function renderTotalBar() {
    const bar = $("total-bar");
    const r = state.result;
    if (state.error && state.error.code === "wrong_tile_count" && tileCount() < 14) {
      bar.hidden = true;
      return;
    }
    if (state.error) {
      bar.className = "total-bar low";
      bar.textContent = `✗ ${t("not_winning_short")}`;
    } else if (r) {
      bar.className = "total-bar " + (r.meets_minimum ? "ok" : "low");
      bar.textContent = `${t("total")} ${r.total} ${t("fan_unit")} ${r.meets_minimum ? "✓" : "✗"}`;
    }
    bar.hidden = !(state.error || r);
  }

  function renderResult() {
    renderTotalBar();
    renderRecord();
    const el = $("result");
    el.innerHTML = "";
    if (state.error) {
      const missing = 14 - tileCount();
      if (state.error.code === "wrong_tile_count" && missing > 0) {  // still typing the hand
        el.innerHTML = `<p class="hint" id="more-tiles"></p>`;
        $("more-tiles").textContent = t("more_tiles").replace("{n}", missing);
        return;
      }
      const div = document.createElement("div");
      div.className = "msg error";
      const key = `err_${state.error.code}`;
      const what = t(key) === key ? t("not_win") : `${t("not_win")} · ${t(key)}`;
      div.innerHTML = `<strong>${escapeHtml(what)}</strong><br>`;
      div.appendChild(document.createTextNode(state.error.message));
      div.dataset.code = state.error.code || "";
      el.appendChild(div);
      return;
    }
    const r = state.result;
    if (!r) { el.innerHTML = `<p class="hint">${t("empty_hint")}</p>`; return; }
    const table = document.createElement("table");
    table.className = "fans";
    r.fans.forEach((f, i) => {
      const tr = document.createElement("tr");
      tr.className = "fan" + (state.highlight === i ? " on" : "");
      tr.tabIndex = 0;
      const [main, sub] = fanName(f);
      const detail = f.detail ? `<div class="detail">${escapeHtml(f.detail)}</div>` : "";
      tr.innerHTML = `<td class="name"><span class="main">${escapeHtml(main)}</span> <span class="sub">${escapeHtml(sub)}</span>${detail}</td>` +
        `<td class="pts">${f.points}${f.count > 1 ? ` × ${f.count}` : ""}</td><td class="sum">${f.points * f.count}</td>`;
      tr.addEventListener("click", () => { state.highlight = state.highlight === i ? null : i; renderHand(); renderResult(); });
      table.appendChild(tr);
    });
    el.appendChild(table);
    const total = document.createElement("div");
    total.className = "total " + (r.meets_minimum ? "ok" : "low");
    total.innerHTML = `<span>${t("total")}</span><strong id="total-value">${r.total}</strong><span>${t("fan_unit")}</span>` +
      `<em>${r.meets_minimum ? "✓ " + t("meets") : "✗ " + t("below")}</em>`;
    el.appendChild(total);
    if (r.payments) {
      const p = document.createElement("div");
      p.className = "payments" + (r.meets_minimum ? "" : " void");
      p.innerHTML = `<h3>${t("payments")}</h3>`;
      const ul = document.createElement("ul");
      // Under 8 fans a declared win is 错和 (seed 000): the declarer pays 10 to each other player.
      const entries = r.meets_minimum ? Object.entries(r.payments)
        : [["wrong_win", -30], ["wrong_win_others", 10]];
      if (!r.meets_minimum) {
        const note = document.createElement("p");
        note.className = "wrong-win";
        note.textContent = t("wrong_win_note");
        p.appendChild(note);
      }
      entries.forEach(([k, v]) => {
        if (typeof v !== "number") return;
        const li = document.createElement("li");
        li.innerHTML = `<span>${escapeHtml(t(`pay_${k}`))}</span><strong class="${v >= 0 ? "plus" : "minus"}">${v > 0 ? "+" : ""}${v}</strong>`;
        ul.appendChild(li);
      });
      p.appendChild(ul);
      el.appendChild(p);
    }
    const ex = r.excluded || [];
    if (ex.length) {
      const b = document.createElement("button");
      b.type = "button"; b.className = "btn small"; b.id = "toggle-excluded";
      b.textContent = `${t(state.showExcluded ? "excluded_hide" : "excluded_show")} (${ex.length})`;
      b.addEventListener("click", () => { state.showExcluded = !state.showExcluded; renderResult(); });
      el.appendChild(b);
      if (state.showExcluded) {
        const ul = document.createElement("ul");
        ul.className = "excluded";
        ex.forEach((f) => {
          const li = document.createElement("li");
          const [main, sub] = fanName(f);
          li.innerHTML = `<span class="main">${escapeHtml(main)}</span> <span class="sub">${escapeHtml(sub)} · ${f.points}</span><div class="detail">${escapeHtml(f.reason || "")}</div>`;
          ul.appendChild(li);
        });
        el.appendChild(ul);
      }
    }
  }

  function escapeHtml(s) {
    return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  }

  // ---------- referee check ----------

  async function runCheck() {
    const out = $("check-result");
    const claimText = $("claim").value.trim();
    const totalText = $("claim-total").value.trim();
    const body = { request: scoreRequest() };
    if (claimText) body.claim = claimText;
    if (totalText) body.total = Number(totalText);
    let data;
    try { data = await postJSON("/api/check", body); } catch (e) { data = { error: { message: t("net_error") } }; }
    out.innerHTML = "";
    if (data.error) { out.innerHTML = `<div class="msg error"></div>`; out.firstChild.textContent = data.error.message; return; }
    const head = document.createElement("div");
    head.className = "msg " + (data.correct ? "good" : "error");
    head.innerHTML = `<strong>${data.correct ? "✓ " + t("correct") : "✗ " + t("wrong")}</strong> ` +
      `${t("correct_total")}: <b>${data.total}</b> · ${t("claimed_total_is")}: ${data.claimed_total}`;
    out.appendChild(head);
    for (const key of ["missing", "extra", "miscounted"]) {
      if (!data[key].length) continue;
      const h = document.createElement("h3"); h.textContent = t(key); out.appendChild(h);
      const ul = document.createElement("ul"); ul.className = `diff ${key}`;
      data[key].forEach((f) => {
        const li = document.createElement("li");
        const [main, sub] = fanName(f);
        const n = key === "miscounted" ? ` — ${t("claimed")} ×${f.claimed}, ${t("actual")} ×${f.count}` : ` ×${f.count}`;
        li.textContent = `${main} (${sub}) ${f.points}${n}${f.reason ? ` — ${f.reason}` : ""}`;
        ul.appendChild(li);
      });
      out.appendChild(ul);
    }
  }

  // ---------- the game sheet (when that part of the product is installed) ----------

  const record = { games: null, discarder: null, loading: false, sheets: {} };

  async function loadSheet(id) {
    if (!id || record.sheets[id]) return;
    try {
      const res = await fetch(`/game/api/${id}`);
      if (res.ok) record.sheets[id] = await res.json();
    } catch (e) { /* the names are a convenience; recording still works */ }
    renderRecord();
  }

  function seatName(next, wind) {
    if (!next || !next.seat_winds) return "";
    const found = Object.entries(next.seat_winds).find(([, w]) => w === wind);
    return found ? found[0] : "";
  }

  async function loadGames() {
    if (record.loading) return;
    record.loading = true;
    try {
      const res = await fetch("/game/api/games");
      const games = res.ok ? await res.json() : [];
      record.games = Array.isArray(games) ? games.filter((g) => !g.complete) : [];
    } catch (e) {
      record.games = [];
    }
    record.loading = false;
    $("record-result").innerHTML = "";
    renderRecord();
  }

  function renderRecord() {
    const card = $("record-card");
    if (!card) return;
    const r = state.result;
    card.hidden = !(r && r.meets_minimum);
    if (card.hidden) return;
    if (record.games === null) { loadGames(); return; }
    const sel = $("record-game");
    const keep = sel.value;
    sel.innerHTML = "";
    record.games.forEach((g) => {
      const o = document.createElement("option");
      o.value = g.id;
      o.textContent = `#${g.id} ${g.name || ""} · ${(g.players || []).join(" / ")} · ${g.hands} ${t("hands_played")}`;
      sel.appendChild(o);
    });
    if (keep) sel.value = keep;
    const none = !record.games.length;
    $("record-btn").hidden = none;
    sel.closest(".field").hidden = none;
    if (none) {
      $("record-result").innerHTML = `<p class="hint"></p>`;
      const p = $("record-result").firstChild;
      p.textContent = t("record_none") + " ";
      const a = document.createElement("a");
      a.href = "/game/"; a.textContent = t("nav_game");
      p.appendChild(a);
      $("record-winner").textContent = "";
      $("record-round").hidden = true;
      $("record-discarder-row").hidden = true;
      return;
    }
    const sheet = record.sheets[sel.value];
    if (sel.value && !sheet) loadSheet(sel.value);
    const next = sheet && sheet.next;
    const windName = (w) => (MCRI18n.lang === "zh" ? MCRTiles.ZH[w] : w);
    $("record-winner").textContent = next
      ? `${t("record_winner")}: ${seatName(next, state.sit.seat_wind)} (${windName(state.sit.seat_wind)})` : "";
    $("record-round").hidden = !next || next.round_wind === state.sit.round_wind;
    if (next) {
      $("record-round").querySelector("span").textContent = t("record_round")
        .replace("{n}", next.number).replace("{round}", windName(next.round_wind));
    }
    $("record-discarder-row").hidden = state.sit.self_drawn;
    $("record-discarder").querySelectorAll("button").forEach((b) => {
      b.disabled = b.dataset.wind === state.sit.seat_wind;
      if (b.disabled && record.discarder === b.dataset.wind) record.discarder = null;
      b.classList.toggle("on", b.dataset.wind === record.discarder);
      const wind = MCRI18n.lang === "zh" ? MCRTiles.ZH[b.dataset.wind] : b.dataset.wind;
      const who = seatName(next, b.dataset.wind);
      b.textContent = who ? `${wind} · ${who}` : wind;
    });
  }

  async function recordHand() {
    const out = $("record-result");
    const id = $("record-game").value;
    const game = (record.games || []).find((g) => String(g.id) === id);
    if (!game || !state.result) return;
    const body = {
      result: "win", winner_seat: state.sit.seat_wind, self_drawn: state.sit.self_drawn,
      fans: state.result.total, hand: handNotation(), expected_number: game.hands + 1,
      request_id: `${id}-${game.hands + 1}-${handNotation()}`.slice(0, 100),  // a second tap records nothing more
    };
    if (!state.sit.self_drawn) body.discarder_seat = record.discarder;
    const data = await postJSON(`/game/api/${id}/hands`, body);
    out.innerHTML = "";
    const msg = document.createElement("div");
    if (data.error) {
      msg.className = "msg error"; msg.textContent = data.error.message;
    } else {
      game.hands = data.number;
      if (data.sheet) record.sheets[id] = data.sheet;
      msg.className = "msg good";
      msg.textContent = t("record_done").replace("{n}", data.number) + " ";
      const a = document.createElement("a");
      a.href = `/game/${id}`; a.textContent = t("record_open");
      msg.appendChild(a);
      renderRecord();
    }
    out.appendChild(msg);
  }

  function initRecord() {
    if (!$("record-card")) return;
    WINDS.forEach((w) => {
      const b = document.createElement("button");
      b.type = "button"; b.className = "seg wind"; b.dataset.wind = w;
      b.addEventListener("click", () => { record.discarder = w; renderRecord(); });
      $("record-discarder").appendChild(b);
    });
    $("record-btn").addEventListener("click", recordHand);
    window.addEventListener("focus", () => {  // a game may have been started in another tab
      if (record.loading) return;
      record.games = null; record.sheets = {};
      renderRecord();
    });
    $("record-game").addEventListener("change", renderRecord);
    $("record-use-winds").addEventListener("click", () => {
      const sheet = record.sheets[$("record-game").value];
      if (sheet && sheet.next) { state.sit.round_wind = sheet.next.round_wind; changed(); }
    });
  }

  // ---------- misc ----------

  let toastTimer = null;
  function toast(msg) {
    const el = $("toast");
    el.textContent = msg; el.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { el.hidden = true; }, 2500);
  }

  function render() { renderHand(); renderSituation(); renderRecord(); }

  function init() {
    buildKeyboard();
    buildWinds("seat-wind", "seat_wind");
    buildWinds("round-wind", "round_wind");
    $("camera-input").addEventListener("change", (e) => { upload(e.target.files[0]); e.target.value = ""; });
    $("upload-input").addEventListener("change", (e) => { upload(e.target.files[0]); e.target.value = ""; });
    document.querySelectorAll("#kb-modes [data-mode]").forEach((b) => b.addEventListener("click", () => setMode(b.dataset.mode)));
    $("kb-back").addEventListener("click", backspace);
    $("clear-hand").addEventListener("click", () => {
      Object.assign(state, { melds: [], concealed: [], winning: null, flowers: [], recog: null });
      $("photo-view").hidden = true; showPhotoError("");
      changed();
    });
    $("notation-apply").addEventListener("click", applyNotation);
    $("notation").addEventListener("keydown", (e) => { if (e.key === "Enter") applyNotation(); });
    $("win-self").addEventListener("click", () => { state.sit.self_drawn = true; changed(); });
    $("win-discard").addEventListener("click", () => { state.sit.self_drawn = false; changed(); });
    for (const flag of ["fourth_tile", "kong", "last_tile"]) {
      $(`flag-${flag}`).addEventListener("change", (e) => { state.sit[flag] = e.target.checked; changed(); });
    }
    $("flower-plus").addEventListener("click", () => {
      const free = FLOWERS.find((c) => !state.flowers.some((x) => x.code === c));
      if (free) { state.flowers.push(tile(free)); changed(); }
    });
    $("flower-minus").addEventListener("click", () => { if (state.flowers.length) { state.flowers.pop(); changed(); } });
    $("check-btn").addEventListener("click", runCheck);
    $("photo-img").addEventListener("load", renderBoxes);
    window.addEventListener("resize", () => { if (state.recog) renderBoxes(); });
    initRecord();
    MCRI18n.onChange((lang) => {
      document.querySelectorAll("#keyboard .key").forEach((k) => { k.title = MCRTiles.name(k.dataset.code, lang); });
      render(); renderResult();
    });
    render();
  }

  function applyNotation() {
    const err = $("notation-error");
    try {
      const parsed = parseNotation($("notation").value);
      Object.assign(state, parsed, { recog: null });
      $("photo-view").hidden = true;
      err.hidden = true;
      changed();
    } catch (e) {
      err.textContent = e.message; err.hidden = false;
    }
  }

  document.addEventListener("DOMContentLoaded", init);
  window.MCRPage = { state, parseNotation, handNotation };
})();
