"""What a game sheet's requests may store: texts, numbers, hands and penalties checked.

Every value a tablet or a file sends is checked here before the store
writes it (`scorer.game.store`) and before the replay applies the rules
(`scorer.game.replay`): known fields only, texts safe to show and of
bounded length, numbers within what SQLite and the rules hold, seats named
as the hand's seat winds, and an edit or a retried save told apart from
another device's change (`hand_revision`). A refusal is a `GameError`.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from scorer.game import rules
from scorer.game.errors import GameError
from scorer.game.replay import clean_name, harmful, normalize_hand, team_name, tournament_name

#: longest texts stored: who made a change, a game's name, tournament and table, a team
MAX_WHO = 64
MAX_DETAIL = 100
MAX_REQUEST_ID = 100
MAX_REVISION = 64
#: the texts of a recorded hand, and the control characters each may keep
HAND_TEXTS = {"hand": "", "note": "\n\t"}
#: the fields a recorded hand may have: the replay contract's result, its texts, and the
#: seats a page may name instead of the players
RESULT_FIELDS = ("result", "winner", "discarder", "self_drawn", "fans", "flowers", "penalties")
HAND_FIELDS = frozenset((*RESULT_FIELDS, *HAND_TEXTS, "winner_seat", "discarder_seat"))
PENALTY_FIELDS = frozenset({"player", "kind", "points"})
#: the penalty kinds whose payment the rules fix: they take no `points`
FIXED_PENALTIES = tuple(k for k in rules.PENALTY_KINDS if k != "deduction")


def check_teams(players: list[str], teams: Any) -> dict[str, str]:
    """A new game's teams (None: none): an object mapping players of the game, each once
    and named as `clean_name` keeps names, to team names of at most MAX_WHO characters
    (cleaned the same way; an empty one is no team), else GameError."""
    if teams is None:
        return {}
    if not isinstance(teams, dict):
        raise GameError("bad_teams", max=MAX_WHO)
    out: dict[str, str] = {}
    seen: set[str] = set()
    for player, team in teams.items():
        name, clean = clean_name(player), team_name(team)
        if name not in players or name in seen or clean is None:
            raise GameError("bad_teams", max=MAX_WHO)
        seen.add(name)
        if clean:
            out[name] = clean
    return out


def check_text(field: str, value: Any, limit: int) -> None:
    """A stored free text (a game's name or table, who made a change) is a string of at
    most `limit` characters that is safe to show (`check_shown`)."""
    if not isinstance(value, str) or len(value) > limit:
        raise GameError("bad_text", field=field, max=limit)
    check_shown(field, value)


def check_shown(field: str, value: str, keep: str = "") -> None:
    """Refuse a `harmful` character (but those in `keep`): a terminal printing the text
    must not run an escape code, nor a direction override reorder what is around it.
    Free text is no identity, so joiners and variation selectors (emoji, Persian) stay."""
    if any(c not in keep and harmful(c) for c in value):
        raise GameError("bad_text.note" if keep else "bad_text.control", field=field)


def check_details(name: Any, tournament: Any, table: Any) -> tuple[str, str, str]:
    """A game's name and table (checked by `check_text`) and its tournament as kept
    (`tournament_name`)."""
    check_text("name", name, MAX_DETAIL)
    check_text("table", table, MAX_DETAIL)
    return name, tournament_name(tournament), table


def hand_revision(hand: dict[str, Any]) -> str:
    """A short fingerprint of a hand as stored: it changes whenever the hand does (an
    edit, or an undo and another hand recorded in its place); a hand recorded again
    exactly as it was has the same fingerprint, and an edit naming it is still right."""
    text = json.dumps(hand, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:16]


def check_revision(revision: Any) -> None:
    """A revision a caller names is text as `hand_revision` writes it (or None): anything
    else is a mistake, not a hand changed since."""
    if revision is not None and (
        not isinstance(revision, str) or not 0 < len(revision) <= MAX_REVISION
    ):
        raise GameError("bad_expected.revision", max=MAX_REVISION)


def _is_revision(hands: list[dict[str, Any]], number: int, revision: str) -> bool:
    """Whether hand `number` is recorded and is `revision`."""
    return number <= len(hands) and hand_revision(hands[number - 1]) == revision


def unchanged(game: dict[str, Any], number: Any, hand: Any) -> dict[str, Any] | None:
    """Hand `number` as stored, when it already is what `hand` would store: a retried
    save whose first try was saved must not read as another device's change."""
    hands = game["hands"]
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(hands):
        return None
    try:
        clean = clean_hand(game["players"], hand, number)
    except GameError:
        return None  # the checks below, then the hand's own, say what is wrong
    return clean if clean == hands[number - 1] else None


def check_edited(game: dict[str, Any], number: Any, revision: str | None) -> None:
    """Hand `number` exists and, when the caller names its `revision`, is still that
    hand; one undone since (or changed) is a conflict, not an unknown hand."""
    hands = game["hands"]
    exists = isinstance(number, int) and 1 <= number <= len(hands)
    a_hand = isinstance(number, int) and 1 <= number <= rules.HANDS_PER_GAME
    if revision is not None and a_hand and not _is_revision(hands, number, revision):
        raise GameError("conflict.edit", game=game["id"], number=number)
    if not exists:
        raise GameError("unknown_hand", game=game["id"], count=len(hands), got=number)


def check_request_id(request_id: Any) -> None:
    if request_id is not None and (
        not isinstance(request_id, str) or not 0 < len(request_id) <= MAX_REQUEST_ID
    ):
        raise GameError("bad_request_id", max=MAX_REQUEST_ID)


def check_hand_number(message_id: str, value: Any) -> None:
    """A hand number a caller names (the one it records, or undoes) counts from 1: 0 or
    less names no hand, so it is a mistake, not a conflict with what is recorded."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise GameError(message_id)


def check_expected(game_id: int, expected: int | None, number: int) -> None:
    """`expected` (when given) is the next hand's number; a past one is recorded, a
    later one is not next yet."""
    if expected is None:
        return
    check_hand_number("bad_expected", expected)
    if expected == number:
        return
    if expected < number:
        raise GameError("conflict.recorded", hand=expected, game=game_id)
    raise GameError("conflict.next", game=game_id, number=number)


def _check_number(field: str, value: Any, low: int, high: int) -> None:
    """Refuse a number past what is stored; one too low (or mistyped, or missing) is left
    to the replay, whose rules say why (under 8 fans, a penalty of no points)."""
    if value is None or isinstance(value, bool) or not isinstance(value, int):
        return
    if value > high:
        raise GameError("out_of_range", field=field, low=low, high=high, got=value)


def check_penalty(penalty: Any) -> None:
    if not isinstance(penalty, dict):
        raise GameError("bad_penalty.object")
    GameError.refuse_unknown(penalty, PENALTY_FIELDS)
    kind = penalty.get("kind")
    if kind in FIXED_PENALTIES and penalty.get("points") is not None:
        raise GameError("bad_penalty.no_points", kind=kind)
    _check_number("points", penalty.get("points"), 1, rules.MAX_PENALTY_POINTS)


def check_hand_input(hand: Any) -> None:
    """Bounds a recorded hand must keep before it is replayed: known fields, fans and
    points in range (the replay checks the rules)."""
    if not isinstance(hand, dict):
        raise GameError("bad_hand")
    GameError.refuse_unknown(hand, HAND_FIELDS)
    _check_number("fans", hand.get("fans"), 0, rules.MAX_FANS)
    for field, keep in HAND_TEXTS.items():
        if isinstance(hand.get(field), str):  # a text too long or not text: the replay says
            check_shown(field, hand[field], keep)
    penalties = hand.get("penalties")
    if isinstance(penalties, list):
        if len(penalties) > rules.MAX_PENALTIES:
            raise GameError("bad_penalty.too_many", max=rules.MAX_PENALTIES)
        for i, pen in enumerate(penalties, 1):
            try:
                check_penalty(pen)
            except GameError as exc:
                raise exc.at("penalty", i) from None


def check_hand_at(hand: Any, number: int) -> None:
    """`check_hand_input`, its errors placed in hand `number`."""
    try:
        check_hand_input(hand)
    except GameError as exc:
        raise exc.at("hand", number) from None


def clean_hand(players: list[str], hand: Any, number: int) -> dict[str, Any]:
    """Hand `number` as it is stored: bounds, seats and rules checked, errors placed."""
    check_hand_at(hand, number)
    return normalize_hand(players, resolve_seats(players, hand, number), number)


def resolve_seats(players: list[str], hand: Any, number: int) -> Any:
    """Turn `winner_seat` / `discarder_seat` (门风 E/S/W/N of that hand) into names.

    The scoring page knows the winner's seat wind, not the name; the seat
    of hand `number` decides who that is.
    """
    if not isinstance(hand, dict) or not ({"winner_seat", "discarder_seat"} & hand.keys()):
        return hand
    if not 1 <= number <= rules.HANDS_PER_GAME:
        return hand
    by_wind = {w: p for p, w in rules.seating(players, number - 1).seat_winds.items()}
    out = {k: v for k, v in hand.items() if k not in ("winner_seat", "discarder_seat")}
    for field in ("winner", "discarder"):
        wind = hand.get(f"{field}_seat")
        if wind is None:
            continue
        if not isinstance(wind, str) or wind not in by_wind:
            raise GameError("bad_seat", field=field, got=repr(wind)[:20])
        if out.get(field) not in (None, by_wind[wind]):
            raise GameError(
                "bad_seat.mismatch", field=field, name=repr(out[field]), wind=wind, number=number
            )
        out[field] = by_wind[wind]
    return out
