"""The rulebook: the 81 fans of the 1998 Chinese Official rules, each once.

Numbers, names, points and exclusions follow the fan table and the detailed
definitions (番种释义) of the rules documents, one row per fan in `_TABLE`;
the engine names a fan by its constant (`FanId.PURE_TRIPLE_CHOW`, made from
the table) and reads its points and exclusions from here.

- `excludes`: the fans it makes impossible to count again (不计, the 不重复
  principle), as the definitions write them;
- `implied`: exclusions the definitions leave unwritten but that follow from
  不重复 itself (satisfying A always satisfies B), kept apart so the two
  sources stay distinguishable; `Fan.excludes` holds both;
- `partly_excludes`: fans it excludes only for its own sets: 幺九刻 of the
  pungs that make 大四喜, 大三元, 小四喜, 小三元, 三风刻, 双箭刻, 箭刻, 圈风刻,
  门风刻, and of at most `partly_sets` of them (九莲宝灯: one). The engine
  applies it pung by pung, so 幺九刻 is not in `excludes` for those fans.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


@dataclass(frozen=True)
class Fan:
    """One fan: `id` is its number 1-81 in the seeds' fan table, `key` its constant's name."""

    id: int
    key: str
    name_zh: str
    name_en: str
    points: int
    #: the fans it excludes (不计), written and implied
    excludes: tuple[int, ...] = ()
    #: the part of `excludes` implied by the 不重复 principle rather than written
    implied: tuple[int, ...] = ()
    #: fans it excludes only for its own sets (幺九刻 of the pungs it is made of)
    partly_excludes: tuple[int, ...] = ()
    #: how many of its sets `partly_excludes` covers; 0: all of them
    partly_sets: int = 0

    @property
    def name_zh_hant(self) -> str:
        """The name in traditional characters, as the rules documents write it."""
        return NAMES_ZH_HANT[self.id - 1]


@dataclass(frozen=True)
class _Row:
    """A fan as the table writes it: other fans by their constant's name."""

    key: str
    id: int
    name_zh: str
    name_en: str
    points: int
    excludes: tuple[str, ...]
    implied: tuple[str, ...]
    partly_excludes: tuple[str, ...]
    partly_sets: int


def _fan(
    key: str,
    number: int,
    zh: str,
    en: str,
    *,
    points: int,
    excludes: tuple[str, ...] = (),
    implied: tuple[str, ...] = (),
    partly_excludes: tuple[str, ...] = (),
    partly_sets: int = 0,
) -> _Row:
    return _Row(key, number, zh, en, points, excludes, implied, partly_excludes, partly_sets)


