// The referee check: the claimed fans and/or total against the real score.
import { postJSON } from "../api.js";
import { fanNames, isChinese, t } from "../i18n.js";
import { $, scoreRequest } from "./state.js";

function diffLine(key, f) {
  const [main, sub] = fanNames(f.id);
  const name = sub ? `${main} (${sub})` : main;
  const n = key === "miscounted" ? ` — ${t("claimed")} ×${f.claimed}, ${t("actual")} ×${f.count}` : ` ×${f.count}`;
  const reason = f.reason && !isChinese() ? ` — ${f.reason}` : "";
  return `${name} ${f.points}${n}${reason}`;
}

async function runCheck() {
  const out = $("check-result");
  const claimText = $("claim").value.trim();
  const totalText = $("claim-total").value.trim();
  const body = { request: scoreRequest() };
  if (claimText) body.claim = claimText;
  if (totalText) body.total = Number(totalText);
  const data = await postJSON("/api/check", body);
  out.replaceChildren();
  if (data.error) {
    const div = document.createElement("div");
    div.className = "msg error"; div.textContent = data.error.message;
    out.appendChild(div);
    return;
  }
  const head = document.createElement("div");
  head.className = "msg " + (data.correct ? "good" : "error");
  const verdict = document.createElement("strong");
  verdict.textContent = data.correct ? "✓ " + t("correct") : "✗ " + t("wrong");
  const total = document.createElement("b");
  total.textContent = data.total;
  head.append(verdict, ` ${t("correct_total")}: `, total, ` · ${t("claimed_total_is")}: ${data.claimed_total}`);
  out.appendChild(head);
  for (const key of ["missing", "extra", "miscounted"]) {
    if (!data[key].length) continue;
    const h = document.createElement("h3"); h.textContent = t(key); out.appendChild(h);
    const ul = document.createElement("ul"); ul.className = `diff ${key}`;
    data[key].forEach((f) => { const li = document.createElement("li"); li.textContent = diffLine(key, f); ul.appendChild(li); });
    out.appendChild(ul);
  }
}

export function initCheck() {
  $("check-btn").addEventListener("click", runCheck);
}
