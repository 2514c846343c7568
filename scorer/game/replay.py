"""Replay a game's results into its score sheet (CONTRACTS.md "Game sheet replay").

The sheet is always recomputed from the recorded results, never stored,
so an edited hand can never leave stale totals behind and a paper sheet
can be checked by typing in only the results.
"""

from __future__ import annotations

from typing import Any

from scorer.errors import ScoreError
from scorer.game import rules

#: text copied to the sheet as it is, for people reading it (the winning hand
#: in the notation, a referee's note)
_TEXT_FIELDS = ("hand", "note")
_TEXT_MAX = 500
_NAME_MAX = 64


def _fail(code: str, message: str) -> ScoreError:
    return ScoreError(code, message)


def validate_players(players: Any) -> list[str]:
    """Four distinct, non-empty names (they head CSV columns, so no ';' or newlines)."""
    if not isinstance(players, list) or len(players) != 4:
        raise _fail("bad_players", "players must be a list of the 4 names in seat order E, S, W, N")
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise _fail("bad_players", f"player names must be non-empty text, got {name!r}")
        if len(name) > _NAME_MAX or any(c in name for c in ";\n\r\t"):
            raise _fail(
                "bad_players",
                f"player name {name!r} is too long or contains ';', a tab or a line break",
            )
    if len(set(players)) != 4:
        dup = sorted({p for p in players if players.count(p) > 1})
        raise _fail("duplicate_player", f"duplicate player name(s): {', '.join(dup)}")
    return list(players)


def _player(players: list[str], value: Any, field: str, where: str) -> str:
    if value is None:
        raise _fail("missing_field", f"{where}: '{field}' is required")
    if value not in players:
        raise _fail("unknown_player", f"{where}: {field} {value!r} is not one of {players}")
    return value


def _penalties(players: list[str], raw: Any, where: str) -> list[dict[str, Any]]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise _fail("bad_penalty", f"{where}: penalties must be a list")
    out = []
    for i, pen in enumerate(raw, 1):
        at = f"{where}, penalty {i}"
        if not isinstance(pen, dict):
            raise _fail("bad_penalty", f"{at}: must be an object with player and kind")
        player = _player(players, pen.get("player"), "player", at)
        kind = pen.get("kind")
        if kind is None:
            raise _fail("missing_field", f"{at}: 'kind' is required")
        if kind not in rules.PENALTY_KINDS:
            raise _fail(
                "bad_penalty",
                f"{at}: kind must be one of {', '.join(rules.PENALTY_KINDS)}, got {kind!r}",
            )
        entry: dict[str, Any] = {"player": player, "kind": kind}
        if kind == "deduction":
            points = pen.get("points")
            if points is None:
                raise _fail("missing_field", f"{at}: a deduction needs 'points'")
            if isinstance(points, bool) or not isinstance(points, int) or points <= 0:
                raise _fail("bad_penalty", f"{at}: points must be a positive whole number")
            entry["points"] = points
        out.append(entry)
    return out


def normalize_hand(players: list[str], raw: Any, number: int) -> dict[str, Any]:
    """Check one hand's result and return it in canonical form."""
    where = f"hand {number}"
    if not isinstance(raw, dict):
        raise _fail("bad_hand", f"{where}: must be an object")
    result = raw.get("result")
    if result is None:
        raise _fail("missing_field", f"{where}: 'result' is required ('win' or 'draw')")
    if result not in ("win", "draw"):
        raise _fail("bad_result", f"{where}: result must be 'win' or 'draw', got {result!r}")
    hand: dict[str, Any] = {"result": result}
    if result == "win":
        winner = _player(players, raw.get("winner"), "winner", where)
        self_drawn = raw.get("self_drawn", False)
        if not isinstance(self_drawn, bool):
            raise _fail("bad_hand", f"{where}: self_drawn must be true or false")
        discarder = raw.get("discarder")
        if self_drawn and discarder is not None:
            raise _fail("bad_hand", f"{where}: a self-drawn win has no discarder")
        if not self_drawn:
            if discarder is None:
                raise _fail(
                    "missing_field",
                    f"{where}: a win on a discard needs 'discarder' (or self_drawn: true)",
                )
            discarder = _player(players, discarder, "discarder", where)
            if discarder == winner:
                raise _fail("bad_hand", f"{where}: the winner cannot be the discarder")
        if raw.get("fans") is None:
            raise _fail("missing_field", f"{where}: 'fans' is required for a win")
        try:
            rules.check_fans(raw["fans"], raw.get("flowers", 0) or 0)
        except ScoreError as exc:
            raise _fail(exc.code, f"{where}: {exc.message}") from None
        hand.update(winner=winner, self_drawn=self_drawn, fans=raw["fans"])
        if not self_drawn:
            hand["discarder"] = discarder
    else:
        for field in ("winner", "discarder", "fans"):
            if raw.get(field) is not None:
                raise _fail("bad_hand", f"{where}: a draw has no {field}")
    penalties = _penalties(players, raw.get("penalties"), where)
    for pen in penalties:
        # 第十四条 六: a wrong or false win stops that player winning the hand
        if pen["kind"] != "deduction" and result == "win" and pen["player"] == hand["winner"]:
            raise _fail(
                "bad_hand",
                f"{where}: {pen['player']} made a {pen['kind']} and may not win this hand",
            )
    if penalties:
        hand["penalties"] = penalties
    for field in _TEXT_FIELDS:
        value = raw.get(field)
        if value is None:
            continue
        if not isinstance(value, str) or len(value) > _TEXT_MAX:
            raise _fail(
                "bad_hand", f"{where}: {field} must be text of at most {_TEXT_MAX} characters"
            )
        hand[field] = value
    if raw.get("flowers"):
        if result != "win":
            raise _fail("bad_hand", f"{where}: only a win has flowers")
        hand["flowers"] = raw["flowers"]
    return hand


def normalize_game(game: Any) -> dict[str, Any]:
    """Check a whole game input and return it in canonical form."""
    if not isinstance(game, dict):
        raise _fail("bad_game", "a game must be a JSON object with 'players' and 'hands'")
    if "players" not in game:
        raise _fail("missing_field", "'players' is required")
    players = validate_players(game["players"])
    hands = game.get("hands", [])
    if not isinstance(hands, list):
        raise _fail("bad_game", "'hands' must be a list")
    if len(hands) > rules.HANDS_PER_GAME:
        raise _fail(
            "too_many_hands", f"a game has at most {rules.HANDS_PER_GAME} hands, got {len(hands)}"
        )
    out: dict[str, Any] = {
        "players": players,
        "hands": [normalize_hand(players, h, i) for i, h in enumerate(hands, 1)],
    }
    extra = _penalties(players, game.get("penalties"), "game")
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


def replay(game: dict) -> dict:
    """The score sheet of a game: per-hand seating and deltas, 局分 and 标准分.

    Besides the contract's fields each hand carries `number`, its result
    fields and the running `totals`; an optional top-level `penalties` list
    (e.g. lateness, 第十三条 二(一)) is taken off the 局分 at the end.
    """
    norm = normalize_game(game)
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
