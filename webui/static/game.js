// Game sheet pages: new game form, record/correct hands, live sheet table.
"use strict";

const MCRGame = (() => {
  const WIND_ZH = { E: "东", S: "南", W: "西", N: "北" };
  const KIND_ZH = { wrong_win: "错和", false_win: "诈和", deduction: "罚分" };

  function el(tag, attrs = {}, text = "") {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== "") node.textContent = text;
    return node;
  }

  async function send(method, url, body) {
    const res = await fetch(url, {
      method,
      headers: { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    if (!res.ok) {
      const msg = data && data.error ? data.error.message : `HTTP ${res.status}`;
      throw new Error(msg);
    }
    return data;
  }

  function initNewGame(form, url) {
    const error = document.getElementById("new-error");
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
        const sheet = await send("POST", url, body);
        window.location.href = `${window.location.pathname.replace(/\/$/, "")}/${sheet.id}`;
      } catch (e) {
        error.textContent = e.message;
      }
    });
  }

  function describe(h) {
    let text;
    if (h.result === "draw") text = "荒牌 draw";
    else if (h.self_drawn) text = `${h.winner} ${h.fans} 自摸`;
    else text = `${h.winner} ${h.fans} ← ${h.discarder}`;
    for (const p of h.penalties || []) {
      text += `; ${p.player} ${KIND_ZH[p.kind]}${p.kind === "deduction" ? " " + p.points : ""}`;
    }
    return text;
  }

  function points(x) { return String(Number(Number(x).toFixed(2))); }

  function signed(n) { return n > 0 ? `+${n}` : String(n); }

  function initSheet(initial, api) {
    let sheet = initial;
    const state = { editing: null, result: "win", winner: null, discarder: null, penalties: [] };
    const $ = (id) => document.getElementById(id);
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

    function renderTable() {
      const table = $("sheet-table");
      table.replaceChildren();
      const head = el("tr");
      for (const t of ["#", "圈", "庄 Dealer", "结果 Result"]) head.append(el("th", {}, t));
      for (const p of sheet.players) head.append(el("th", { class: "g-num" }, p));
      const thead = el("thead");
      thead.append(head);
      table.append(thead);
      const body = el("tbody");
      for (const h of sheet.hands) {
        const tr = el("tr", { class: "g-hand", tabindex: "0", "data-number": h.number });
        tr.append(el("td", {}, String(h.number)), el("td", {}, WIND_ZH[h.round_wind]),
          el("td", {}, h.dealer), el("td", {}, describe(h)));
        for (const p of sheet.players) {
          tr.append(el("td", { class: "g-num" }, h.delta[p] ? signed(h.delta[p]) : "0"));
        }
        if (state.editing === h.number) tr.classList.add("g-editing");
        tr.addEventListener("click", () => startEdit(h.number));
        body.append(tr);
      }
      const total = el("tr", { class: "g-total" });
      total.append(el("td", { colspan: "4" }, "局分 Score"));
      for (const p of sheet.players) total.append(el("td", { class: "g-num" }, String(sheet.scores[p])));
      const tpRow = el("tr", { class: "g-total" });
      tpRow.append(el("td", { colspan: "4" }, "标准分 Table points"));
      for (const p of sheet.players) tpRow.append(el("td", { class: "g-num" }, points(sheet.table_points[p])));
      body.append(total, tpRow);
      table.append(body);
    }

    function renderNext() {
      const info = $("next-info");
      const winds = seatWinds();
      if (state.editing) {
        const h = sheet.hands[state.editing - 1];
        info.textContent = `修改第 ${h.number} 盘 · Correcting hand ${h.number} (${WIND_ZH[h.round_wind]}风圈, 庄 ${h.dealer})`;
      } else if (sheet.next) {
        const n = sheet.next;
        info.textContent = `第 ${n.number} 盘 · Hand ${n.number}: ${WIND_ZH[n.round_wind]}风圈, 庄 dealer ${n.dealer}`;
      } else {
        info.textContent = "本局结束 · Game complete (16 hands)";
      }
      $("submit").disabled = !state.editing && !sheet.next;
      $("submit").textContent = state.editing ? `保存第 ${state.editing} 盘 Save` : "记录 Record";
      $("cancel-edit").hidden = !state.editing;
      form.querySelectorAll("[data-result]").forEach((b) =>
        b.classList.toggle("g-on", b.dataset.result === state.result));
      $("win-fields").hidden = state.result !== "win";
      const wb = $("winner-buttons");
      wb.replaceChildren();
      for (const p of sheet.players) {
        const b = el("button", { type: "button", class: "g-btn g-player" },
          `${p} ${WIND_ZH[winds[p]] || ""}`);
        b.classList.toggle("g-on", state.winner === p);
        b.addEventListener("click", () => {
          state.winner = p;
          if (state.discarder === p) state.discarder = null;
          renderNext();
        });
        wb.append(b);
      }
      const db = $("discarder-buttons");
      db.replaceChildren();
      const self = el("button", { type: "button", class: "g-btn g-player" }, "自摸 Self-drawn");
      self.classList.toggle("g-on", state.discarder === null);
      self.addEventListener("click", () => { state.discarder = null; renderNext(); });
      db.append(self);
      for (const p of sheet.players) {
        if (p === state.winner) continue;
        const b = el("button", { type: "button", class: "g-btn g-player" }, p);
        b.classList.toggle("g-on", state.discarder === p);
        b.addEventListener("click", () => { state.discarder = p; renderNext(); });
        db.append(b);
      }
      const pp = $("pen-player");
      const keep = pp.value;
      pp.replaceChildren(...sheet.players.map((p) => el("option", { value: p }, p)));
      if (keep) pp.value = keep;
      const list = $("penalties");
      list.replaceChildren();
      state.penalties.forEach((pen, i) => {
        const row = el("div", { class: "g-row" });
        row.append(el("span", {}, `${pen.player} ${KIND_ZH[pen.kind]}${pen.points ? " " + pen.points : ""}`));
        const x = el("button", { type: "button", class: "g-btn g-chip" }, "✕");
        x.addEventListener("click", () => { state.penalties.splice(i, 1); renderNext(); });
        row.append(x);
        list.append(row);
      });
    }

    function render() { renderTable(); renderNext(); }

    function reset() {
      Object.assign(state, { editing: null, result: "win", winner: null, discarder: null, penalties: [], requestId: null });
      fans.value = 8;
      error.textContent = "";
    }

    function startEdit(number) {
      const h = sheet.hands[number - 1];
      Object.assign(state, {
        editing: number, result: h.result, winner: h.winner || null,
        discarder: h.result === "win" && !h.self_drawn ? h.discarder : null,
        penalties: (h.penalties || []).map((p) => ({ ...p })),
      });
      fans.value = h.fans || 8;
      error.textContent = "";
      render();
      form.scrollIntoView({ behavior: "smooth" });
    }

    form.querySelectorAll("[data-result]").forEach((b) => b.addEventListener("click", () => {
      state.result = b.dataset.result; renderNext();
    }));
    form.querySelectorAll("[data-fans]").forEach((b) => b.addEventListener("click", () => {
      fans.value = b.dataset.fans;
    }));
    form.querySelectorAll("[data-fans-step]").forEach((b) => b.addEventListener("click", () => {
      fans.value = Math.max(8, (parseInt(fans.value, 10) || 8) + parseInt(b.dataset.fansStep, 10));
    }));
    $("pen-add").addEventListener("click", () => {
      const pen = { player: $("pen-player").value, kind: $("pen-kind").value };
      if (pen.kind === "deduction") pen.points = parseInt($("pen-points").value, 10) || 0;
      state.penalties.push(pen);
      renderNext();
    });
    $("cancel-edit").addEventListener("click", () => { reset(); render(); });
    $("undo").addEventListener("click", async () => {
      if (!sheet.hands.length) return;
      if (!window.confirm("撤销上一盘？ Remove the last hand?")) return;
      try {
        const data = await send("POST", `${api}/undo`, { who: who.value });
        sheet = data.sheet; reset(); render();
      } catch (e) { error.textContent = e.message; }
    });
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const body = { result: state.result, who: who.value };
      if (state.result === "win") {
        if (!state.winner) { error.textContent = "请选和牌者 · Choose the winner"; return; }
        body.winner = state.winner;
        body.self_drawn = state.discarder === null;
        if (state.discarder) body.discarder = state.discarder;
        body.fans = parseInt(fans.value, 10);
      }
      if (state.penalties.length) body.penalties = state.penalties;
      $("submit").disabled = true;
      try {
        let data;
        if (state.editing) {
          data = await send("PUT", `${api}/hands/${state.editing}`, body);
        } else {
          body.expected_number = sheet.next.number;
          // one id per hand entered: a retried tap returns the hand already recorded
          state.requestId = state.requestId || `${sheet.next.number}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
          body.request_id = state.requestId;
          data = await send("POST", `${api}/hands`, body);
        }
        sheet = data.sheet; reset(); render();
      } catch (e) {
        error.textContent = e.message;
        $("submit").disabled = false;
      }
    });

    // other devices may record hands too: keep the sheet current
    setInterval(async () => {
      if (document.hidden || state.editing) return;
      try {
        const fresh = await send("GET", api);
        if (JSON.stringify(fresh.hands) !== JSON.stringify(sheet.hands)) { sheet = fresh; render(); }
      } catch (e) { /* offline for a moment: try again next tick */ }
    }, 5000);

    render();
  }

  return { initNewGame, initSheet };
})();
