"""CSV of a game sheet and of rankings, for spreadsheets and paper archives.

A sheet's CSV has one row per hand: the recorded result (result, winner,
discarder, self_drawn, fans, penalties) and then one column per player with
that hand's points. Reading it back replays the results and checks that the
player columns agree, so a hand-edited or typed-in sheet is verified too.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from scorer.game.errors import GameError
from scorer.game.replay import clean_name, replay
from scorer.game.tournament import Standing

RESULT_COLUMNS = (
    "hand",
    "round_wind",
    "dealer",
    "result",
    "winner",
    "discarder",
    "self_drawn",
    "fans",
    "flowers",
    "penalties",
    "tiles",
    "note",
)
TOTAL_ROW = "total"
POINTS_ROW = "table_points"
#: a text cell starting with one of these is a formula to a spreadsheet: it is written
#: with a leading apostrophe (shown as text) and read back without it
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: ... and so is one starting with an apostrophe, so that "'=x" and "=x" stay apart
ESCAPED_START = (*FORMULA_START, "'")


def escape_cell(value: Any) -> Any:
    """A value as a CSV cell a spreadsheet shows as text (numbers stay numbers)."""
    if isinstance(value, str) and value.startswith(ESCAPED_START):
        return "'" + value
    return value


def unescape_cell(text: str) -> str:
    """The text `escape_cell` wrote."""
    if text.startswith("'") and text[1:].startswith(ESCAPED_START):
        return text[1:]
    return text


class _Writer:
    """A csv writer whose text cells are escaped (`escape_cell`)."""

    def __init__(self, buf: io.StringIO) -> None:
        self._csv = csv.writer(buf, lineterminator="\n")

    def writerow(self, values: Any) -> None:
        self._csv.writerow([escape_cell(v) for v in values])


def _format_penalties(penalties: list[dict[str, Any]]) -> str:
    parts = []
    for pen in penalties:
        text = f"{pen['player']}:{pen['kind']}"
        if pen["kind"] == "deduction":
            text += f":{pen['points']}"
        parts.append(text)
    return "; ".join(parts)


def deduction_points(text: str) -> int | None:
    """The points a penalty's text writes, or None where it writes no whole number:
    str.isdigit() also takes superscripts ("²"), which int() refuses, as it refuses
    numbers past 4,300 digits."""
    digits = text.strip()
    if not digits.isdecimal():
        return None
    try:
        return int(digits)
    except ValueError:
        return None


def _parse_penalties(text: str, line: int) -> list[dict[str, Any]]:
    out = []
    for part in filter(None, (p.strip() for p in text.split(";"))):
        pieces = part.split(":")
        if len(pieces) >= 3 and pieces[-2] == "deduction":
            name, kind, points = ":".join(pieces[:-2]), pieces[-2], deduction_points(pieces[-1])
            if points is None:
                raise GameError("bad_csv.points", part=repr(part)).at("line", line)
            out.append({"player": name, "kind": kind, "points": points})
        elif len(pieces) >= 2:
            out.append({"player": ":".join(pieces[:-1]), "kind": pieces[-1]})
        else:
            raise GameError("bad_csv.penalty", part=repr(part)).at("line", line)
    return out


def sheet_to_csv(sheet: dict[str, Any]) -> str:
    """The sheet as CSV text (hand rows, then the 局分 and 标准分 rows)."""
    players = sheet["players"]
    buf = io.StringIO()
    writer = _Writer(buf)
    writer.writerow([*RESULT_COLUMNS, *players])
    for h in sheet["hands"]:
        writer.writerow(
            [
                h["number"],
                h["round_wind"],
                h["dealer"],
                h["result"],
                h.get("winner", ""),
                h.get("discarder", ""),
                "" if h["result"] == "draw" else ("yes" if h["self_drawn"] else "no"),
                h.get("fans", ""),
                h.get("flowers", ""),
                _format_penalties(h.get("penalties", [])),
                h.get("hand", ""),
                h.get("note", ""),
                *(h["delta"][p] for p in players),
            ]
        )
    game_pen = _format_penalties(sheet.get("penalties", []))
    for label, values, pen in (
        (TOTAL_ROW, sheet["scores"], game_pen),
        (POINTS_ROW, sheet["table_points"], ""),
    ):
        row = [label] + [""] * (len(RESULT_COLUMNS) - 1)
        row[RESULT_COLUMNS.index("penalties")] = pen
        writer.writerow([*row, *(values[p] for p in players)])
    return buf.getvalue()


def _yes(value: str, line: int) -> bool:
    v = value.strip().lower()
    if v in ("yes", "true", "1", "y"):
        return True
    if v in ("no", "false", "0", "n", ""):
        return False
    raise GameError("bad_csv.self_drawn", got=repr(value)).at("line", line)


def _int(value: str, line: int, field: str) -> int:
    try:
        return int(value.strip())
    except ValueError:
        raise GameError("bad_csv.number", field=field, got=repr(value)).at("line", line) from None


def _read_hand(row: list[str], col: dict[str, int], line: int) -> dict[str, Any]:
    """One hand row of a sheet's CSV as a recorded result, each filled-in cell kept, so
    that the replay refuses a row that contradicts itself (a self-drawn win with a
    discarder, a draw with a winner) rather than the reading dropping a cell."""
    cell = {name: row[i].strip() for name, i in col.items()}
    hand: dict[str, Any] = {"result": cell["result"]}
    for field in ("winner", "discarder"):
        if cell[field]:
            hand[field] = cell[field]
    if cell["result"] == "win" or cell["self_drawn"]:
        hand["self_drawn"] = _yes(cell["self_drawn"], line)
    for field in ("fans", "flowers"):
        if cell[field] and (cell["result"] == "win" or cell[field] != "0"):  # a draw's 0: none
            hand[field] = _int(cell[field], line, field)
    pens = _parse_penalties(row[col["penalties"]], line)
    if pens:
        hand["penalties"] = pens
    for field, column in (("hand", "tiles"), ("note", "note")):
        if cell[column]:
            hand[field] = cell[column]
    return hand


#: a round wind as a paper sheet may write it
_WINDS = {
    **{w.casefold(): w for w in "ESWN"},
    **dict(zip(("east", "south", "west", "north"), "ESWN", strict=True)),
    **dict(zip("东南西北", "ESWN", strict=True)),
    **dict(zip("東南西北", "ESWN", strict=True)),
}


def _check_points(
    game: dict[str, Any], players: list[str], written: list[tuple[int, list[str]]]
) -> None:
    """Each row's hand number, round wind, dealer and point columns, where filled in,
    must equal the replayed ones."""
    sheet = replay(game)
    for (line_no, cells), h in zip(written, sheet["hands"], strict=True):
        try:
            _check_row(cells, h, players, line_no)
        except GameError as exc:
            raise exc.at("line", line_no) from None


def _check_row(cells: list[str], hand: dict[str, Any], players: list[str], line: int) -> None:
    label, wind, dealer, *points = (c.strip() for c in cells)
    if label and label.removesuffix(".0") != str(hand["number"]):
        raise GameError("bad_csv.hand_number", expected=hand["number"], got=repr(label[:20]))
    if wind and _WINDS.get(wind.casefold(), wind) != hand["round_wind"]:
        raise GameError(
            "sheet_mismatch.seat", field="round_wind", cell=wind, real=hand["round_wind"]
        )
    if dealer and clean_name(dealer) != hand["dealer"]:
        raise GameError("sheet_mismatch.seat", field="dealer", cell=dealer, real=hand["dealer"])
    for player, cell in zip(players, points, strict=False):
        if cell and _int(cell, line, player) != hand["delta"][player]:
            raise GameError("sheet_mismatch", player=player, cell=cell, delta=hand["delta"][player])


def csv_to_game(text: str, check: bool = True) -> dict[str, Any]:
    """Read a sheet's CSV back into a game input for `replay`.

    With `check`, the players' point columns (where filled in) must equal
    the replayed ones, so arithmetic mistakes on a paper sheet are caught.
    """
    try:
        rows = [[unescape_cell(c) for c in r] for r in csv.reader(io.StringIO(text))]
    except csv.Error as exc:
        raise GameError("bad_csv.read", detail=str(exc)[:100]) from None
    if not rows or tuple(c.strip() for c in rows[0][: len(RESULT_COLUMNS)]) != RESULT_COLUMNS:
        raise GameError("bad_csv.header", columns=",".join(RESULT_COLUMNS))
    header = rows[0]
    players = [clean_name(p) for p in header[len(RESULT_COLUMNS) :]]  # as the replay keeps them
    col = {name: i for i, name in enumerate(RESULT_COLUMNS)}
    hands: list[dict[str, Any]] = []
    written: list[tuple[int, list[str]]] = []
    game_penalties: list[dict[str, Any]] = []
    for line_no, row in enumerate(rows[1:], 2):
        if not any(c.strip() for c in row):
            continue
        row = row + [""] * (len(header) - len(row))
        label = row[0].strip()
        if label == TOTAL_ROW:
            game_penalties = _parse_penalties(row[col["penalties"]], line_no)
        elif label != POINTS_ROW:
            hands.append(_read_hand(row, col, line_no))
            seats = [label, row[col["round_wind"]], row[col["dealer"]]]
            points = row[len(RESULT_COLUMNS) : len(RESULT_COLUMNS) + len(players)]
            written.append((line_no, seats + points))
    game: dict[str, Any] = {"players": players, "hands": hands}
    if game_penalties:
        game["penalties"] = game_penalties
    if check:
        _check_points(game, players, written)
    return game


RANKING_COLUMNS = ("rank", "name", "team", "table_points", "scores", "best", "games")


def rankings_to_csv(standings: list[Standing]) -> str:
    """A ranking (players or teams) as CSV."""
    buf = io.StringIO()
    writer = _Writer(buf)
    writer.writerow(RANKING_COLUMNS)
    for s in standings:
        row = s.to_json()
        writer.writerow([row[c] for c in RANKING_COLUMNS])
    return buf.getvalue()


__all__ = ["csv_to_game", "deduction_points", "rankings_to_csv", "sheet_to_csv"]
