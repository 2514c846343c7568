// Game sheet pages: the new-game form, recording and correcting hands, the
// live sheet table. Texts follow the page's language switch like the table page.
import { onceKey, sendJSON } from "./api.js";
import { onChange, t, tileName } from "./i18n.js";

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...content) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...content.filter((c) => c !== ""));
  return node;
}

/** A name people typed (a player's): shown as written, never taken for page text. */
const named = (text) => el("span", { translate: "no" }, text);

/** The answer, or an Error carrying the server's message (in the page's language). */
async function send(method, url, body) {
  const data = await sendJSON(method, url, body);
  if (data && data.error) throw Object.assign(new Error(data.error.message), { code: data.error.code });
  return data;
}

/** Show an error under a form; a missing PIN gets the way to give it. */
function showError(node, e) {
  node.replaceChildren(e.message);
  if (e.code === "pin_required") {
    node.append(" ", el("a", { href: "/join", class: "g-link" }, t("enter_pin")));
  }
}

function initNewGame(form) {
  const error = $("new-error");
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = new FormData(form);
    const body = {
      players: [0, 1, 2, 3].map((i) => String(f.get("p" + i) || "").trim()),
      name: String(f.get("name") || ""),
      tournament: String(f.get("tournament") || ""),
      table: String(f.get("table") || ""),
    };
    if (f.get("session")) body.session = parseInt(f.get("session"), 10);
    error.textContent = "";
    try {
      const sheet = await send("POST", form.dataset.api, body);
      window.location.href = `${window.location.pathname.replace(/\/$/, "")}/${sheet.id}`;
    } catch (e) {
      showError(error, e);
    }
  });
}

function penaltyText(p) {
  return [named(p.player), ` ${t(`pen_${p.kind}`)}${p.kind === "deduction" && p.points ? " " + p.points : ""}`];
}

function describe(h) {
  let parts;
  if (h.result === "draw") parts = [t("draw_text")];
  else if (h.self_drawn) parts = [named(h.winner), ` ${h.fans} ${t("self_drawn_text")}`];
  else parts = [named(h.winner), ` ${h.fans} ← `, named(h.discarder)];
  for (const p of h.penalties || []) parts.push("; ", ...penaltyText(p));
  return parts;
}

/** A text with the dealer's name in its `{dealer}` place, the name marked as a name. */
function withName(node, text, name) {
  const [before, after] = text.split("{dealer}");
  node.replaceChildren(before, named(name), after ?? "");
}

function points(x) { return String(Number(Number(x).toFixed(2))); }

function signed(n) { return n > 0 ? `+${n}` : String(n); }

function sheetTable(sheet, editing, onPick) {
  const table = $("sheet-table");
  table.replaceChildren();
  const head = el("tr");
  for (const key of ["#", "col_round", "col_dealer", "col_result"]) head.append(el("th", {}, key === "#" ? "#" : t(key)));
  for (const p of sheet.players) head.append(el("th", { class: "g-num" }, named(p)));
  const thead = el("thead");
  thead.append(head);
  table.append(thead);
  const body = el("tbody");
  for (const h of sheet.hands) {
    const tr = el("tr", { class: "g-hand", tabindex: "0", "data-number": h.number });
    tr.append(el("td", {}, String(h.number)), el("td", {}, tileName(h.round_wind)),
      el("td", {}, named(h.dealer)), el("td", { class: "g-desc" }, ...describe(h)));
    for (const p of sheet.players) tr.append(el("td", { class: "g-num" }, h.delta[p] ? signed(h.delta[p]) : "0"));
    if (editing === h.number) tr.classList.add("g-editing");
    tr.addEventListener("click", () => onPick(h.number));
    body.append(tr);
  }
  for (const [key, values] of [["row_score", (p) => String(sheet.scores[p])], ["row_table_points", (p) => points(sheet.table_points[p])]]) {
    const row = el("tr", { class: "g-total" });
    row.append(el("td", { colspan: "4" }, t(key)));
    for (const p of sheet.players) row.append(el("td", { class: "g-num" }, values(p)));
    body.append(row);
  }
  table.append(body);
}

