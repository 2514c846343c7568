"""The library's tiles, fan names and hand notation, served to the page.

The page never re-implements the notation or the tile codes in JavaScript:
`/library.js` is an ES module generated from `scorer.tiles`, `scorer.fans`
and `scorer.names` when the server starts, and `POST /api/hand` reads and
writes the notation with `scorer.notation`, so the page, the command line
and the scorer can never disagree about a hand.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from flask import Blueprint, Response, jsonify

from scorer.errors import ScoreError
from scorer.fans import FANS
from scorer.game.rules import WRONG_WIN_PAYMENT
from scorer.hand import Hand, Meld, MeldKind
from scorer.names import LANGS, TILE_NAMES, fan_name
from scorer.notation import MAX_MELDS, format_hand, format_tiles, read_hand
from scorer.tiles import CODES, INDEX, NUM_KINDS, is_flower, is_honor, is_suited, rank, suit

bp = Blueprint("library", __name__)


class HandError(ScoreError):
    """A hand sent as melds and tiles that cannot be written in the notation."""

    messages = {
        "bad_character.ascii": {
            "en": "the hand notation uses only ASCII letters, digits, brackets and commas",
            "zh": "牌谱写法只用英文字母、数字、方括号和逗号",
            "zh-Hant": "牌譜寫法只用英文字母、數字、方括號和逗號",
        },
        "bad_tiles.list": {
            "en": "{field} must be a list of at most {most} tile codes",
            "zh": "{field}必须是最多 {most} 张牌的列表",
            "zh-Hant": "{field}必須是最多 {most} 張牌的列表",
        },
        "bad_tile.code": {
            "en": "{field}: {code} is not a playing tile code",
            "zh": "{field}里有不是牌的代码：{code}",
            "zh-Hant": "{field}裡有不是牌的代碼：{code}",
        },
        "bad_meld.form": {
            "en": "a meld is an object {{kind, tiles, claimed, promoted}}",
            "zh": "副露的写法不对",
            "zh-Hant": "副露的寫法不對",
        },
        "bad_meld.kind": {
            "en": "a meld's kind is chow, pung or kong",
            "zh": "副露只能是吃、碰或杠",
            "zh-Hant": "副露只能是吃、碰或槓",
        },
        "bad_meld.tiles": {
            "en": "the tiles of a meld sent as a {kind} make a {read}",
            "zh": "这组副露标为{kind}，牌却是{read}",
            "zh-Hant": "這組副露標為{kind}，牌卻是{read}",
        },
        "bad_meld.promoted": {
            "en": "only a kong can be promoted (加杠)",
            "zh": "只有杠才能是加杠",
            "zh-Hant": "只有槓才能是加槓",
        },
        "bad_meld.promoted_concealed": {
            "en": "a promoted kong (加杠) grew from a claimed pung: it needs the seat it was "
            "claimed from",
            "zh": "加杠是碰出的刻子加成的杠，要写明是从谁那里碰的",
            "zh-Hant": "加槓是碰出的刻子加成的槓，要寫明是從誰那裡碰的",
        },
        "bad_meld.list": {
            "en": "the melds are a list of meld objects",
            "zh": "副露必须是一组副露的列表",
            "zh-Hant": "副露必須是一組副露的列表",
        },
        "bad_request.both": {
            "en": "send either a written hand or its melds and tiles, not both",
            "zh": "只能发送牌谱写法或副露和牌之一，不能两者都发",
            "zh-Hant": "只能傳送牌譜寫法或副露和牌之一，不能兩者都傳",
        },
        "bad_meld_number.claimed": {
            "en": "a meld's 'claimed' is a whole number 0-3",
            "zh": "副露是谁打出的，只能是 0 到 3",
            "zh-Hant": "副露是誰打出的，只能是 0 到 3",
        },
        "bad_meld_number.promoted": {
            "en": "a meld's 'promoted' is true or false",
            "zh": "加杠只能是“是”或“否”",
            "zh-Hant": "加槓只能是「是」或「否」",
        },
        "too_many_melds.list": {
            "en": "a hand has at most {max} melds",
            "zh": "一手牌最多 {max} 组副露",
            "zh-Hant": "一手牌最多 {max} 組副露",
        },
    }
    terms = {
        "meld_tiles": {"en": "a meld's tiles", "zh": "副露", "zh-Hant": "副露"},
        "concealed": {"en": "the concealed tiles", "zh": "手牌", "zh-Hant": "手牌"},
        "winning": {"en": "the winning tile", "zh": "和张", "zh-Hant": "和張"},
    }


#: the most tiles a structured hand may hold (a hand of four kongs has 18)
MAX_TILES = 18
_HAND_FIELDS = {"hand", "melds", "concealed", "winning", "lang"}
_MELD_FIELDS = {"kind", "tiles", "claimed", "promoted"}


def _tile_entry(i: int) -> dict[str, Any]:
    kind = "suited" if is_suited(i) else "honor" if is_honor(i) else "flower"
    if i == INDEX["back"]:
        kind = "back"
    entry: dict[str, Any] = {"code": CODES[i], "index": i, "kind": kind}
    if is_suited(i):
        entry.update(suit="mps"[suit(i)], rank=rank(i))
    elif is_flower(i):
        entry["rank"] = i - INDEX["1f"] + 1
    entry["names"] = {lang: TILE_NAMES[lang][i] for lang in LANGS}
    return entry


@cache
def library_module() -> str:
    """The ES module text: tiles in library order, fan names, the languages, and the
    one payment the page shows that no score answer carries (a wrong win's)."""
    tiles = [_tile_entry(i) for i in range(len(CODES))]
    fans = {
        f.id: {
            "points": f.points,
            "names": {lang: fan_name(f.id, f.name_zh, f.name_en, lang) for lang in LANGS},
        }
        for f in sorted(FANS.values(), key=lambda f: f.id)
    }

    def const(name: str, value: object) -> str:
        return f"export const {name} = Object.freeze({json.dumps(value, ensure_ascii=False)});\n"

    return (
        "// Generated by the server from the scoring library (scorer.tiles, scorer.fans,\n"
        "// scorer.names): the page's only source of tile codes and names.\n"
        + const("LANGS", list(LANGS))
        + const("TILES", tiles)
        + const("PLAYING_KINDS", NUM_KINDS)
        + const("FANS", fans)
        + const("RULES", {"wrong_win_payment": WRONG_WIN_PAYMENT})
    )


@bp.get("/library.js")
def library_js():
    return Response(library_module(), mimetype="text/javascript")


# -- the notation, both ways -------------------------------------------------------


def _meld_json(m: Meld) -> dict[str, Any]:
    return {
        "kind": str(m.kind),
        "tiles": [CODES[t] for t in m.tiles],
        "claimed": m.claimed,
        "promoted": m.promoted,
    }


def parse_answer(text: object) -> dict[str, Any]:
    """A written hand as the page holds it; the last tile of a full hand is the winning tile."""
    if not isinstance(text, str):
        raise ScoreError("bad_type.hand_text", type=type(text).__name__)
    if not text.isascii():  # the notation is ASCII; a message must never echo a lone surrogate
        raise HandError("bad_character.ascii")
    melds, tiles = read_hand(text)
    full = len(tiles) + 3 * len(melds) >= 14
    concealed, winning = (tiles[:-1], tiles[-1]) if full else (tiles, None)
    hand = Hand(melds, tuple(concealed), winning)
    return {
        "hand": format_hand(hand),
        "melds": [_meld_json(m) for m in melds],
        "concealed": [CODES[t] for t in concealed],
        "winning": None if winning is None else CODES[winning],
    }


def _playing_tiles(value: object, what: str, most: int) -> list[int]:
    if not isinstance(value, list) or len(value) > most:
        raise HandError("bad_tiles.list", field=what, most=most)
    out = []
    for code in value:
        i = INDEX.get(code) if isinstance(code, str) else None
        if i is None or i >= NUM_KINDS:
            raise HandError("bad_tile.code", field=what, code=repr(str(code)[:20]))
        out.append(i)
    return out


def _meld_text(meld: object) -> str:
    """One meld written in the notation; the notation reader then judges it."""
    if not isinstance(meld, dict) or set(meld) - _MELD_FIELDS:
        raise HandError("bad_meld.form")
    if meld.get("kind") not in tuple(MeldKind):
        raise HandError("bad_meld.kind")
    tiles = _playing_tiles(meld.get("tiles"), "meld_tiles", 4)
    claimed, promoted = meld.get("claimed", 1), meld.get("promoted", False)
    if isinstance(claimed, bool) or not isinstance(claimed, int) or not 0 <= claimed <= 3:
        raise HandError("bad_meld_number.claimed")
    if not isinstance(promoted, bool):
        raise HandError("bad_meld_number.promoted")
    if promoted and meld.get("kind") != MeldKind.KONG:
        raise HandError("bad_meld.promoted")
    if promoted and claimed == 0:  # a promoted kong grew from a claimed pung
        raise HandError("bad_meld.promoted_concealed")
    body = format_tiles(tiles)
    if meld.get("kind") == MeldKind.KONG and claimed == 0:
        return f"[{body}]"
    number = claimed + 4 if promoted and meld.get("kind") == MeldKind.KONG else claimed
    return f"[{body},{number}]"


def write_answer(obj: dict[str, Any]) -> dict[str, Any]:
    """The notation of a hand held as melds, concealed tiles and a winning tile."""
    melds = obj.get("melds", [])
    if not isinstance(melds, list):
        raise HandError("bad_meld.list")
    if len(melds) > MAX_MELDS:
        raise HandError("too_many_melds.list", max=MAX_MELDS)
    concealed = _playing_tiles(obj.get("concealed", []), "concealed", MAX_TILES)
    winning = obj.get("winning")
    tail = concealed + ([] if winning is None else _playing_tiles([winning], "winning", 1))
    text = "".join(_meld_text(m) for m in melds) + format_tiles(tail)
    if not text:
        return {"hand": ""}
    parsed_melds, _ = read_hand(text)
    for sent, read in zip(melds, parsed_melds, strict=True):
        if read.kind != sent["kind"]:  # the notation reads the tiles, not the kind sent
            raise HandError("bad_meld.tiles", kind=sent["kind"], read=read.kind.value)
    hand = Hand(parsed_melds, tuple(concealed), None if winning is None else tail[-1])
    return {"hand": format_hand(hand)}


@bp.post("/api/hand")
def api_hand():
    """`{"hand": text}` -> the hand as melds and tiles; `{"melds", "concealed", "winning"}` -> text.

    Errors go to `webui.errors`, which gives their status and words them in the
    request's language.
    """
    from webui.api import _read_json_object

    obj = _read_json_object()
    ScoreError.refuse_unknown(obj, _HAND_FIELDS)
    if "hand" in obj and set(obj) & {"melds", "concealed", "winning"}:
        raise HandError("bad_request.both")
    return jsonify(parse_answer(obj["hand"]) if "hand" in obj else write_answer(obj))
