"""The rulebook: the 81 fans of the 1998 Chinese Official rules, each once.

Numbers, names, points and exclusions follow the fan table and the detailed
definitions (番种释义) of the rules documents. `excludes` lists the fans a
fan makes impossible to count again (不计, the 不重复 principle); where the
definitions only exclude part of a fan (幺九刻 of the pungs that make 大三元,
小三元, 双箭刻, 三风刻, 箭刻, 圈风刻, 门风刻, one 幺九刻 of 九莲宝灯) the engine
applies that per set, so 幺九刻 is not listed for those fans here (nor for
小四喜, whose 不计幺九刻 covers its three wind pungs only, by the same rule).

A few exclusions are not written in the definitions but follow from the
不重复 principle itself (satisfying A always satisfies B): they are marked
"implied" below so the two sources stay distinguishable.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Fan:
    """One fan: `id` is its number 1-81 in the seeds' fan table."""

    id: int
    name_zh: str
    name_en: str
    points: int
    excludes: tuple[int, ...] = ()
    #: fans it excludes only for its own sets (幺九刻 of the pungs it is made of)
    partly_excludes: tuple[int, ...] = ()

    @property
    def name_zh_hant(self) -> str:
        """The name in traditional characters, as the rules documents write it."""
        return NAMES_ZH_HANT[self.id - 1]


def _fan(i: int, zh: str, en: str, pts: int, *excl: int) -> Fan:
    return Fan(i, zh, en, pts, tuple(excl))


