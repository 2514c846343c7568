"""The score request of CONTRACTS.md: validation, scoring, the JSON response.

Shared by `mcr score --batch`, the web API and the referee check, so every
caller rejects the same contradictions with the same error codes.

Field policy: unknown fields are rejected (`unknown_field`) so a typo such
as `selfdrawn` never silently scores a different hand. Two optional
extensions are accepted: `id` (any JSON value, echoed back so batch output
can be matched to its input) and `lang` (`zh`/`zh-Hant`/`en`/`both`): with
it the response also carries `explanation`, the readable fan table in that
language (left out otherwise, since batch callers rarely read it and it is a
third of the cost of a response), and an error's message is in that language
(`both`: English). With `zh-Hant` each fan also carries `name_zh_hant`.

Contradictory flags (seed 001 fans 44-47 and 58) are errors, not silently
dropped fans:

- `kong` self-drawn (杠上开花) needs a kong in the hand;
- `kong` on a discard (抢杠和) robs a pung being promoted, whose other three
  copies are on the table: the winner can hold no other copy;
- `kong` with `last_tile`: no kong can be made on the last tile of the wall,
  and a robbed kong is not the last discard;
- `fourth_tile` (和绝张) when a copy of the winning tile is among the
  concealed tiles: three copies must be visible, a hidden one is not.

`fourth_tile` is implied (set) when three copies of the winning tile are
already shown in the winner's own melds: the winning tile is then
necessarily the last one. With 抢杠和 it stays as given (抢杠和 不计和绝张).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from scorer.errors import McrError, ScoreError
from scorer.hand import Hand, MeldKind, Situation
from scorer.notation import format_hand, normalized, parse_hand, tile_name
from scorer.tiles import wind

BOOL_FIELDS = ("self_drawn", "fourth_tile", "kong", "last_tile")
WIND_FIELDS = ("seat_wind", "round_wind")
EXTRA_FIELDS = ("id", "lang")
KNOWN_FIELDS = frozenset(("hand", "flowers", *BOOL_FIELDS, *WIND_FIELDS, *EXTRA_FIELDS))
WINDS = {letter: wind(letter) for letter in "ESWN"}
LANGS = ("zh", "zh-Hant", "en", "both")
#: largest `id` echoed back, as JSON text
MAX_ID_CHARS = 200
#: longest claimed fan list, and the most times one fan may be claimed (two digits)
MAX_CLAIM_CHARS = 1000
MAX_CLAIM_COUNT = 99


def _type_name(value: object) -> str:
    return "null" if value is None else type(value).__name__


def _check_fields(obj: object) -> dict:
    if not isinstance(obj, dict):
        raise ScoreError("bad_request", type=_type_name(obj))
    ScoreError.refuse_unknown(obj, KNOWN_FIELDS)
    if "hand" not in obj:
        raise ScoreError("missing_field.hand")
    if not isinstance(obj["hand"], str):
        raise ScoreError("bad_type.hand", type=_type_name(obj["hand"]))
    if "id" in obj:
        _check_id(obj["id"])
    return obj


def _small_id(value: object) -> bool:
    """Whether an `id` is small enough to echo back: its JSON at most MAX_ID_CHARS."""
    import json

    try:
        return len(json.dumps(value, ensure_ascii=False)) <= MAX_ID_CHARS
    except (TypeError, ValueError):
        return False


def _check_id(value: object) -> None:
    if not _small_id(value):
        raise ScoreError("too_long.id", max=MAX_ID_CHARS)


def _flag(obj: dict, name: str) -> bool:
    value = obj.get(name, False)
    if not isinstance(value, bool):
        raise ScoreError("bad_type.flag", field=name, got=repr(value))
    return value


def _wind(obj: dict, name: str) -> int:
    value = obj.get(name, "E")
    if not isinstance(value, str) or value not in WINDS:
        raise ScoreError("bad_wind", field=name, got=repr(value))
    return WINDS[value]


def _flowers(obj: dict) -> int:
    value = obj.get("flowers", 0)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoreError("bad_type.flowers", got=repr(value))
    if not 0 <= value <= 8:
        raise ScoreError("bad_flowers", got=value)
    return value


def situation_from(obj: dict) -> Situation:
    """The Situation of a request's flags, types checked (no hand checks)."""
    return Situation(
        flowers=_flowers(obj),
        self_drawn=_flag(obj, "self_drawn"),
        fourth_tile=_flag(obj, "fourth_tile"),
        kong=_flag(obj, "kong"),
        last_tile=_flag(obj, "last_tile"),
        seat_wind=_wind(obj, "seat_wind"),
        round_wind=_wind(obj, "round_wind"),
    )


