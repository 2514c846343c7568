"""The language of a web request and the page's own server-side texts.

The page sends the language its reader chose (`Accept-Language`, and `lang`
in a JSON body), so every text the server writes for it arrives in that
language: zh (simplified), zh-Hant (traditional), en.
"""

from __future__ import annotations

from flask import request

from scorer.names import LANGS

#: language tags a browser may send, best first, and the product language each means
_TAGS = {
    "zh-hant": "zh-Hant",
    "zh-tw": "zh-Hant",
    "zh-hk": "zh-Hant",
    "zh-mo": "zh-Hant",
    "zh": "zh",
    "zh-hans": "zh",
    "zh-cn": "zh",
    "zh-sg": "zh",
    "en": "en",
}


def product_lang(tag: object) -> str | None:
    """`zh`, `zh-Hant` or `en` for a language tag (`zh-TW` -> zh-Hant); None if foreign."""
    if not isinstance(tag, str) or len(tag) > 35:
        return None
    tag = tag.strip().lower().replace("_", "-")
    if tag in _TAGS:
        return _TAGS[tag]
    if tag.startswith("zh-hant") or tag.startswith("zh-tw") or tag.startswith("zh-hk"):
        return "zh-Hant"
    if tag.startswith("zh"):
        return "zh"
    if tag.startswith("en"):
        return "en"
    return None


def request_lang(body: dict | None = None) -> str:
    """The language a request asks for: the body's `lang`, else Accept-Language, else en."""
    if body is not None:
        lang = product_lang(body.get("lang"))
        if lang:
            return lang
    for tag, _quality in request.accept_languages:
        lang = product_lang(tag)
        if lang:
            return lang
    return "en"


def pick(texts: dict[str, str], lang: str) -> str:
    """The text for `lang` from a {zh, zh-Hant, en} table (English when one is missing)."""
    return texts.get(lang) or texts["en"]


assert set(_TAGS.values()) <= set(LANGS)

# -- why a situation option is not possible for this hand ------------------------

_KONG_WITH_LAST = {
    "zh": "杠上开花/抢杠和不能与妙手回春/海底捞月同时成立：牌墙最后一张不能开杠，抢的杠也不是打出的牌。",
    "zh-Hant": "槓上開花/搶槓和不能與妙手回春/海底撈月同時成立：牌牆最後一張不能開槓，搶的槓也不是打出的牌。",
    "en": "Out on a kong / robbing the kong cannot go with the last tile: no kong is made "
    "on the last tile of the wall, and a robbed kong is not a discard.",
}
_KONG_SELF = {
    "zh": "杠上开花要在开杠后摸牌和牌，但这手牌里没有杠。",
    "zh-Hant": "槓上開花要在開槓後摸牌和牌，但這手牌裡沒有槓。",
    "en": "Out on a kong replacement needs a kong in the hand, and this hand has none.",
}
_KONG_DISCARD = {
    "zh": "抢杠和：和张的另外三张在被抢杠者的碰里，但这手牌里还有和张。",
    "zh-Hant": "搶槓和：和張的另外三張在被搶槓者的碰裡，但這手牌裡還有和張。",
    "en": "Robbing the kong: the other three of the winning tile are in the robbed "
    "player's pung, yet this hand holds another one.",
}
_FOURTH = {
    "zh": "和绝张要求另外三张和张都已亮在桌上，但手里还藏着和张。",
    "zh-Hant": "和絕張要求另外三張和張都已亮在桌上，但手裡還藏著和張。",
    "en": "Last of its kind needs the other three of the winning tile shown on the table, "
    "but the hand holds one concealed.",
}
_OTHER = {
    "zh": "这手牌不能这样和。",
    "zh-Hant": "這手牌不能這樣和。",
    "en": "This hand cannot be won that way.",
}


def option_reason(flag: str, flipped: dict, lang: str) -> str:
    """Why turning `flag` to its value in `flipped` contradicts the hand, in `lang`.

    The scorer has refused `flipped` with `contradictory_flags`; which rule it
    met follows from the flags the request sets (the page names the options,
    never the request's field names).
    """
    kong, last, self_drawn = (bool(flipped.get(k)) for k in ("kong", "last_tile", "self_drawn"))
    if flag == "fourth_tile":
        return pick(_FOURTH, lang)
    if kong and last and flag in ("kong", "last_tile"):
        return pick(_KONG_WITH_LAST, lang)
    if kong and flag in ("kong", "self_drawn"):
        return pick(_KONG_SELF if self_drawn else _KONG_DISCARD, lang)
    return pick(_OTHER, lang)