function initSheet(initial, api) {
  let sheet = initial;
  /** The form as it starts: a new hand, nobody chosen; `kept` holds what a correction
   *  sends back unchanged (`startEdit`). */
  const blank = () => ({ editing: null, result: "win", winner: null, discarder: null, penalties: [], kept: {} });
  const state = blank();
  const once = onceKey();
  const form = $("record");
  const fans = $("fans");
  const error = $("record-error");
  const who = $("who");
  who.value = localStorage.getItem("mcr-game-who") || "";
  who.addEventListener("change", () => localStorage.setItem("mcr-game-who", who.value));

  function seatWinds() {
    if (state.editing) return sheet.hands[state.editing - 1].seat_winds;
    return sheet.next ? sheet.next.seat_winds : {};
  }

  function renderInfo() {
    const info = $("next-info");
    if (state.editing) {
      const h = sheet.hands[state.editing - 1];
      withName(info, t("correcting", { n: h.number, round: tileName(h.round_wind) }), h.dealer);
    } else if (sheet.next) {
      const n = sheet.next;
      withName(info, t("next_hand", { n: n.number, round: tileName(n.round_wind) }), n.dealer);
    } else {
      info.textContent = t("game_complete");
    }
    $("submit").disabled = !state.editing && !sheet.next;
    $("submit").textContent = state.editing ? t("save_hand", { n: state.editing }) : t("record_hand");
    $("cancel-edit").hidden = !state.editing;
    form.querySelectorAll("[data-result]").forEach((b) => b.classList.toggle("g-on", b.dataset.result === state.result));
    $("win-fields").hidden = state.result !== "win";
  }

  function playerButton(label, on, onClick) {
    const b = el("button", { type: "button", class: "g-btn g-player" }, ...label);
    b.classList.toggle("g-on", on);
    b.addEventListener("click", onClick);
    return b;
  }

  function renderPlayers() {
    const winds = seatWinds();
    $("winner-buttons").replaceChildren(...sheet.players.map((p) => playerButton(
      [named(p), winds[p] ? ` ${tileName(winds[p])}` : ""], state.winner === p,
      () => { state.winner = p; if (state.discarder === p) state.discarder = null; renderNext(); })));
    const db = $("discarder-buttons");
    db.replaceChildren(playerButton([t("self_drawn_text")], state.discarder === null, () => { state.discarder = null; renderNext(); }));
    for (const p of sheet.players) {
      if (p !== state.winner) db.append(playerButton([named(p)], state.discarder === p, () => { state.discarder = p; renderNext(); }));
    }
  }

  function renderPenalties() {
    const pp = $("pen-player");  // a select: its names are options
    const keep = pp.value;
    pp.replaceChildren(...sheet.players.map((p) => el("option", { value: p }, p)));
    if (keep) pp.value = keep;
    $("penalties").replaceChildren(...state.penalties.map((pen, i) => {
      const row = el("div", { class: "g-row" });
      row.append(el("span", {}, ...penaltyText(pen)));
      const x = el("button", { type: "button", class: "g-btn g-chip", "aria-label": t("remove_penalty") }, "✕");
      x.addEventListener("click", () => { state.penalties.splice(i, 1); renderNext(); });
      row.append(x);
      return row;
    }));
  }

  function renderNext() { renderInfo(); renderPlayers(); renderPenalties(); }

  function render() {
    $("game-title").textContent = t("game_title", { n: sheet.id });
    sheetTable(sheet, state.editing, startEdit);
    renderNext();
  }

  function reset() {
    Object.assign(state, blank());
    fans.value = 8;
    error.textContent = "";
  }

  function startEdit(number) {
    const h = sheet.hands[number - 1];
    Object.assign(state, {
      editing: number, result: h.result, winner: h.winner || null,
      discarder: h.result === "win" && !h.self_drawn ? h.discarder : null,
      penalties: (h.penalties || []).map((p) => ({ ...p })),
      // what this form does not show (the hand's tiles, flowers, a note) goes back as it was
      kept: Object.fromEntries(["hand", "flowers", "note"].filter((k) => h[k] != null).map((k) => [k, h[k]])),
    });
    fans.value = h.fans || 8;
    error.textContent = "";
    render();
    form.scrollIntoView({ behavior: "smooth" });
  }

  form.querySelectorAll("[data-result]").forEach((b) => b.addEventListener("click", () => { state.result = b.dataset.result; renderNext(); }));
  form.querySelectorAll("[data-fans]").forEach((b) => b.addEventListener("click", () => { fans.value = b.dataset.fans; }));
  form.querySelectorAll("[data-fans-step]").forEach((b) => b.addEventListener("click", () => {
    fans.value = Math.max(8, (parseInt(fans.value, 10) || 8) + parseInt(b.dataset.fansStep, 10));
  }));
  $("pen-add").addEventListener("click", () => {
    const pen = { player: $("pen-player").value, kind: $("pen-kind").value };
    if (pen.kind === "deduction") pen.points = parseInt($("pen-points").value, 10) || 0;
    state.penalties.push(pen);
    renderNext();
  });
  /** The sheet as the server has it now (another device may have changed it); `always`
   *  draws it even when nothing changed (to leave a refused correction). */
  async function refresh(always = false) {
    const fresh = await sendJSON("GET", api);
    const changed = fresh && !fresh.error && JSON.stringify(fresh.hands) !== JSON.stringify(sheet.hands);
    if (changed) sheet = fresh;
    if (changed || always) render();
  }

  $("cancel-edit").addEventListener("click", () => { reset(); render(); });
  $("undo").addEventListener("click", async () => {
    if (!sheet.hands.length) return;
    if (!window.confirm(t("undo_confirm"))) return;
    // the hand shown last: if another device undid or recorded one meanwhile, the
    // server refuses (409) instead of removing a hand nobody here has seen
    const number = sheet.hands[sheet.hands.length - 1].number;
    try {
      const data = await send("POST", `${api}/undo`, { who: who.value, number });
      sheet = data.sheet; reset(); render();
    } catch (e) {
      showError(error, e);
      if (e.code === "conflict" && !state.editing) await refresh();
    }
  });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = { result: state.result, who: who.value };
    if (state.result === "win") {
      if (!state.winner) { error.textContent = t("choose_winner"); return; }
      body.winner = state.winner;
      body.self_drawn = state.discarder === null;
      if (state.discarder) body.discarder = state.discarder;
      body.fans = parseInt(fans.value, 10);
    }
    if (state.penalties.length) body.penalties = state.penalties;
    if (state.editing) {
      const { kept } = state;
      if (kept.note != null) body.note = kept.note;
      if (state.result === "win") {
        if (kept.hand != null) body.hand = kept.hand;
        if (kept.flowers != null) body.flowers = kept.flowers;
      }
    }
    $("submit").disabled = true;
    const editing = state.editing;
    try {
      let data;
      if (editing) {
        // the hand as this page shows it: if another device changed or undid it since,
        // the server refuses (409) instead of writing over a hand nobody here has seen
        body.expected_revision = sheet.hands[editing - 1].revision;
        data = await send("PUT", `${api}/hands/${editing}`, body);
      } else {
        body.expected_number = sheet.next.number;
        body.request_id = once.idFor(body);
        data = await send("POST", `${api}/hands`, body);
        once.done();
      }
      sheet = data.sheet; reset(); render();
    } catch (e) {
      if (e.code === "conflict" && editing) { reset(); await refresh(true); } else $("submit").disabled = false;
      showError(error, e);
    }
  });

  // other devices may record hands too: keep the sheet current
  setInterval(() => {
    if (!document.hidden && !state.editing) refresh();
  }, 5000);

  onChange(render);
  render();
}

const newGame = $("new-game");
if (newGame) initNewGame(newGame);
const data = $("sheet-data");
if (data) initSheet(JSON.parse(data.textContent), data.dataset.api);