def check_situation(hand: Hand, sit: Situation) -> Situation:
    """Reject contradictory flags for this hand; return it with implied flags set."""
    win = hand.winning_tile
    if win is None:
        raise ScoreError("no_winning_tile")
    name = tile_name(win)
    in_melds = sum(m.tiles.count(win) for m in hand.melds if not m.concealed)
    in_hidden = hand.concealed.count(win) + sum(
        m.tiles.count(win) for m in hand.melds if m.concealed
    )
    if sit.kong and sit.last_tile:
        first, second = ("杠上开花", "妙手回春") if sit.self_drawn else ("抢杠和", "海底捞月")
        raise ScoreError("contradictory_flags.kong_last_tile", first=first, second=second)
    if sit.kong and sit.self_drawn and not any(m.kind is MeldKind.KONG for m in hand.melds):
        raise ScoreError("contradictory_flags.no_kong")
    if sit.kong and not sit.self_drawn and in_melds + in_hidden:
        raise ScoreError("contradictory_flags.robbed", tile=name, count=in_melds + in_hidden)
    if sit.fourth_tile and in_hidden:
        raise ScoreError("contradictory_flags.fourth_tile", tile=name, count=in_hidden)
    if in_melds == 3 and not sit.fourth_tile:
        sit = replace(sit, fourth_tile=True)
    return sit


def check_shape(obj: object) -> None:
    """Refuse a request whose fields or their types are wrong (before any hand check):
    what asks about a request's options must first be a well-formed request."""
    situation_from(_check_fields(obj))
    request_lang(obj)


def parse_request(obj: dict) -> tuple[Hand, Situation]:
    """Validate a score request; the hand and situation to score, or ScoreError."""
    obj = _check_fields(obj)
    sit = situation_from(obj)
    hand = parse_hand(obj["hand"])
    return hand, check_situation(hand, sit)


def request_lang(obj: dict) -> str | None:
    lang = obj.get("lang")
    if lang is not None and lang not in LANGS:
        raise ScoreError("bad_lang", got=repr(lang))
    return lang


def response(hand: Hand, sit: Situation, lang: str | None = "both") -> dict[str, Any]:
    """Score a validated hand; the contract response plus the extensions."""
    from scorer.engine import score
    from scorer.explain import format_table
    from scorer.fans import FANS
    from scorer.payments import payments

    result = score(hand, sit)
    out = result.to_json()
    out["payments"] = payments(result.total, sit.self_drawn)
    out["hand"] = format_hand(normalized(hand))
    out["situation"] = situation_json(sit)
    if lang is not None:
        out["explanation"] = format_table(result, lang=lang)
    if lang == "zh-Hant":
        for entry in (*out["fans"], *out["excluded"]):
            entry["name_zh_hant"] = FANS[entry["id"]].name_zh_hant
    return out


def situation_json(sit: Situation) -> dict[str, Any]:
    """The flags as scored (implied ones included), in request form."""
    letters = {v: k for k, v in WINDS.items()}
    return {
        "flowers": sit.flowers,
        "self_drawn": sit.self_drawn,
        "fourth_tile": sit.fourth_tile,
        "kong": sit.kong,
        "last_tile": sit.last_tile,
        "seat_wind": letters[sit.seat_wind],
        "round_wind": letters[sit.round_wind],
    }


def score_request(obj: dict) -> dict[str, Any]:
    """Validate and score one request; raises ScoreError for anything unscorable."""
    hand, sit = parse_request(obj)
    out = response(hand, sit, request_lang(obj))
    if "id" in obj:
        out["id"] = obj["id"]
    return out


def message_lang(request: object) -> str:
    """The language a request's error message is written in (its `lang`; English by default)."""
    lang = request.get("lang") if isinstance(request, dict) else None
    return lang if lang in LANGS else "en"


def error_response(
    exc: McrError, request: object = None, lang: str | None = None
) -> dict[str, Any]:
    """The contract error object in the request's language (or `lang`); echoes its `id`
    where that is small enough to echo."""
    out: dict[str, Any] = exc.to_json(lang or message_lang(request))
    if isinstance(request, dict) and "id" in request and _small_id(request["id"]):
        out["id"] = request["id"]
    return out


# -- referee check ---------------------------------------------------------------

_SEPARATORS = re.compile(r"[,，、;；]")
_DIGITS = "0123456789"


def _split_count(item: str) -> tuple[str, int]:
    """`幺九刻*2` / `幺九刻 x 2` -> ("幺九刻", 2); without a count suffix (item, 1).

    String methods from the right instead of a pattern: linear in the
    item's length whatever it holds.
    """
    digits = len(item) - len(item.rstrip(_DIGITS))
    if not digits:
        return item, 1
    head = item[:-digits].rstrip()
    if not head or head[-1] not in "x×X*":
        return item, 1
    name = head[:-1].strip()
    if not name:
        return item, 1
    if digits > len(str(MAX_CLAIM_COUNT)):
        raise ScoreError("bad_claim.too_many", item=item[:40], max=MAX_CLAIM_COUNT)
    return name, int(item[-digits:])


def _claimed_fan(item: str) -> int:
    """The fan id an item names (its number 1-81, ASCII digits, or its name)."""
    from scorer.fans import FANS, fan_by_name

    if item and len(item) <= 3 and all(c in _DIGITS for c in item):
        fan_id = int(item)
        if fan_id not in FANS:
            raise ScoreError("unknown_fan.number", number=fan_id)
        return fan_id
    try:
        return fan_by_name(item).id
    except KeyError:
        raise ScoreError("unknown_fan.name", name=item[:40]) from None