_TABLE: tuple[Fan, ...] = (
    _fan(1, "大四喜", "Big Four Winds", 88, 38, 48, 60, 61, 73),
    _fan(2, "大三元", "Big Three Dragons", 88, 54, 59),
    _fan(3, "绿一色", "All Green", 88, 49),
    _fan(4, "九莲宝灯", "Nine Gates", 88, 22, 56, 62, 76),
    _fan(5, "四杠", "Four Kongs", 88, 48, 79, 17),  # 17 implied
    _fan(6, "连七对", "Seven Shifted Pairs", 88, 22, 19, 56, 62, 76, 79),
    _fan(7, "十三幺", "Thirteen Orphans", 88, 18, 51, 56, 62, 79),
    _fan(8, "清幺九", "All Terminals", 64, 48, 55, 65, 73, 76, 18),  # 18 implied
    _fan(9, "小四喜", "Little Four Winds", 64, 38),
    _fan(10, "小三元", "Little Three Dragons", 64, 54, 59),
    _fan(11, "字一色", "All Honors", 64, 48, 55, 73, 18),  # 18 implied
    _fan(12, "四暗刻", "Four Concealed Pungs", 64, 48, 56, 62),
    _fan(13, "一色双龙会", "Pure Terminal Chows", 64, 19, 22, 63, 69, 72, 76),
    _fan(14, "一色四同顺", "Quadruple Chow", 48, 23, 24, 64, 69),
    _fan(15, "一色四节高", "Four Pure Shifted Pungs", 48, 23, 24, 48),
    _fan(16, "一色四步高", "Four Pure Shifted Chows", 32, 30, 71, 72),
    _fan(17, "三杠", "Three Kongs", 32),
    _fan(18, "混幺九", "All Terminals and Honors", 32, 48, 55, 73),
    _fan(19, "七对", "Seven Pairs", 24, 62, 79, 56),  # 56 from the fan table
    _fan(20, "七星不靠", "Greater Honors and Knitted Tiles", 24, 34, 51, 56, 62),
    _fan(21, "全双刻", "All Even Pungs", 24, 48, 68, 76),
    _fan(22, "清一色", "Full Flush", 24, 76),
    _fan(23, "一色三同顺", "Pure Triple Chow", 24, 24, 69),
    _fan(24, "一色三节高", "Pure Shifted Pungs", 24, 23),
    _fan(25, "全大", "Upper Tiles", 24, 36, 76),
    _fan(26, "全中", "Middle Tiles", 24, 68, 76),
    _fan(27, "全小", "Lower Tiles", 24, 37, 76),
    _fan(28, "清龙", "Pure Straight", 16, 71, 72),
    _fan(29, "三色双龙会", "Three-Suited Terminal Chows", 16, 63, 72, 70, 76),
    _fan(30, "一色三步高", "Pure Shifted Chows", 16),
    _fan(31, "全带五", "All Fives", 16, 68, 76),
    _fan(32, "三同刻", "Triple Pung", 16, 65),
    _fan(33, "三暗刻", "Three Concealed Pungs", 16),
    _fan(34, "全不靠", "Lesser Honors and Knitted Tiles", 12, 51, 56, 62),
    _fan(35, "组合龙", "Knitted Straight", 12),
    _fan(36, "大于五", "Upper Four", 12, 76),
    _fan(37, "小于五", "Lower Four", 12, 76),
    _fan(38, "三风刻", "Big Three Winds", 12),
    _fan(39, "花龙", "Mixed Straight", 8),
    _fan(40, "推不倒", "Reversible Tiles", 8, 75),
    _fan(41, "三色三同顺", "Mixed Triple Chow", 8, 70),
    _fan(42, "三色三节高", "Mixed Shifted Pungs", 8),
    _fan(43, "无番和", "Chicken Hand", 8),
    _fan(44, "妙手回春", "Last Tile Draw", 8, 80),
    _fan(45, "海底捞月", "Last Tile Claim", 8),
    _fan(46, "杠上开花", "Out with Replacement Tile", 8, 80),
    _fan(47, "抢杠和", "Robbing the Kong", 8, 58),
    _fan(48, "碰碰和", "All Pungs", 6),
    _fan(49, "混一色", "Half Flush", 6),
    _fan(50, "三色三步高", "Mixed Shifted Chows", 6),
    _fan(51, "五门齐", "All Types", 6),
    _fan(52, "全求人", "Melded Hand", 6, 79),
    _fan(53, "双暗杠", "Two Concealed Kongs", 6, 66),  # 66 implied
    _fan(54, "双箭刻", "Two Dragon Pungs", 6, 59),
    _fan(55, "全带幺", "Outside Hand", 4),
    _fan(56, "不求人", "Fully Concealed Hand", 4, 80, 62),  # 62 implied (it needs a discard)
    _fan(57, "双明杠", "Two Melded Kongs", 4),
    _fan(58, "和绝张", "Last Tile", 4),
    _fan(59, "箭刻", "Dragon Pung", 2),
    _fan(60, "圈风刻", "Prevalent Wind", 2),
    _fan(61, "门风刻", "Seat Wind", 2),
    _fan(62, "门前清", "Concealed Hand", 2),
    _fan(63, "平和", "All Chows", 2, 76),
    _fan(64, "四归一", "Tile Hog", 2),
    _fan(65, "双同刻", "Double Pung", 2),
    _fan(66, "双暗刻", "Two Concealed Pungs", 2),
    _fan(67, "暗杠", "Concealed Kong", 2),
    _fan(68, "断幺", "All Simples", 2, 76),
    _fan(69, "一般高", "Pure Double Chow", 1),
    _fan(70, "喜相逢", "Mixed Double Chow", 1),
    _fan(71, "连六", "Short Straight", 1),
    _fan(72, "老少副", "Two Terminal Chows", 1),
    _fan(73, "幺九刻", "Pung of Terminals or Honors", 1),
    _fan(74, "明杠", "Melded Kong", 1),
    _fan(75, "缺一门", "One Voided Suit", 1),
    _fan(76, "无字", "No Honors", 1),
    _fan(77, "边张", "Edge Wait", 1),
    _fan(78, "坎张", "Closed Wait", 1),
    _fan(79, "单钓将", "Single Wait", 1),
    _fan(80, "自摸", "Self-Drawn", 1),
    _fan(81, "花牌", "Flower Tiles", 1),
)

#: fans whose own pungs are not 幺九刻 (73), by their definitions
_PARTLY_73 = (2, 4, 9, 10, 38, 54, 59, 60, 61)
_TABLE = tuple(
    Fan(f.id, f.name_zh, f.name_en, f.points, f.excludes, (73,) if f.id in _PARTLY_73 else ())
    for f in _TABLE
)

FANS: dict[int, Fan] = {f.id: f for f in _TABLE}

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
for _f in _TABLE:
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
