"""Replay a game's results into its score sheet (CONTRACTS.md "Game sheet replay").

The sheet is always recomputed from the recorded results, never stored,
so an edited hand can never leave stale totals behind and a paper sheet
can be checked by typing in only the results.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from scorer.game import rules
from scorer.game.errors import GameError

#: text copied to the sheet as it is, for people reading it (the winning hand
#: in the notation, a referee's note)
_TEXT_FIELDS = ("hand", "note")
_TEXT_MAX = 500
_NAME_MAX = 64
#: longest tournament name
TOURNAMENT_MAX = 100
#: Unicode's default-ignorable code points outside category Cf (fillers, variation
#: selectors, tags...): they draw nothing, so a name holding one looks like one without
_IGNORABLE = (
    (0x034F, 0x034F),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def validate_players(players: Any, stored: bool = False) -> list[str]:
    """Four distinct names, each as `check_name` keeps it.

    `stored`: names a database already holds are kept as they were accepted, so that a
    game recorded before names were normalised still reads.
    """
    if not isinstance(players, list) or len(players) != 4:
        raise GameError("bad_players")
    if stored and all(isinstance(name, str) for name in players):
        names = list(players)
    else:
        names = [check_name(name) for name in players]
    if len(set(names)) != 4:
        dup = sorted({p for p in names if names.count(p) > 1})
        raise GameError("duplicate_player", names=", ".join(dup))
    return names


def clean_name(value: Any) -> Any:
    """A name as it is kept: NFC, every kind of space (no-break, thin, ideographic, a
    blank braille cell) one ASCII space, runs of them one, none around it, and no
    variation selector (it picks a glyph's look: "❤️" is "❤"), so that two names that
    look the same are the same; a value not text is left as it is."""
    if not isinstance(value, str):
        return value
    text = unicodedata.normalize("NFC", value)
    folded = "".join(" " if blank(c) else c for c in text if not selector(c))
    return " ".join(part for part in folded.split(" ") if part).strip()


def check_name(name: Any) -> str:
    """A player's name, cleaned (`clean_name`); refused when it shows nothing or is long,
    or holds ';' or a control or line-separating character (names head CSV columns, which
    a spreadsheet would not give back), or an invisible character (a zero-width space, a
    direction override or a filler makes two names that look the same differ)."""
    if not isinstance(name, str):
        raise GameError("bad_players.empty", got=repr(name))
    clean = clean_name(name)
    if len(clean) > _NAME_MAX or any(c == ";" or unprintable(c) for c in name):
        raise GameError("bad_players.text", name=repr(name))
    if any(invisible(c) for c in clean):
        raise GameError("bad_players.format", name=repr(name))
    if not clean:
        raise GameError("bad_players.empty", got=repr(name))
    return clean


def _label(value: Any, limit: int) -> str | None:
    """A team's or tournament's name as kept (`clean_name`; empty: none), or None where it
    cannot be one: not text, longer than `limit`, or holding a control or invisible
    character (two names that look the same must be one team, one tournament)."""
    if not isinstance(value, str) or any(unprintable(c) for c in value):
        return None
    clean = clean_name(value)
    return clean if len(clean) <= limit and not any(invisible(c) for c in clean) else None


def team_name(team: Any) -> str | None:
    """A team's name as kept, or None where it cannot be one (see `_label`)."""
    return _label(team, _NAME_MAX)


def tournament_name(tournament: Any) -> str:
    """A tournament's name as kept ("": none), cleaned and checked as a team's is, so
    "cup " is the tournament "cup" and keeps its teams; else GameError."""
    clean = _label(tournament, TOURNAMENT_MAX)
    if clean is None:
        raise GameError("bad_tournament.name", max=TOURNAMENT_MAX)
    return clean


def unprintable(char: str) -> bool:
    """A control or line-separating character (or half a surrogate pair)."""
    return unicodedata.category(char) in ("Cc", "Zl", "Zp", "Cs")


def invisible(char: str) -> bool:
    """A character that draws nothing: a formatting character (zero-width spaces and
    joiners, direction marks and overrides), another default-ignorable one (fillers,
    variation selectors, tags) or a noncharacter (U+FFFF and the like: never a letter)."""
    if unicodedata.category(char) == "Cf":
        return True
    code = ord(char)
    if 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE:
        return True
    return any(low <= code <= high for low, high in _IGNORABLE)


def harmful(char: str) -> bool:
    """A character that does harm where free text is shown: a control character (a
    terminal runs escape codes), a line or paragraph separator, half a surrogate pair, or
    a bidi embedding, override or isolate (it reorders the text around it). Joiners and
    variation selectors are left alone: emoji and Persian need them."""
    return unprintable(char) or 0x202A <= ord(char) <= 0x202E or 0x2066 <= ord(char) <= 0x2069


def selector(char: str) -> bool:
    """A variation selector: it chooses how the character before it is drawn."""
    code = ord(char)
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF


def blank(char: str) -> bool:
    """A character drawn as an empty space: a space of any width, or a blank braille cell."""
    return char == "\u2800" or unicodedata.category(char) == "Zs"


def _player(players: list[str], value: Any, field: str) -> str:
    """The player `value` names: as stored, or as `clean_name` keeps a name."""
    if value is None:
        raise GameError("missing_field", field=field)
    if value in players:
        return value
    name = clean_name(value)
    if name not in players:
        raise GameError("unknown_player", field=field, name=repr(value), players=players)
    return name


def _penalties(players: list[str], raw: Any, whole_game: bool = False) -> list[dict[str, Any]]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise GameError("bad_penalty")
    if len(raw) > rules.MAX_PENALTIES:
        code = "bad_penalty.too_many_game" if whole_game else "bad_penalty.too_many"
        raise GameError(code, max=rules.MAX_PENALTIES)
    out = []
    for i, pen in enumerate(raw, 1):
        try:
            out.append(normalize_penalty(players, pen))
        except GameError as exc:
            raise exc.at("penalty", i) from None
    return out


def normalize_penalty(players: list[str], pen: Any) -> dict[str, Any]:
    """One penalty checked and in canonical form (`player`, `kind`, `points` for a
    deduction): what is stored, whatever else the request carried."""
    if not isinstance(pen, dict):
        raise GameError("bad_penalty.object")
    player = _player(players, pen.get("player"), "player")
    kind = pen.get("kind")
    if kind is None:
        raise GameError("missing_field", field="kind")
    if kind not in rules.PENALTY_KINDS:
        raise GameError("bad_penalty.kind", kinds=", ".join(rules.PENALTY_KINDS), got=repr(kind))
    entry: dict[str, Any] = {"player": player, "kind": kind}
    if kind == "deduction":  # the rules fix the others' payments: a sheet's points are moot
        entry["points"] = _deduction_points(pen.get("points"))
    return entry


def _deduction_points(points: Any) -> int:
    """A deduction's points: a whole number 1-MAX_PENALTY_POINTS."""
    if points is None:
        raise GameError("missing_field.points")
    if isinstance(points, bool) or not isinstance(points, int) or points <= 0:
        raise GameError("bad_penalty.points")
    if points > rules.MAX_PENALTY_POINTS:
        raise GameError(
            "out_of_range", field="points", low=1, high=rules.MAX_PENALTY_POINTS, got=points
        )
    return points


def normalize_hand(players: list[str], raw: Any, number: int) -> dict[str, Any]:
    """Check one hand's result and return it in canonical form; errors name the hand."""
    try:
        return _normalize_hand(players, raw)
    except GameError as exc:
        raise exc.at("hand", number) from None


def _normalize_hand(players: list[str], raw: Any) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise GameError("bad_hand")
    result = raw.get("result")
    if result is None:
        raise GameError("missing_field.result")
    if result not in ("win", "draw"):
        raise GameError("bad_result", got=repr(result))
    hand: dict[str, Any] = {"result": result}
    if result == "win":
        hand.update(_win(players, raw))
    else:
        for field in ("winner", "discarder", "fans"):
            if raw.get(field) is not None:
                raise GameError("bad_hand.draw_field", field=field)
        if raw.get("self_drawn"):
            raise GameError("bad_hand.draw_field", field="self_drawn")
    penalties = _penalties(players, raw.get("penalties"))
    for pen in penalties:
        # 第十四条 六: a wrong or false win stops that player winning the hand
        if pen["kind"] != "deduction" and result == "win" and pen["player"] == hand["winner"]:
            raise GameError("bad_hand.penalized_winner", player=pen["player"], kind=pen["kind"])
    if penalties:
        hand["penalties"] = penalties
    hand.update(_texts(raw))
    if raw.get("flowers"):
        if result != "win":
            raise GameError("bad_hand.draw_flowers")
        hand["flowers"] = raw["flowers"]
    return hand


def _win(players: list[str], raw: dict[str, Any]) -> dict[str, Any]:
    """The winner, the way of winning and the fans of a won hand, checked."""
    winner = _player(players, raw.get("winner"), "winner")
    self_drawn = raw.get("self_drawn", False)
    if not isinstance(self_drawn, bool):
        raise GameError("bad_hand.self_drawn")
    discarder = raw.get("discarder")
    if self_drawn and discarder is not None:
        raise GameError("bad_hand.discarder_self_drawn")
    if not self_drawn:
        if discarder is None:
            raise GameError("missing_field.discarder")
        discarder = _player(players, discarder, "discarder")
        if discarder == winner:
            raise GameError("bad_hand.own_discard")
    if raw.get("fans") is None:
        raise GameError("missing_field.fans")
    rules.check_fans(raw["fans"], raw.get("flowers", 0) or 0)
    won: dict[str, Any] = {"winner": winner, "self_drawn": self_drawn, "fans": raw["fans"]}
    if not self_drawn:
        won["discarder"] = discarder
    return won


def _texts(raw: dict[str, Any]) -> dict[str, str]:
    """The hand's text fields (notation, note), each bounded."""
    out = {}
    for field in _TEXT_FIELDS:
        value = raw.get(field)
        if value is None:
            continue
        if not isinstance(value, str) or len(value) > _TEXT_MAX:
            raise GameError("bad_hand.text", field=field, max=_TEXT_MAX)
        out[field] = value
    return out


def normalize_game(game: Any, stored: bool = False) -> dict[str, Any]:
    """Check a whole game input and return it in canonical form (`stored`: its players
    are a database's, see `validate_players`)."""
    if not isinstance(game, dict):
        raise GameError("bad_game")
    if "players" not in game:
        raise GameError("missing_field", field="players")
    players = validate_players(game["players"], stored)
    hands = game.get("hands", [])
    if not isinstance(hands, list):
        raise GameError("bad_game.hands")
    if len(hands) > rules.HANDS_PER_GAME:
        raise GameError("too_many_hands", max=rules.HANDS_PER_GAME, got=len(hands))
    out: dict[str, Any] = {
        "players": players,
        "hands": [normalize_hand(players, h, i) for i, h in enumerate(hands, 1)],
    }
    try:
        extra = _penalties(players, game.get("penalties"), whole_game=True)
    except GameError as exc:
        raise exc.at("game", 0) from None
    if extra:
        out["penalties"] = extra
    return out


def hand_delta(players: list[str], hand: dict[str, Any]) -> dict[str, int]:
    """Points each player won or lost in one (normalized) hand."""
    delta = {p: 0 for p in players}
    if hand["result"] == "win":
        won = rules.win_payments(
            players, hand["winner"], hand["fans"], hand["self_drawn"], hand.get("discarder")
        )
        for p in players:
            delta[p] += won[p]
    for pen in hand.get("penalties", []):
        moved = rules.penalty_payments(players, pen["player"], pen["kind"], pen.get("points", 0))
        for p in players:
            delta[p] += moved[p]
    return delta


def replay(game: dict, stored: bool = False) -> dict:
    """The score sheet of a game: per-hand seating and deltas, 局分 and 标准分.

    Besides the contract's fields each hand carries `number`, its result
    fields and the running `totals`; an optional top-level `penalties` list
    (e.g. lateness, 第十三条 二(一)) is taken off the 局分 at the end.
    `stored`: the game is read from the database, its names kept as stored.
    """
    norm = normalize_game(game, stored)
    players = norm["players"]
    totals = {p: rules.START_SCORE for p in players}
    sheet_hands = []
    for i, hand in enumerate(norm["hands"]):
        seat = rules.seating(players, i)
        delta = hand_delta(players, hand)
        for p in players:
            totals[p] += delta[p]
        sheet_hands.append(
            {
                "number": i + 1,
                **hand,
                "round_wind": seat.round_wind,
                "dealer": seat.dealer,
                "seat_winds": seat.seat_winds,
                "delta": delta,
                "totals": dict(totals),
            }
        )
    game_penalties = norm.get("penalties", [])
    for pen in game_penalties:
        moved = rules.penalty_payments(players, pen["player"], pen["kind"], pen.get("points", 0))
        for p in players:
            totals[p] += moved[p]
    points = rules.table_points(totals)
    played = len(sheet_hands)
    out: dict[str, Any] = {
        "players": players,
        "hands": sheet_hands,
        "scores": totals,
        "table_points": {p: rules.number(points[p]) for p in players},
        "complete": played == rules.HANDS_PER_GAME,
    }
    if game_penalties:
        out["penalties"] = game_penalties
    if played < rules.HANDS_PER_GAME:
        seat = rules.seating(players, played)
        out["next"] = {
            "number": played + 1,
            "round_wind": seat.round_wind,
            "dealer": seat.dealer,
            "seat_winds": seat.seat_winds,
        }
    return out
