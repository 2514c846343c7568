// Recording a scored hand in a game sheet (when that part of the product is installed).
import { getJSON, onceKey, postJSON } from "../api.js";
import { t, tileName } from "../i18n.js";
import { changed } from "./scoring.js";
import { $, WINDS, state } from "./state.js";

const record = { games: null, discarder: null, loading: false, sheets: {}, once: onceKey(), sending: false };

async function loadSheet(id) {
  if (!id || record.sheets[id]) return;
  const sheet = await getJSON(`/game/api/${id}`);
  if (!sheet.error) record.sheets[id] = sheet;  // the names are a convenience; recording works without
  renderRecord();
}

/** A name people typed (a player's): shown as written, never taken for page text. */
function named(text) {
  const span = document.createElement("span");
  span.translate = false;
  span.textContent = text;
  return span;
}

function seatName(next, wind) {
  if (!next || !next.seat_winds) return "";
  const found = Object.entries(next.seat_winds).find(([, w]) => w === wind);
  return found ? found[0] : "";
}

async function loadGames() {
  if (record.loading) return;
  record.loading = true;
  const games = await getJSON("/game/api/games");
  record.games = Array.isArray(games) ? games.filter((g) => !g.complete) : [];
  record.loading = false;
  $("record-result").replaceChildren();
  renderRecord();
}

function showNoGame() {
  const p = document.createElement("p");
  p.className = "hint";
  p.textContent = t("record_none") + " ";
  const a = document.createElement("a");
  a.href = "/game/"; a.textContent = t("nav_game");
  p.appendChild(a);
  $("record-result").replaceChildren(p);
  $("record-winner").textContent = "";
  $("record-round").hidden = true;
  $("record-discarder-row").hidden = true;
}

function renderGames(sel) {
  const keep = sel.value;
  sel.replaceChildren(...record.games.map((g) => {
    const o = document.createElement("option");
    o.value = g.id;
    o.textContent = `#${g.id} ${g.name || ""} · ${(g.players || []).join(" / ")} · ${g.hands} ${t("hands_played")}`;
    return o;
  }));
  if (keep) sel.value = keep;
}

/** Where a tablet on the hall's Wi-Fi gives the PIN that lets it write game sheets. */
function pinLink() {
  const a = document.createElement("a");
  a.href = "/join"; a.textContent = t("enter_pin");
  return a;
}

export function renderRecord() {
  const card = $("record-card");
  if (!card) return;
  const r = state.result;
  card.hidden = !(r && r.meets_minimum);
  if (card.hidden) return;
  if (record.games === null) { loadGames(); return; }
  const sel = $("record-game");
  renderGames(sel);
  const none = !record.games.length;
  $("record-btn").hidden = none;
  sel.closest(".field").hidden = none;
  if (none) { showNoGame(); return; }
  const sheet = record.sheets[sel.value];
  if (sel.value && !sheet) loadSheet(sel.value);
  const next = sheet && sheet.next;
  $("record-winner").replaceChildren(...(next
    ? [`${t("record_winner")}: `, named(seatName(next, state.sit.seat_wind)), ` (${tileName(state.sit.seat_wind)})`] : []));
  $("record-round").hidden = !next || next.round_wind === state.sit.round_wind;
  if (next) {
    $("record-round").querySelector("span").textContent = t("record_round", { n: next.number, round: tileName(next.round_wind) });
  }
  $("record-discarder-row").hidden = state.sit.self_drawn;
  $("record-discarder").querySelectorAll("button").forEach((b) => {
    b.disabled = b.dataset.wind === state.sit.seat_wind;
    if (b.disabled && record.discarder === b.dataset.wind) record.discarder = null;
    b.classList.toggle("on", b.dataset.wind === record.discarder);
    const who = seatName(next, b.dataset.wind);
    b.replaceChildren(tileName(b.dataset.wind), ...(who ? [" · ", named(who)] : []));
  });
}

async function recordHand() {
  const out = $("record-result");
  const id = $("record-game").value;
  const game = (record.games || []).find((g) => String(g.id) === id);
  if (!game || !state.result) return;
  const body = {
    result: "win", winner_seat: state.sit.seat_wind, self_drawn: state.sit.self_drawn,
    fans: state.result.total, hand: state.notation, expected_number: game.hands + 1,
  };
  if (!state.sit.self_drawn) body.discarder_seat = record.discarder;
  if (record.sending) return;  // a second tap while the first is on its way
  record.sending = true;
  body.request_id = record.once.idFor({ id, ...body });
  const data = await postJSON(`/game/api/${id}/hands`, body);
  record.sending = false;
  if (!data.error) record.once.done();
  const msg = document.createElement("div");
  if (data.error) {
    msg.className = "msg error"; msg.textContent = data.error.message;
    if (data.error.code === "pin_required") msg.append(" ", pinLink());
  } else {
    game.hands = data.number;
    if (data.sheet) record.sheets[id] = data.sheet;
    msg.className = "msg good";
    msg.textContent = t("record_done", { n: data.number }) + " ";
    const a = document.createElement("a");
    a.href = `/game/${id}`; a.textContent = t("record_open");
    msg.appendChild(a);
    renderRecord();
  }
  out.replaceChildren(msg);
}

export function initRecord() {
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