_TABLE: tuple[_Row, ...] = (
    _fan(
        "BIG_FOUR_WINDS",
        1,
        "大四喜",
        "Big Four Winds",
        points=88,
        excludes=(
            "BIG_THREE_WINDS",
            "ALL_PUNGS",
            "PREVALENT_WIND",
            "SEAT_WIND",
            "PUNG_OF_TERMINALS_OR_HONORS",
        ),
        partly_excludes=("PUNG_OF_TERMINALS_OR_HONORS",),
    ),
    _fan(
        "BIG_THREE_DRAGONS",
        2,
        "大三元",
        "Big Three Dragons",
        points=88,
        excludes=("TWO_DRAGON_PUNGS", "DRAGON_PUNG"),
        partly_excludes=("PUNG_OF_TERMINALS_OR_HONORS",),
    ),
    _fan("ALL_GREEN", 3, "绿一色", "All Green", points=88, excludes=("HALF_FLUSH",)),
    _fan(
        "NINE_GATES",
        4,
        "九莲宝灯",
        "Nine Gates",
        points=88,
        excludes=("FULL_FLUSH", "FULLY_CONCEALED_HAND", "CONCEALED_HAND", "NO_HONORS"),
        partly_excludes=("PUNG_OF_TERMINALS_OR_HONORS",),
        partly_sets=1,
    ),
    _fan(
        "FOUR_KONGS",
        5,
        "四杠",
        "Four Kongs",
        points=88,
        excludes=("ALL_PUNGS", "SINGLE_WAIT"),
        implied=("THREE_KONGS",),
    ),
    _fan(
        "SEVEN_SHIFTED_PAIRS",
        6,
        "连七对",
        "Seven Shifted Pairs",
        points=88,
        excludes=(
            "FULL_FLUSH",
            "SEVEN_PAIRS",
            "FULLY_CONCEALED_HAND",
            "CONCEALED_HAND",
            "NO_HONORS",
            "SINGLE_WAIT",
        ),
    ),
    _fan(
        "THIRTEEN_ORPHANS",
        7,
        "十三幺",
        "Thirteen Orphans",
        points=88,
        excludes=(
            "ALL_TERMINALS_AND_HONORS",
            "ALL_TYPES",
            "FULLY_CONCEALED_HAND",
            "CONCEALED_HAND",
            "SINGLE_WAIT",
        ),
    ),
    _fan(
        "ALL_TERMINALS",
        8,
        "清幺九",
        "All Terminals",
        points=64,
        excludes=(
            "ALL_PUNGS",
            "OUTSIDE_HAND",
            "DOUBLE_PUNG",
            "PUNG_OF_TERMINALS_OR_HONORS",
            "NO_HONORS",
        ),
        implied=("ALL_TERMINALS_AND_HONORS",),
    ),
    _fan(
        "LITTLE_FOUR_WINDS",
        9,
        "小四喜",
        "Little Four Winds",
        points=64,
        excludes=("BIG_THREE_WINDS",),
        partly_excludes=("PUNG_OF_TERMINALS_OR_HONORS",),
    ),
    _fan(
        "LITTLE_THREE_DRAGONS",
        10,
        "小三元",
        "Little Three Dragons",
        points=64,
        excludes=("TWO_DRAGON_PUNGS", "DRAGON_PUNG"),
        partly_excludes=("PUNG_OF_TERMINALS_OR_HONORS",),
    ),
    _fan(
        "ALL_HONORS",
        11,
        "字一色",
        "All Honors",
        points=64,
        excludes=("ALL_PUNGS", "OUTSIDE_HAND", "PUNG_OF_TERMINALS_OR_HONORS"),
        implied=("ALL_TERMINALS_AND_HONORS",),
    ),
    _fan(
        "FOUR_CONCEALED_PUNGS",
        12,
        "四暗刻",
        "Four Concealed Pungs",
        points=64,
        excludes=("ALL_PUNGS", "FULLY_CONCEALED_HAND", "CONCEALED_HAND"),
    ),
    _fan(
        "PURE_TERMINAL_CHOWS",
        13,
        "一色双龙会",
        "Pure Terminal Chows",
        points=64,
        excludes=(
            "SEVEN_PAIRS",
            "FULL_FLUSH",
            "ALL_CHOWS",
            "PURE_DOUBLE_CHOW",
            "TWO_TERMINAL_CHOWS",
            "NO_HONORS",
        ),
    ),
    _fan(
        "QUADRUPLE_CHOW",
        14,
        "一色四同顺",
        "Quadruple Chow",
        points=48,
        excludes=("PURE_TRIPLE_CHOW", "PURE_SHIFTED_PUNGS", "TILE_HOG", "PURE_DOUBLE_CHOW"),
    ),
    _fan(
        "FOUR_PURE_SHIFTED_PUNGS",
        15,
        "一色四节高",
        "Four Pure Shifted Pungs",
        points=48,
        excludes=("PURE_TRIPLE_CHOW", "PURE_SHIFTED_PUNGS", "ALL_PUNGS"),
    ),
    _fan(
        "FOUR_PURE_SHIFTED_CHOWS",
        16,
        "一色四步高",
        "Four Pure Shifted Chows",
        points=32,
        excludes=("PURE_SHIFTED_CHOWS", "SHORT_STRAIGHT", "TWO_TERMINAL_CHOWS"),
    ),
    _fan("THREE_KONGS", 17, "三杠", "Three Kongs", points=32),
    _fan(
        "ALL_TERMINALS_AND_HONORS",
        18,
        "混幺九",
        "All Terminals and Honors",
        points=32,
        excludes=("ALL_PUNGS", "OUTSIDE_HAND", "PUNG_OF_TERMINALS_OR_HONORS"),
    ),
    # FULLY_CONCEALED_HAND from the fan table
    _fan(
        "SEVEN_PAIRS",
        19,
        "七对",
        "Seven Pairs",
        points=24,
        excludes=("CONCEALED_HAND", "SINGLE_WAIT", "FULLY_CONCEALED_HAND"),
    ),
    _fan(
        "GREATER_HONORS_AND_KNITTED_TILES",
        20,
        "七星不靠",
        "Greater Honors and Knitted Tiles",
        points=24,
        excludes=(
            "LESSER_HONORS_AND_KNITTED_TILES",
            "ALL_TYPES",
            "FULLY_CONCEALED_HAND",
            "CONCEALED_HAND",
        ),
    ),
    _fan(
        "ALL_EVEN_PUNGS",
        21,
        "全双刻",
        "All Even Pungs",
        points=24,
        excludes=("ALL_PUNGS", "ALL_SIMPLES", "NO_HONORS"),
    ),
    _fan("FULL_FLUSH", 22, "清一色", "Full Flush", points=24, excludes=("NO_HONORS",)),
    _fan(
        "PURE_TRIPLE_CHOW",
        23,
        "一色三同顺",
        "Pure Triple Chow",
        points=24,
        excludes=("PURE_SHIFTED_PUNGS", "PURE_DOUBLE_CHOW"),
    ),
    _fan(
        "PURE_SHIFTED_PUNGS",
        24,
        "一色三节高",
        "Pure Shifted Pungs",
        points=24,
        excludes=("PURE_TRIPLE_CHOW",),
    ),
    _fan("UPPER_TILES", 25, "全大", "Upper Tiles", points=24, excludes=("UPPER_FOUR", "NO_HONORS")),
    _fan(
        "MIDDLE_TILES", 26, "全中", "Middle Tiles", points=24, excludes=("ALL_SIMPLES", "NO_HONORS")
    ),
    _fan("LOWER_TILES", 27, "全小", "Lower Tiles", points=24, excludes=("LOWER_FOUR", "NO_HONORS")),
    _fan(
        "PURE_STRAIGHT",
        28,
        "清龙",
        "Pure Straight",
        points=16,
        excludes=("SHORT_STRAIGHT", "TWO_TERMINAL_CHOWS"),
    ),
    _fan(
        "THREE_SUITED_TERMINAL_CHOWS",
        29,
        "三色双龙会",
        "Three-Suited Terminal Chows",
        points=16,
        excludes=("ALL_CHOWS", "TWO_TERMINAL_CHOWS", "MIXED_DOUBLE_CHOW", "NO_HONORS"),
    ),
    _fan("PURE_SHIFTED_CHOWS", 30, "一色三步高", "Pure Shifted Chows", points=16),
    _fan("ALL_FIVES", 31, "全带五", "All Fives", points=16, excludes=("ALL_SIMPLES", "NO_HONORS")),
    _fan("TRIPLE_PUNG", 32, "三同刻", "Triple Pung", points=16, excludes=("DOUBLE_PUNG",)),
    _fan("THREE_CONCEALED_PUNGS", 33, "三暗刻", "Three Concealed Pungs", points=16),
    _fan(
        "LESSER_HONORS_AND_KNITTED_TILES",
        34,
        "全不靠",
        "Lesser Honors and Knitted Tiles",
        points=12,
        excludes=("ALL_TYPES", "FULLY_CONCEALED_HAND", "CONCEALED_HAND"),
    ),
    _fan("KNITTED_STRAIGHT", 35, "组合龙", "Knitted Straight", points=12),
    _fan("UPPER_FOUR", 36, "大于五", "Upper Four", points=12, excludes=("NO_HONORS",)),
    _fan("LOWER_FOUR", 37, "小于五", "Lower Four", points=12, excludes=("NO_HONORS",)),
    _fan(
        "BIG_THREE_WINDS",
        38,
        "三风刻",
        "Big Three Winds",
        points=12,
        partly_excludes=("PUNG_OF_TERMINALS_OR_HONORS",),
    ),
    _fan("MIXED_STRAIGHT", 39, "花龙", "Mixed Straight", points=8),
    _fan(
        "REVERSIBLE_TILES",
        40,
        "推不倒",
        "Reversible Tiles",
        points=8,
        excludes=("ONE_VOIDED_SUIT",),
    ),
    _fan(
        "MIXED_TRIPLE_CHOW",
        41,
        "三色三同顺",
        "Mixed Triple Chow",
        points=8,
        excludes=("MIXED_DOUBLE_CHOW",),
    ),
    _fan("MIXED_SHIFTED_PUNGS", 42, "三色三节高", "Mixed Shifted Pungs", points=8),
    _fan("CHICKEN_HAND", 43, "无番和", "Chicken Hand", points=8),
    _fan("LAST_TILE_DRAW", 44, "妙手回春", "Last Tile Draw", points=8, excludes=("SELF_DRAWN",)),
    _fan("LAST_TILE_CLAIM", 45, "海底捞月", "Last Tile Claim", points=8),
    _fan(
        "OUT_WITH_REPLACEMENT_TILE",
        46,
        "杠上开花",
        "Out with Replacement Tile",
        points=8,
        excludes=("SELF_DRAWN",),
    ),
    _fan("ROBBING_THE_KONG", 47, "抢杠和", "Robbing the Kong", points=8, excludes=("LAST_TILE",)),
    _fan("ALL_PUNGS", 48, "碰碰和", "All Pungs", points=6),
    _fan("HALF_FLUSH", 49, "混一色", "Half Flush", points=6),
    _fan("MIXED_SHIFTED_CHOWS", 50, "三色三步高", "Mixed Shifted Chows", points=6),
    _fan("ALL_TYPES", 51, "五门齐", "All Types", points=6),
    _fan("MELDED_HAND", 52, "全求人", "Melded Hand", points=6, excludes=("SINGLE_WAIT",)),
    _fan(
        "TWO_CONCEALED_KONGS",
        53,
        "双暗杠",
        "Two Concealed Kongs",
        points=6,
        implied=("TWO_CONCEALED_PUNGS",),
    ),
    _fan(
        "TWO_DRAGON_PUNGS",
        54,
        "双箭刻",
        "Two Dragon Pungs",
        points=6,
        excludes=("DRAGON_PUNG",),
        partly_excludes=("PUNG_OF_TERMINALS_OR_HONORS",),
    ),
    _fan("OUTSIDE_HAND", 55, "全带幺", "Outside Hand", points=4),
    _fan(
        "FULLY_CONCEALED_HAND",
        56,
        "不求人",
        "Fully Concealed Hand",
        points=4,
        excludes=("SELF_DRAWN",),
        implied=("CONCEALED_HAND",),
    ),
    _fan("TWO_MELDED_KONGS", 57, "双明杠", "Two Melded Kongs", points=4),
    _fan("LAST_TILE", 58, "和绝张", "Last Tile", points=4),
    _fan(
        "DRAGON_PUNG",
        59,
        "箭刻",
        "Dragon Pung",
        points=2,
        partly_excludes=("PUNG_OF_TERMINALS_OR_HONORS",),
    ),
    _fan(
        "PREVALENT_WIND",
        60,
        "圈风刻",
        "Prevalent Wind",
        points=2,
        partly_excludes=("PUNG_OF_TERMINALS_OR_HONORS",),
    ),
    _fan(
        "SEAT_WIND",
        61,
        "门风刻",
        "Seat Wind",
        points=2,
        partly_excludes=("PUNG_OF_TERMINALS_OR_HONORS",),
    ),
    _fan("CONCEALED_HAND", 62, "门前清", "Concealed Hand", points=2),
    _fan("ALL_CHOWS", 63, "平和", "All Chows", points=2, excludes=("NO_HONORS",)),
    _fan("TILE_HOG", 64, "四归一", "Tile Hog", points=2),
    _fan("DOUBLE_PUNG", 65, "双同刻", "Double Pung", points=2),
    _fan("TWO_CONCEALED_PUNGS", 66, "双暗刻", "Two Concealed Pungs", points=2),
    _fan("CONCEALED_KONG", 67, "暗杠", "Concealed Kong", points=2),
    _fan("ALL_SIMPLES", 68, "断幺", "All Simples", points=2, excludes=("NO_HONORS",)),
    _fan("PURE_DOUBLE_CHOW", 69, "一般高", "Pure Double Chow", points=1),
    _fan("MIXED_DOUBLE_CHOW", 70, "喜相逢", "Mixed Double Chow", points=1),
    _fan("SHORT_STRAIGHT", 71, "连六", "Short Straight", points=1),
    _fan("TWO_TERMINAL_CHOWS", 72, "老少副", "Two Terminal Chows", points=1),
    _fan("PUNG_OF_TERMINALS_OR_HONORS", 73, "幺九刻", "Pung of Terminals or Honors", points=1),
    _fan("MELDED_KONG", 74, "明杠", "Melded Kong", points=1),
    _fan("ONE_VOIDED_SUIT", 75, "缺一门", "One Voided Suit", points=1),
    _fan("NO_HONORS", 76, "无字", "No Honors", points=1),
    _fan("EDGE_WAIT", 77, "边张", "Edge Wait", points=1),
    _fan("CLOSED_WAIT", 78, "坎张", "Closed Wait", points=1),
    _fan("SINGLE_WAIT", 79, "单钓将", "Single Wait", points=1),
    _fan("SELF_DRAWN", 80, "自摸", "Self-Drawn", points=1),
    _fan("FLOWER_TILES", 81, "花牌", "Flower Tiles", points=1),
)

