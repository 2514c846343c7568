"""Plain-text tables of a sheet and a ranking for the terminal.

Widths count East Asian wide characters as two columns so Chinese names
line up.
"""

from __future__ import annotations

from typing import Any

from scorer.columns import display_width, pad
from scorer.game.rules import penalty_payments

_WIND_ZH = {"E": "东", "S": "南", "W": "西", "N": "北"}
_KIND_ZH = {"wrong_win": "错和", "false_win": "诈和", "deduction": "罚分"}


def table(rows: list[list[str]], right: set[int] | None = None) -> str:
    """Columns padded to their widest cell; `right` lists right-aligned columns."""
    right = right or set()
    widths = [max(display_width(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for r in rows:
        cells = [pad(c, widths[i], i in right) for i, c in enumerate(r)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def describe(hand: dict[str, Any]) -> str:
    """One hand's result in a few words: `Ann 24 self-drawn`, `Bo 8 from Cy`, `draw`."""
    if hand["result"] == "draw":
        text = "draw"
    elif hand["self_drawn"]:
        text = f"{hand['winner']} {hand['fans']} self-drawn"
    else:
        text = f"{hand['winner']} {hand['fans']} from {hand['discarder']}"
    if hand.get("penalties"):
        text += "; " + penalties_text(hand["penalties"])
    return text


def penalties_text(penalties: list[dict[str, Any]]) -> str:
    """`Di 错和; Cy 罚分 20`."""
    parts = []
    for pen in penalties:
        extra = f" {pen['points']}" if pen["kind"] == "deduction" else ""
        parts.append(f"{pen['player']} {_KIND_ZH[pen['kind']]}{extra}")
    return "; ".join(parts)


def sheet_text(sheet: dict[str, Any]) -> str:
    """The sheet as a table: one line per hand, then 局分 and 标准分."""
    players = sheet["players"]
    rows = [["#", "圈", "庄", "result", *players]]
    for h in sheet["hands"]:
        rows.append(
            [
                str(h["number"]),
                _WIND_ZH[h["round_wind"]],
                h["dealer"],
                describe(h),
                *(f"{h['delta'][p]:+d}" if h["delta"][p] else "0" for p in players),
            ]
        )
    if sheet.get("penalties"):
        moved = {p: 0 for p in players}
        for pen in sheet["penalties"]:
            paid = penalty_payments(players, pen["player"], pen["kind"], pen.get("points", 0))
            moved = {p: moved[p] + paid[p] for p in players}
        rows.append(
            [
                "",
                "",
                "",
                "game: " + penalties_text(sheet["penalties"]),
                *(f"{moved[p]:+d}" if moved[p] else "0" for p in players),
            ]
        )
    rows.append(["", "", "", "局分", *(str(sheet["scores"][p]) for p in players)])
    rows.append(["", "", "", "标准分", *(f"{sheet['table_points'][p]:g}" for p in players)])
    out = table(rows, right={0} | set(range(4, 4 + len(players))))
    nxt = sheet.get("next")
    if nxt:
        winds = ", ".join(f"{p} {_WIND_ZH[w]}" for p, w in nxt["seat_winds"].items())
        out += (
            f"\nnext: hand {nxt['number']}, {_WIND_ZH[nxt['round_wind']]}风圈, "
            f"dealer {nxt['dealer']} ({winds})"
        )
    else:
        out += "\ngame complete"
    return out


def ranking_text(standings: list[dict[str, Any]]) -> str:
    """A ranking (rows of `Standing.to_json()`) as a table."""
    rows = [["rank", "name", "team", "标准分", "局分", "best", "games"]]
    for j in standings:
        rows.append(
            [
                str(j["rank"]),
                j["name"],
                j["team"],
                f"{j['table_points']:g}",
                str(j["scores"]),
                f"{j['best']:g}",
                str(j["games"]),
            ]
        )
    return table(rows, right={0, 3, 4, 5, 6})
