"""Names for people in the three languages the product speaks: zh, zh-Hant, en.

The fan table (`scorer.fans`) carries the simplified and English fan names;
the traditional names are the ones of the rules documents themselves (the
fan definitions, 番种释义, are written in traditional characters), so a table
reading in traditional Chinese sees the rulebook's own words. Tile names
follow `scorer.tiles.CODES` index by index.
"""

from __future__ import annotations

from scorer.tiles import CODES, ZH_NAMES

LANGS = ("zh", "zh-Hant", "en")

#: fan id -> its name in the rules documents (traditional characters)
FAN_NAMES_ZH_HANT: dict[int, str] = {
    1: "大四喜",
    2: "大三元",
    3: "綠一色",
    4: "九蓮寶燈",
    5: "四槓",
    6: "連七對",
    7: "十三幺",
    8: "清幺九",
    9: "小四喜",
    10: "小三元",
    11: "字一色",
    12: "四暗刻",
    13: "一色雙龍會",
    14: "一色四同順",
    15: "一色四節高",
    16: "一色四步高",
    17: "三槓",
    18: "混幺九",
    19: "七對",
    20: "七星不靠",
    21: "全雙刻",
    22: "清一色",
    23: "一色三同順",
    24: "一色三節高",
    25: "全大",
    26: "全中",
    27: "全小",
    28: "清龍",
    29: "三色雙龍會",
    30: "一色三步高",
    31: "全帶五",
    32: "三同刻",
    33: "三暗刻",
    34: "全不靠",
    35: "組合龍",
    36: "大於五",
    37: "小於五",
    38: "三風刻",
    39: "花龍",
    40: "推不倒",
    41: "三色三同順",
    42: "三色三節高",
    43: "無番和",
    44: "妙手回春",
    45: "海底撈月",
    46: "槓上開花",
    47: "搶槓和",
    48: "碰碰和",
    49: "混一色",
    50: "三色三步高",
    51: "五門齊",
    52: "全求人",
    53: "雙暗槓",
    54: "雙箭刻",
    55: "全帶幺",
    56: "不求人",
    57: "雙明槓",
    58: "和絕張",
    59: "箭刻",
    60: "圈風刻",
    61: "門風刻",
    62: "門前清",
    63: "平和",
    64: "四歸一",
    65: "雙同刻",
    66: "雙暗刻",
    67: "暗槓",
    68: "斷幺",
    69: "一般高",
    70: "喜相逢",
    71: "連六",
    72: "老少副",
    73: "幺九刻",
    74: "明槓",
    75: "缺一門",
    76: "無字",
    77: "邊張",
    78: "坎張",
    79: "單釣",
    80: "自摸",
    81: "花牌",
}

ZH_HANT_TILE_NAMES: tuple[str, ...] = (
    tuple(f"{n}萬" for n in "一二三四五六七八九")
    + tuple(f"{n}餅" for n in "一二三四五六七八九")
    + tuple(f"{n}條" for n in "一二三四五六七八九")
    + ("東", "南", "西", "北", "中", "發", "白")
    + ("梅", "蘭", "菊", "竹", "春", "夏", "秋", "冬")
    + ("牌背",)
)

EN_TILE_NAMES: tuple[str, ...] = (
    tuple(f"{n} Characters" for n in range(1, 10))
    + tuple(f"{n} Dots" for n in range(1, 10))
    + tuple(f"{n} Bamboo" for n in range(1, 10))
    + ("East", "South", "West", "North", "Red", "Green", "White")
    + ("Plum", "Orchid", "Chrysanthemum", "Bamboo", "Spring", "Summer", "Autumn", "Winter")
    + ("Face down",)
)

#: language -> tile names in `CODES` order
TILE_NAMES: dict[str, tuple[str, ...]] = {
    "zh": ZH_NAMES,
    "zh-Hant": ZH_HANT_TILE_NAMES,
    "en": EN_TILE_NAMES,
}

assert all(len(names) == len(CODES) for names in TILE_NAMES.values())


def fan_name(fan_id: int, name_zh: str, name_en: str, lang: str) -> str:
    """A fan's name in `lang` (the table gives zh and en; the rules documents zh-Hant)."""
    if lang == "zh-Hant":
        return FAN_NAMES_ZH_HANT.get(fan_id, name_zh)
    return name_zh if lang == "zh" else name_en
