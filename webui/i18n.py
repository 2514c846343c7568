"""The page's own server-side texts: why a situation option is not possible.

`/api/options` tells the page which options the hand rules out. The
scorer's messages for those cases speak of request fields (`'kong'`,
`'fourth_tile'`) for API users; under a disabled option the page names the
option the player sees, in the page's language. Keyed by the scorer's
stable message ids, never by its English text.
"""

from __future__ import annotations

from scorer.errors import McrError

#: message id of the scorer's refusal -> the reason in zh, zh-Hant and en
OPTION_REASONS: dict[str, dict[str, str]] = {
    "contradictory_flags.kong_last_tile": {
        "zh": "杠上开花/抢杠和不能与妙手回春/海底捞月同时成立：牌墙最后一张不能开杠，抢的杠也不是打出的牌。",
        "zh-Hant": "槓上開花/搶槓和不能與妙手回春/海底撈月同時成立：牌牆最後一張不能開槓，搶的槓也不是打出的牌。",
        "en": "Out on a kong or robbing the kong cannot go with the last tile: no kong is made "
        "on the last tile of the wall, and a robbed kong is not a discard.",
    },
    "contradictory_flags.no_kong": {
        "zh": "杠上开花要在开杠后摸牌和牌，但这手牌里没有杠。",
        "zh-Hant": "槓上開花要在開槓後摸牌和牌，但這手牌裡沒有槓。",
        "en": "Out on a kong replacement needs a kong in the hand, and this hand has none.",
    },
    "contradictory_flags.robbed": {
        "zh": "抢杠和：和张的另外三张在被抢杠者的碰里，但这手牌里还有和张。",
        "zh-Hant": "搶槓和：和張的另外三張在被搶槓者的碰裡，但這手牌裡還有和張。",
        "en": "Robbing the kong: the other three of the winning tile are in the robbed "
        "player's pung, yet this hand holds another one.",
    },
    "contradictory_flags.fourth_tile": {
        "zh": "和绝张要求另外三张和张都已亮在桌上，但手里还藏着和张。",
        "zh-Hant": "和絕張要求另外三張和張都已亮在桌上，但手裡還藏著和張。",
        "en": "Last of its kind needs the other three of the winning tile shown on the table, "
        "but the hand holds one concealed.",
    },
}


def option_reason(exc: McrError, lang: str) -> str:
    """Why the scorer refused an option, as the page words it (the scorer's text otherwise)."""
    texts = OPTION_REASONS.get(exc.message_id)
    if texts is None:
        return exc.message_in(lang)
    return texts.get(lang) or texts["en"]
