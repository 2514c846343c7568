"""Plain-text tables of a sheet and a ranking for the terminal.

Widths count East Asian wide characters as two columns so Chinese names
line up. Text from the database is printed through `shown`: whatever a
database holds (one filled by another program included), a name cannot
clear the screen, set the window title or write to the clipboard.
"""

from __future__ import annotations

import json
from typing import Any

from scorer.columns import display_width, pad
from scorer.game.replay import invisible, unprintable
from scorer.game.rules import penalty_payments

_WIND_ZH = {"E": "东", "S": "南", "W": "西", "N": "北"}
_KIND_ZH = {"wrong_win": "错和", "false_win": "诈和", "deduction": "罚分"}


#: invisible characters free text keeps (emoji sequences and Persian need them): a
#: terminal draws them as part of the text, so they are printed, not escaped
_JOINERS = frozenset({"\u200c", "\u200d", *map(chr, range(0xFE00, 0xFE10))})


def _hidden(char: str) -> bool:
    """A character a terminal would run or not draw: control, separator, invisible (but
    the joiners and variation selectors that free text keeps)."""
    return unprintable(char) or (invisible(char) and char not in _JOINERS)


def shown(value: Any) -> str:
    """A text as a terminal may print it: each control or invisible character written as
    its escape (`\\x1b`, `\\u202e`), the rest as it is."""
    text = str(value)
    if not any(_hidden(c) for c in text):
        return text
    return "".join(c.encode("unicode_escape").decode("ascii") if _hidden(c) else c for c in text)


def shown_json(obj: Any) -> str:
    """`obj` as indented JSON whose strings hold no raw control or invisible character
    (JSON escapes only those below U+0020 itself): each is a `\\uXXXX` escape."""
    out = json.dumps(obj, ensure_ascii=False, indent=2)
    return "".join(_json_escape(c) if c != "\n" and _hidden(c) else c for c in out)


def _json_escape(char: str) -> str:
    """`char` as a JSON escape (a surrogate pair above U+FFFF)."""
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def table(rows: list[list[str]], right: set[int] | None = None) -> str:
    """Columns padded to their widest cell (each `shown`); `right` lists right-aligned
    columns."""
    right = right or set()
    rows = [[shown(c) for c in r] for r in rows]
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
    return shown(text)


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
        out += "\n" + shown(
            f"next: hand {nxt['number']}, {_WIND_ZH[nxt['round_wind']]}风圈, "
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
