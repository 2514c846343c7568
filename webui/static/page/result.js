// The fan breakdown: each fan with its points, the total against the 8-fan
// minimum, the payments, the fans not counted; the total in the top bar.
import { RULES } from "/library.js";
import { fanNames, isChinese, t, tileName } from "../i18n.js";
import { tileInfo } from "../tiles.js";
import { renderHand } from "./hand.js";
import { $, state, tileCount } from "./state.js";

/** The tiles of one occurrence in Chinese: 五六七饼, 东东东 (a suit written once). */
function tilesInWords(codes) {
  let out = "", suitName = "", suit = null;
  for (const c of codes) {
    const info = tileInfo(c);
    const name = tileName(c);
    if (info.kind === "suited") {
      if (suit !== null && suit !== info.suit) out += suitName;
      suit = info.suit; suitName = name.slice(1); out += name[0];
    } else {
      if (suit !== null) { out += suitName; suit = null; }
      out += name;
    }
  }
  return suit !== null ? out + suitName : out;
}

/** The line under a fan: the library's words in English; the fan's own tiles in Chinese. */
function detailOf(f) {
  if (!isChinese()) return f.detail || "";
  const occ = (f.tiles || []).filter((o) => o && o.length && o.length < 14);  // not the whole hand
  return occ.length === (f.tiles || []).length ? occ.map(tilesInWords).join("、") : "";
}

function excludedReason(f) {
  if (!isChinese()) return f.reason || "";
  return f.by ? t("excluded_by", { fan: fanNames(f.by)[0] }) : t("excluded_rule");
}

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function renderTotalBar() {
  const bar = $("total-bar");
  const r = state.result;
  if (state.error && state.error.code === "wrong_tile_count" && tileCount() < 14) { bar.hidden = true; return; }
  if (state.error) {
    bar.className = "total-bar low";
    bar.textContent = `✗ ${t("not_winning_short")}`;
  } else if (r) {
    bar.className = "total-bar " + (r.meets_minimum ? "ok" : "low");
    bar.textContent = `${t("total")} ${r.total} ${t("fan_unit")} ${r.meets_minimum ? "✓" : "✗"}`;
  }
  bar.hidden = !(state.error || r);
}

function renderError(out) {
  const missing = 14 - tileCount();
  if (state.error.code === "wrong_tile_count" && missing > 0) {  // still typing the hand
    const p = el("p", "hint", t("more_tiles", { n: missing }));
    p.id = "more-tiles";
    out.appendChild(p);
    return;
  }
  const div = el("div", "msg error");
  const key = `err_${state.error.code}`;
  const what = t(key) === key ? t("not_win") : `${t("not_win")} · ${t(key)}`;
  div.append(el("strong", "", what), document.createElement("br"), document.createTextNode(state.error.message));
  div.dataset.code = state.error.code || "";
  out.appendChild(div);
}

function fanRow(f, i) {
  const tr = el("tr", "fan" + (state.highlight === i ? " on" : ""));
  tr.tabIndex = 0;
  const [main, sub] = fanNames(f.id);
  const name = el("td", "name");
  name.append(el("span", "main", main));
  if (sub) name.append(" ", el("span", "sub", sub));
  const detail = detailOf(f);
  if (detail) name.append(el("div", "detail", detail));
  tr.append(name, el("td", "pts", `${f.points}${f.count > 1 ? ` × ${f.count}` : ""}`), el("td", "sum", String(f.points * f.count)));
  tr.addEventListener("click", () => { state.highlight = state.highlight === i ? null : i; renderHand(); renderResult(); });
  return tr;
}

function renderPayments(out, r) {
  const p = el("div", "payments" + (r.meets_minimum ? "" : " void"));
  p.append(el("h3", "", t("payments")));
  // Under 8 fans a declared win is 错和: the declarer pays each other player the rules' amount.
  const pay = RULES.wrong_win_payment;
  const entries = r.meets_minimum ? Object.entries(r.payments) : [["wrong_win", -3 * pay], ["wrong_win_others", pay]];
  if (!r.meets_minimum) p.append(el("p", "wrong-win", t("wrong_win_note", { pay })));
  const ul = el("ul");
  entries.forEach(([k, v]) => {
    if (typeof v !== "number") return;
    const li = el("li");
    li.append(el("span", "", t(`pay_${k}`)), el("strong", v >= 0 ? "plus" : "minus", `${v > 0 ? "+" : ""}${v}`));
    ul.appendChild(li);
  });
  p.appendChild(ul);
  out.appendChild(p);
}

function renderExcluded(out, ex) {
  const b = el("button", "btn small", `${t(state.showExcluded ? "excluded_hide" : "excluded_show")} (${ex.length})`);
  b.type = "button"; b.id = "toggle-excluded";
  b.addEventListener("click", () => { state.showExcluded = !state.showExcluded; renderResult(); });
  out.appendChild(b);
  if (!state.showExcluded) return;
  const ul = el("ul", "excluded");
  ex.forEach((f) => {
    const li = el("li");
    const [main, sub] = fanNames(f.id);
    li.append(el("span", "main", main), " ", el("span", "sub", `${sub ? sub + " · " : ""}${f.points}`), el("div", "detail", excludedReason(f)));
    ul.appendChild(li);
  });
  out.appendChild(ul);
}

export function renderResult() {
  renderTotalBar();
  const out = $("result");
  out.replaceChildren();
  if (state.error) { renderError(out); return; }
  const r = state.result;
  if (!r) { out.appendChild(el("p", "hint", t("empty_hint"))); return; }
  const table = el("table", "fans");
  r.fans.forEach((f, i) => table.appendChild(fanRow(f, i)));
  out.appendChild(table);
  const total = el("div", "total " + (r.meets_minimum ? "ok" : "low"));
  const value = el("strong", "", String(r.total));
  value.id = "total-value";
  total.append(el("span", "", t("total")), value, el("span", "", t("fan_unit")),
    el("em", "", r.meets_minimum ? "✓ " + t("meets") : "✗ " + t("below")));
  out.appendChild(total);
  if (r.payments) renderPayments(out, r);
  if ((r.excluded || []).length) renderExcluded(out, r.excluded);
}

