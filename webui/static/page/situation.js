// How the hand was won: discard or self-draw, the special flags (disabled with
// the server's reason when the hand makes them impossible), winds, flowers.
import { t, tileName } from "../i18n.js";
import { changed } from "./scoring.js";
import { $, WINDS, state } from "./state.js";

const FLAGS = ["fourth_tile", "kong", "last_tile"];

function buildWinds(id, key) {
  const row = $(id);
  WINDS.forEach((w) => {
    const b = document.createElement("button");
    b.type = "button"; b.className = "seg wind"; b.dataset.wind = w;
    b.addEventListener("click", () => { state.sit[key] = w; changed(); });
    row.appendChild(b);
  });
}

export function renderSituation() {
  const s = state.sit;
  $("win-self").classList.toggle("on", s.self_drawn);
  $("win-discard").classList.toggle("on", !s.self_drawn);
  $("label-kong").textContent = t(s.self_drawn ? "kong_self" : "kong_discard");
  $("label-last_tile").textContent = t(s.self_drawn ? "last_self" : "last_discard");
  for (const [id, key] of [["seat-wind", "seat_wind"], ["round-wind", "round_wind"]]) {
    $(id).querySelectorAll("button").forEach((b) => {
      b.classList.toggle("on", b.dataset.wind === s[key]);
      b.textContent = tileName(b.dataset.wind);
    });
  }
  const flags = (state.options && state.options.flags) || {};
  for (const flag of [...FLAGS, "self_drawn"]) {
    const info = flags[flag];
    const blocked = info && !info.possible;
    // an option ticked before the hand changed, now refused: its reason shows beside it
    const mends = info && info.mends && flag !== "self_drawn" && s[flag];
    const reason = $(`reason-${flag}`);
    reason.hidden = !(blocked || mends);
    reason.textContent = blocked || mends ? info.message : "";
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

export function initSituation() {
  buildWinds("seat-wind", "seat_wind");
  buildWinds("round-wind", "round_wind");
  $("win-self").addEventListener("click", () => { state.sit.self_drawn = true; changed(); });
  $("win-discard").addEventListener("click", () => { state.sit.self_drawn = false; changed(); });
  for (const flag of FLAGS) {
    $(`flag-${flag}`).addEventListener("change", (e) => { state.sit[flag] = e.target.checked; changed(); });
  }
}