def parse_claim(text: str) -> dict[int, int]:
    """A claimed fan list `清一色,平和,幺九刻*2` / `22,63` -> {fan id: count}."""
    if not isinstance(text, str):
        raise ScoreError("bad_type.claim", type=_type_name(text))
    if len(text) > MAX_CLAIM_CHARS:
        raise ScoreError("too_long.claim", max=MAX_CLAIM_CHARS)
    claimed: dict[int, int] = {}
    for raw in _SEPARATORS.split(text):
        item = raw.strip()
        if not item:
            continue
        item, count = _split_count(item)
        fan_id = _claimed_fan(item)
        if count < 1:
            raise ScoreError("bad_claim.count", item=raw.strip()[:40])
        claimed[fan_id] = claimed.get(fan_id, 0) + count
    if not claimed:
        raise ScoreError("bad_claim.empty")
    return claimed


def _fan_entry(fan_id: int, count: int) -> dict[str, Any]:
    from scorer.fans import FANS

    fan = FANS[fan_id]
    return {
        "id": fan.id,
        "name_zh": fan.name_zh,
        "name_en": fan.name_en,
        "points": fan.points,
        "count": count,
    }


def check_claim(obj: dict, claim: str | None = None, total: int | None = None) -> dict[str, Any]:
    """Referee check of a claimed fan list or total against the correct score.

    `missing`: fans the hand has but the claim lacks; `extra`: claimed fans the
    hand does not score (with the reason when the engine excluded them);
    `miscounted`: right fan, wrong count (`claimed` vs `count`).
    """
    if (claim is None) == (total is None):
        raise ScoreError("bad_arguments.claim")
    resp = score_request(obj)
    right = {f["id"]: f["count"] for f in resp["fans"]}
    out: dict[str, Any] = {
        "hand": resp["hand"],
        "total": resp["total"],
        "meets_minimum": resp["meets_minimum"],
        "fans": resp["fans"],
    }
    if total is not None:
        if isinstance(total, bool) or not isinstance(total, int) or total < 0:
            raise ScoreError("bad_type.total", got=repr(total))
        out["claimed_total"] = total
        out["correct"] = total == resp["total"]
        return out
    claimed = parse_claim(claim)  # type: ignore[arg-type]
    reasons = {e["id"]: e["reason"] for e in resp.get("excluded", [])}
    extra = []
    for i in sorted(set(claimed) - set(right)):
        entry = _fan_entry(i, claimed[i])
        if i in reasons:
            entry["reason"] = reasons[i]
        extra.append(entry)
    out["missing"] = [_fan_entry(i, right[i]) for i in sorted(set(right) - set(claimed))]
    out["extra"] = extra
    out["miscounted"] = [
        {**_fan_entry(i, right[i]), "claimed": claimed[i]}
        for i in sorted(set(right) & set(claimed))
        if right[i] != claimed[i]
    ]
    out["claimed_total"] = sum(_fan_entry(i, n)["points"] * n for i, n in claimed.items())
    out["correct"] = not (out["missing"] or out["extra"] or out["miscounted"])
    return out


# -- waits -------------------------------------------------------------------------


def waits_report(obj: dict) -> dict[str, Any]:
    """Every winning tile of a 13-tile hand, scored on a discard and on a self-draw.

    The flags apply to every winning tile where they can: `fourth_tile` is
    dropped for a tile of which the hand conceals a copy (it cannot be the
    last one) and set for a tile of which three copies are shown in the
    melds; `kong` or `last_tile` that contradict a tile or a way of winning
    give that entry an `error` instead of a score.
    """
    from scorer.engine import score
    from scorer.waits import winning_tiles

    obj = _check_fields(obj)
    base = situation_from(obj)
    hand13 = parse_hand(obj["hand"], waiting=True)
    waits = []
    for tile in winning_tiles(hand13):
        hand = Hand(hand13.melds, hand13.concealed, tile)
        entry: dict[str, Any] = {"tile": tile_name(tile)}
        for key, self_drawn in (("discard", False), ("self_drawn", True)):
            sit = replace(base, self_drawn=self_drawn)
            if sit.fourth_tile and tile in hand13.concealed:
                sit = replace(sit, fourth_tile=False)
            try:
                sit = check_situation(hand, sit)
                result = score(hand, sit).to_json()
                entry[key] = {
                    "total": result["total"],
                    "meets_minimum": result["meets_minimum"],
                    "fans": [
                        {k: f[k] for k in ("id", "name_zh", "name_en", "points", "count")}
                        for f in result["fans"]
                    ],
                }
            except ScoreError as exc:
                entry[key] = exc.to_json(message_lang(obj))
        waits.append(entry)
    out = {"hand": format_hand(normalized(hand13)), "waiting": bool(waits), "waits": waits}
    if "id" in obj:
        out["id"] = obj["id"]
    return out