#: every fan's constant: `FanId.ALL_GREEN == 3`, generated from the table
FanId = IntEnum("FanId", [(row.key, row.id) for row in _TABLE])


def _ids(keys: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(int(FanId[k]) for k in keys)


FANS: dict[int, Fan] = {
    row.id: Fan(
        row.id,
        row.key,
        row.name_zh,
        row.name_en,
        row.points,
        _ids(row.excludes + row.implied),
        _ids(row.implied),
        _ids(row.partly_excludes),
        row.partly_sets,
    )
    for row in _TABLE
}

#: the names in traditional characters (seed 001's spelling), by fan number from 1
NAMES_ZH_HANT: tuple[str, ...] = (
    "大四喜",
    "大三元",
    "綠一色",
    "九蓮寶燈",
    "四槓",
    "連七對",
    "十三幺",
    "清幺九",
    "小四喜",
    "小三元",
    "字一色",
    "四暗刻",
    "一色雙龍會",
    "一色四同順",
    "一色四節高",
    "一色四步高",
    "三槓",
    "混幺九",
    "七對",
    "七星不靠",
    "全雙刻",
    "清一色",
    "一色三同順",
    "一色三節高",
    "全大",
    "全中",
    "全小",
    "清龍",
    "三色雙龍會",
    "一色三步高",
    "全帶五",
    "三同刻",
    "三暗刻",
    "全不靠",
    "組合龍",
    "大於五",
    "小於五",
    "三風刻",
    "花龍",
    "推不倒",
    "三色三同順",
    "三色三節高",
    "無番和",
    "妙手回春",
    "海底撈月",
    "槓上開花",
    "搶槓和",
    "碰碰和",
    "混一色",
    "三色三步高",
    "五門齊",
    "全求人",
    "雙暗槓",
    "雙箭刻",
    "全帶幺",
    "不求人",
    "雙明槓",
    "和絕張",
    "箭刻",
    "圈風刻",
    "門風刻",
    "門前清",
    "平和",
    "四歸一",
    "雙同刻",
    "雙暗刻",
    "暗槓",
    "斷幺",
    "一般高",
    "喜相逢",
    "連六",
    "老少副",
    "幺九刻",
    "明槓",
    "缺一門",
    "無字",
    "邊張",
    "坎張",
    "單釣將",
    "自摸",
    "花牌",
)

#: traditional spellings and common alternative names that people type
_ALIASES: dict[str, int] = {
    "大四喜": 1,
    "大三元": 2,
    "綠一色": 3,
    "九蓮寶燈": 4,
    "四槓": 5,
    "連七對": 6,
    "十三么": 7,
    "清么九": 8,
    "字一色": 11,
    "一色雙龍會": 13,
    "一色四同順": 14,
    "一色四節高": 15,
    "一色四步高": 16,
    "三槓": 17,
    "混么九": 18,
    "七對": 19,
    "全雙刻": 21,
    "一色三同順": 23,
    "一色三節高": 24,
    "清龍": 28,
    "三色雙龍會": 29,
    "全帶五": 31,
    "組合龍": 35,
    "大於五": 36,
    "小於五": 37,
    "三風刻": 38,
    "花龍": 39,
    "三色三同順": 41,
    "三色三節高": 42,
    "無番和": 43,
    "妙手回春": 44,
    "海底撈月": 45,
    "槓上開花": 46,
    "搶槓和": 47,
    "五門齊": 51,
    "雙暗槓": 53,
    "雙箭刻": 54,
    "全帶么": 55,
    "全带么": 55,
    "雙明槓": 57,
    "和絕張": 58,
    "圈風刻": 60,
    "門風刻": 61,
    "門前清": 62,
    "四歸一": 64,
    "雙同刻": 65,
    "雙暗刻": 66,
    "暗槓": 67,
    "斷么": 68,
    "断么": 68,
    "一般高": 69,
    "連六": 71,
    "老少副": 72,
    "么九刻": 73,
    "明槓": 74,
    "缺一門": 75,
    "無字": 76,
    "邊張": 77,
    "坎張": 78,
    "嵌张": 78,
    "嵌張": 78,
    "单钓": 79,
    "單釣": 79,
    "單釣將": 79,
    "花牌": 81,
    "碰碰胡": 48,
    "无番胡": 43,
    "無番胡": 43,
}


def _key(name: str) -> str:
    return "".join(name.split()).casefold().replace("-", "").replace("_", "")


_BY_NAME: dict[str, Fan] = {}
for _f in FANS.values():
    _BY_NAME[_key(_f.name_zh)] = _f
    _BY_NAME[_key(_f.name_en)] = _f
    _BY_NAME.setdefault(_key(_f.name_zh_hant), _f)
for _alias, _id in _ALIASES.items():
    _BY_NAME.setdefault(_key(_alias), FANS[_id])


def fan_by_name(name: str) -> Fan:
    """Look a fan up by its Chinese (simplified or traditional) or English name.

    Case, spaces and hyphens are ignored; raises KeyError for an unknown name.
    """
    try:
        return _BY_NAME[_key(name)]
    except KeyError:
        raise KeyError(f"unknown fan name: {name!r}") from None
