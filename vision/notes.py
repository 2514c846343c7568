"""The photo reader's notes on a photo and their texts by language (see `scorer.errors`).

A reading that stands but may be wrong says why (a tile taken as the
winning one, tiles left out, a waiting hand): a `Note`, its stable message
id and its parameters. The stages pass notes on as plain data; the
recognition result holds them as `notes` (`{"id", "params"}`) and as
`warnings`, their texts in one language (English unless asked, so the
command line reads as before). The texts are here, one catalogue with the
three languages of CONTRACTS.md, so the page shows the notes in its
language and a caller can word them again in another (`in_lang`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scorer.errors import DEFAULT_LANG, LANGS, Catalogue, pick_lang

MESSAGES: Catalogue = {
    # the layout: how the tiles lie
    "nothing_set_apart": {
        "en": "No tile is set apart at the end of the hand; took its last tile as the "
        "winning tile.",
        "zh": "手牌末端没有单独放开的牌；已把最后一张当作和张。",
        "zh-Hant": "手牌末端沒有單獨放開的牌；已把最後一張當作和張。",
    },
    "lone_winning": {
        "en": "Took the lone tile beside the hand row as the winning tile.",
        "zh": "已把手牌旁边单独的一张牌当作和张。",
        "zh-Hant": "已把手牌旁邊單獨的一張牌當作和張。",
    },
    "apart_concealed": {
        "en": "Counted {n} upright tile(s) lying away from the hand row as concealed.",
        "zh": "已把离手牌较远的 {n} 张立牌算作手牌。",
        "zh-Hant": "已把離手牌較遠的 {n} 張立牌算作手牌。",
    },
    "left_out": {
        "en": "Left out {n} upright tile(s) lying away from the hand row.",
        "zh": "离手牌较远的 {n} 张立牌没有算进来。",
        "zh-Hant": "離手牌較遠的 {n} 張立牌沒有算進來。",
    },
    "left_out.together": {
        "en": "Left out {n} tile(s) lying together away from the complete hand row.",
        "zh": "完整手牌之外另有 {n} 张放在一起的牌，没有算进来。",
        "zh-Hant": "完整手牌之外另有 {n} 張放在一起的牌，沒有算進來。",
    },
    "melds_unmarked": {
        "en": "Took {n} tiles lying apart from the hand row for exposed melds, though none "
        "of them lies clearly sideways; check who gave them.",
        "zh": "已把手牌外的 {n} 张牌当作副露，但其中没有明显横放的牌；请确认是谁打出的。",
        "zh-Hant": "已把手牌外的 {n} 張牌當作副露，但其中沒有明顯橫放的牌；請確認是誰打出的。",
    },
    "direction_assumed.across": {
        "en": "Could not tell which way the photo is turned (no winning tile set apart); "
        "assumed the rows read left to right.",
        "zh": "看不出照片的方向（没有单独放开的和张）；已按从左到右读牌。",
        "zh-Hant": "看不出照片的方向（沒有單獨放開的和張）；已按從左到右讀牌。",
    },
    "direction_assumed.down": {
        "en": "Could not tell which way the photo is turned (no winning tile set apart); "
        "assumed the rows read top to bottom.",
        "zh": "看不出照片的方向（没有单独放开的和张）；已按从上到下读牌。",
        "zh-Hant": "看不出照片的方向（沒有單獨放開的和張）；已按從上到下讀牌。",
    },
    "tile_sides": {
        "en": "Ignored {n} box(es) in the hand row read as a tile's back: the side of a tile "
        "set apart, one tile more than the hand holds.",
        "zh": "忽略了手牌中 {n} 个被认作牌背的框：那是放开的牌的侧面，比手牌多出一张。",
        "zh-Hant": "忽略了手牌中 {n} 個被認作牌背的框：那是放開的牌的側面，比手牌多出一張。",
    },
    "duplicate_boxes": {
        "en": "Ignored {n} box(es) found twice on the same tile.",
        "zh": "忽略了 {n} 个在同一张牌上重复找到的框。",
        "zh-Hant": "忽略了 {n} 個在同一張牌上重複找到的框。",
    },
    "meld_touches": {
        "en": "A meld touches other tiles; check how it was read (leave a gap between melds "
        "and the hand).",
        "zh": "有一组副露和别的牌挨在一起；请检查识别结果（副露和手牌之间请留空隙）。",
        "zh-Hant": "有一組副露和別的牌挨在一起；請檢查辨識結果（副露和手牌之間請留空隙）。",
    },
    "melds_unread": {
        "en": "Could not read {n} tiles with a sideways one as melds; leave a gap between "
        "melds and the hand.",
        "zh": "无法把含横放牌的 {n} 张牌读成副露；副露和手牌之间请留空隙。",
        "zh-Hant": "無法把含橫放牌的 {n} 張牌讀成副露；副露和手牌之間請留空隙。",
    },
    "kong_unnamed": {
        "en": "A concealed kong lies all face down: turn its middle two tiles up or name the tile.",
        "zh": "有一组暗杠全部扣着：请把中间两张翻开，或指明是哪张牌。",
        "zh-Hant": "有一組暗槓全部扣著：請把中間兩張翻開，或指明是哪張牌。",
    },
    "kong_short": {
        "en": "Took 3 tiles with face-down ones for a concealed kong whose fourth tile the "
        "photo does not show; check it.",
        "zh": "已把含扣牌的 3 张牌当作暗杠，照片里看不到第四张；请检查。",
        "zh-Hant": "已把含扣牌的 3 張牌當作暗槓，照片裡看不到第四張；請檢查。",
    },
    "kong_size": {
        "en": "{n} tiles with face-down ones lie together; a concealed kong is 4 tiles.",
        "zh": "有 {n} 张含扣牌的牌放在一起；暗杠是 4 张牌。",
        "zh-Hant": "有 {n} 張含扣牌的牌放在一起；暗槓是 4 張牌。",
    },
    "flowers_unread": {
        "en": "Counted {n} tile(s) lying apart from the hand as flowers, though their faces "
        "were not read; check the flowers.",
        "zh": "已把手牌外的 {n} 张牌算作花牌，但没有认出牌面；请检查花牌。",
        "zh-Hant": "已把手牌外的 {n} 張牌算作花牌，但沒有認出牌面；請檢查花牌。",
    },
    "flowers_unread.row": {
        "en": "Counted a row of {n} tiles as the flowers, though their faces were not read: "
        "the hand is whole without them; check the flowers.",
        "zh": "已把一排 {n} 张牌算作花牌，但没有认出牌面（没有它们手牌已完整）；请检查花牌。",
        "zh-Hant": "已把一排 {n} 張牌算作花牌，但沒有認出牌面（沒有它們手牌已完整）；請檢查花牌。",
    },
    # the decoding: the tiles under the rules
    "unplaced": {
        "en": "Left out {n} tile(s) that could not be placed in the hand or a meld.",
        "zh": "有 {n} 张牌放不进手牌或副露，没有算进来。",
        "zh-Hant": "有 {n} 張牌放不進手牌或副露，沒有算進來。",
    },
    "meld_size": {
        "en": "A meld must have 3 or 4 tiles.",
        "zh": "一组副露必须是 3 张或 4 张牌。",
        "zh-Hant": "一組副露必須是 3 張或 4 張牌。",
    },
    "too_many_melds": {
        "en": "{n} melds found; a hand has at most 4.",
        "zh": "找到 {n} 组副露；一手牌最多 4 组。",
        "zh-Hant": "找到 {n} 組副露；一手牌最多 4 組。",
    },
    "meld_shape": {
        "en": "A meld's tiles do not look like a chow, pung or kong.",
        "zh": "有一组副露的牌不像吃、碰或杠。",
        "zh-Hant": "有一組副露的牌不像吃、碰或槓。",
    },
    "waiting_hand": {
        "en": "Found {have} tiles besides {melds} meld(s): a waiting hand, not yet a win.",
        "zh": "除 {melds} 组副露外找到 {have} 张牌：这是听牌，还没有和。",
        "zh-Hant": "除 {melds} 組副露外找到 {have} 張牌：這是聽牌，還沒有和。",
    },
    "tile_count": {
        "en": "Found {have} tiles in the hand besides {melds} meld(s); a winning hand needs "
        "{need}. Check for hidden or doubly counted tiles.",
        "zh": "除 {melds} 组副露外手牌有 {have} 张；和牌需要 {need} 张。请检查是否有被挡住或"
        "重复计算的牌。",
        "zh-Hant": "除 {melds} 組副露外手牌有 {have} 張；和牌需要 {need} 張。請檢查是否有被擋住"
        "或重複計算的牌。",
    },
    "no_close_hand": {
        "en": "No complete winning hand is close to what the tiles look like; kept the first "
        "reading of every tile.",
        "zh": "没有与这些牌相近的完整和牌；每张牌都保留最初的识别。",
        "zh-Hant": "沒有與這些牌相近的完整和牌；每張牌都保留最初的辨識。",
    },
    "read_differently": {
        "en": "Some tiles were read differently to make a legal hand; please check the "
        "marked ones.",
        "zh": "为了组成合规的和牌，有些牌按另一种读法识别；请检查标出的牌。",
        "zh-Hant": "為了組成合規的和牌，有些牌按另一種讀法辨識；請檢查標出的牌。",
    },
    # the photo as a whole
    "flower_twice": {
        "en": "The same flower tile appears twice; each flower exists once.",
        "zh": "同一张花牌出现了两次；每张花牌只有一张。",
        "zh-Hant": "同一張花牌出現了兩次；每張花牌只有一張。",
    },
    "no_tiles": {
        "en": "No tiles were found in the photo.",
        "zh": "照片里没有找到牌。",
        "zh-Hant": "照片裡沒有找到牌。",
    },
    "hand_at_edge": {
        "en": "{n} tile(s) of the hand reach the photo's edge and may be cut off: take the "
        "photo again with the whole hand in view.",
        "zh": "手牌中有 {n} 张牌碰到照片边缘，可能没拍全：请重拍，把整副手牌拍进去。",
        "zh-Hant": "手牌中有 {n} 張牌碰到照片邊緣，可能沒拍全：請重拍，把整副手牌拍進去。",
    },
    "no_hand_among": {
        "en": "No group of tiles in the photo makes a complete hand: tap the group that is "
        "the hand, or fix its tiles.",
        "zh": "照片里没有一组牌是完整的和牌：请点一下手牌那一组，或改正其中的牌。",
        "zh-Hant": "照片裡沒有一組牌是完整的和牌：請點一下手牌那一組，或改正其中的牌。",
    },
}


@dataclass(frozen=True)
class Note:
    """One note on a reading: its message id and parameters (hashable, so a layout with
    its notes can be told from another)."""

    id: str
    params: tuple[tuple[str, int | str], ...] = ()

    def text(self, lang: str = DEFAULT_LANG) -> str:
        """The note in `lang` (any tag `pick_lang` reads)."""
        return text_of(self.id, dict(self.params), lang)

    def __str__(self) -> str:
        return self.text()

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "params": dict(self.params)}


def note(message_id: str, /, **params: int | str) -> Note:
    """A note with its parameters, e.g. `note("left_out", n=3)`."""
    if message_id not in MESSAGES:
        raise KeyError(f"no such note: {message_id}")
    return Note(message_id, tuple(sorted(params.items())))


def text_of(message_id: str, params: Mapping[str, Any], lang: str = DEFAULT_LANG) -> str:
    """A note's text in `lang`; an id not in the catalogue still says what it is."""
    texts = MESSAGES.get(message_id)
    if texts is None:
        return f"{message_id}: {dict(params)}" if params else message_id
    try:
        return texts.get(pick_lang(lang), texts[DEFAULT_LANG]).format(**params)
    except (KeyError, IndexError, ValueError):  # parameters that do not fit the text
        return texts[DEFAULT_LANG] if "{" not in texts[DEFAULT_LANG] else message_id


def in_lang(result: dict[str, Any], lang: str) -> dict[str, Any]:
    """The recognition result with its `warnings` worded in `lang` (from its `notes`)."""
    notes = result.get("notes")
    if not isinstance(notes, list) or not all(isinstance(n, dict) for n in notes):
        return result  # no notes to word: the result as it came
    words = [text_of(n.get("id", ""), n.get("params") or {}, lang) for n in notes]
    return {**result, "warnings": words}


def all_texts(entry: Mapping[str, Any]) -> dict[str, str]:
    """A note of a result (`{"id", "params"}`) in every language, for a page that switches."""
    return {lang: text_of(entry.get("id", ""), entry.get("params") or {}, lang) for lang in LANGS}
