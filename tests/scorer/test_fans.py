"""Every one of the 81 fans: a hand that has it and a near miss that does not.

Definitions cited as "001 #n" are fan n of the detailed definitions
(番种释义) in seed 001 (restated in seed 003). Hands are in the contract
notation; the last tile is the winning tile. Flags are situation fields
(self_drawn, kong, last_tile, fourth_tile, flowers, seat, round).
"""

from __future__ import annotations

import pytest

from scorer.fans import FANS, fan_by_name
from tests.scorer.fanhelp import fans, result

D = {"self_drawn": True}

# (fan id, hand with it, its flags, near miss without it, its flags, why the miss misses)
CASES: list[tuple[int, str, dict, str, dict, str]] = [
    (
        1,
        "EEESSSWWWNNN1m1m",
        {},
        "EEESSSWWW123mNN",
        {},
        "001 #1 needs four wind pungs; NN is a pair",
    ),
    (2, "CCCFFFPPP123m5p5p", {}, "CCCFFF123m456mPP", {}, "001 #2 needs three dragon pungs"),
    (3, "234s234s666s888sFF", {}, "234s234s666s888s5s5s", {}, "001 #3 5s is not green"),
    (
        4,
        "1112345678999m5m",
        {},
        "1112345567899m9m",
        {},
        "001 #4 the 13 tiles must be 1112345678999",
    ),
    (
        5,
        "[1111m,1][2222p,1][3333s,2][EEEE,3]5p5p",
        {},
        "[1111m,1][2222p,1][333s,2][EEEE,3]5p5p",
        {},
        "001 #5 three kongs only",
    ),
    (
        6,
        "11223344556677m",
        {},
        "11223344556688m",
        {},
        "001 #6 pairs must be seven consecutive ranks",
    ),
    (
        7,
        "19m19p19sESWNCFP1m",
        {},
        "111m999pEEESSS1s1s",
        {},
        "001 #7 one of each terminal and honor",
    ),
    (8, "111m999m111p999p1s1s", {}, "111m999m111p999pEE", {}, "001 #8 terminals only, no honors"),
    (9, "EEESSSWWW123mNN", {}, "EEESSSWWW123m5p5p", {}, "001 #9 the fourth wind must be the pair"),
    (
        10,
        "CCCFFF123m456mPP",
        {},
        "CCCFFF123m456m5p5p",
        {},
        "001 #10 the third dragon must be the pair",
    ),
    (11, "EEESSSWWWCCCFF", {}, "EEESSSWWWCCC1m1m", {}, "001 #11 honors only"),
    (
        12,
        "111m222p333s5m5m444s",
        D,
        "111m222p333s5m5m444s",
        {},
        "001 #12 on a discard the 444s pung is not concealed",
    ),
    (13, "123m123m789m789m5m5m", {}, "123m123m789m789m6m6m", {}, "001 #13 the pair must be the 5"),
    (14, "123m123m123m123m5p5p", {}, "123m123m123m234m5p5p", {}, "001 #14 four identical chows"),
    (
        15,
        "[111m,1][222m,1]333m444m5p5p",
        {},
        "[111m,1][222m,1]333m555m5p5p",
        {},
        "001 #15 four pungs rising by one",
    ),
    (
        16,
        "123m345m567m789m5p5p",
        {},
        "123m234m345m567m5p5p",
        {},
        "001 #16 steps must all be 1 or all 2",
    ),
    (
        17,
        "[1111m,1][2222p,1][3333s,2]EEE5p5p",
        {},
        "[1111m,1][2222p,1][333s,2]EEE5p5p",
        {},
        "001 #17 three kongs",
    ),
    (18, "111m999pEEESSS1s1s", {}, "111m789pEEESSS1s1s", {}, "001 #18 terminals and honors only"),
    (19, "11m22m33p44p55s66sEE", {}, "123m456p789s234m5s5s", {}, "001 #19 seven pairs"),
    (20, "147m258p3sESWNCFP", {}, "147m25p369sESWNCF", {}, "001 #20 all seven honors"),
    (
        21,
        "222m444m666p888s2s2s",
        {},
        "222m444m666p888s5s5s",
        {},
        "001 #21 even pungs and even pair",
    ),
    (22, "123m234m567m789m5m5m", {}, "123m234m567m789mEE", {}, "001 #22 one suit, no honors"),
    (
        23,
        "[123m,1]123m123m567p9s9s",
        {},
        "123m123m234m567p9s9s",
        {},
        "001 #23 three identical chows",
    ),
    (
        24,
        "[222m,1]333m444m567p9s9s",
        {},
        "[222m,1]333m555m567p9s9s",
        {},
        "001 #24 three pungs rising by one",
    ),
    (25, "789m789p789s777m8s8s", {}, "678m789p789s777m8s8s", {}, "001 #25 ranks 7-9 only"),
    (26, "456m456p456s444m5s5s", {}, "345m456p456s444m5s5s", {}, "001 #26 ranks 4-6 only"),
    (27, "123m123p123s111m2s2s", {}, "123m123p123s111m4s4s", {}, "001 #27 ranks 1-3 only"),
    (28, "123m456m789m123p5s5s", {}, "123m456m789p123p5s5s", {}, "001 #28 one suit 123 456 789"),
    (
        29,
        "123m789m123p789p5s5s",
        {},
        "123m789m123p789p6s6s",
        {},
        "001 #29 the pair must be 5 of the third suit",
    ),
    (
        30,
        "123m234m345m567p9s9s",
        {},
        "123m234m456m567p9s9s",
        {},
        "001 #30 three chows rising evenly",
    ),
    (
        31,
        "345m456p567s555m5s5s",
        {},
        "345m456p678s555m5s5s",
        {},
        "001 #31 a 5 in every set and the pair",
    ),
    (
        32,
        "222m222p222s567m9s9s",
        {},
        "222m222p333s567m9s9s",
        {},
        "001 #32 same rank in three suits",
    ),
    (
        33,
        "[123m,1]222m444p666s9s9s",
        D,
        "[123m,1]222m444p9s9s666s",
        {},
        "001 #33 a discard exposes the 666s pung",
    ),
    (34, "147m25p369sESWNCF", {}, "147m258p3sESWNCFP", {}, "001 #34 七星不靠 excludes 全不靠"),
    (
        35,
        "147m258p369s123m5s5s",
        {},
        "123m456p789s123m5s5s",
        {},
        "001 #35 147 258 369 of three suits",
    ),
    (36, "678m789p678s999m6s6s", {}, "567m789p678s999m6s6s", {}, "001 #36 ranks 6-9 only"),
    (37, "123m234p234s111m4s4s", {}, "123m234p345s111m4s4s", {}, "001 #37 ranks 1-4 only"),
    (38, "EEESSSWWW123m5p5p", {}, "EEESSS123m456m5p5p", {}, "001 #38 three wind pungs"),
    (
        39,
        "123m456p789s123m5s5s",
        {},
        "123m456p789p123m5s5s",
        {},
        "001 #39 123 456 789 in three suits",
    ),
    (40, "123p345p888s999sPP", {}, "123p345p777s999sPP", {}, "001 #40 7s is not reversible"),
    (
        41,
        "123m123p123s567m9s9s",
        {},
        "123m123p234s567m9s9s",
        {},
        "001 #41 same chow in three suits",
    ),
    (
        42,
        "222m333p444s567m9s9s",
        {},
        "222m333p555s567m9s9s",
        {},
        "001 #42 pungs rising by one in three suits",
    ),
    (
        43,
        "[234m,1][456p,1][777m,1]67sSS8s",
        {},
        "[234m,1][456p,1][777m,1]67sSS8s",
        D,
        "001 #43 自摸 is a fan",
    ),
    (
        44,
        "123m456p789s123m5s5s",
        {"self_drawn": True, "last_tile": True},
        "123m456p789s123m5s5s",
        {"last_tile": True},
        "001 #44 self-drawn",
    ),
    (
        45,
        "123m456p789s123m5s5s",
        {"last_tile": True},
        "123m456p789s123m5s5s",
        {"self_drawn": True, "last_tile": True},
        "001 #45 on a discard",
    ),
    (
        46,
        "123m456p789s123m5s5s",
        {"self_drawn": True, "kong": True},
        "123m456p789s123m5s5s",
        {"kong": True},
        "001 #46 self-drawn",
    ),
    (
        47,
        "123m456p789s123m5s5s",
        {"kong": True},
        "123m456p789s123m5s5s",
        {"self_drawn": True, "kong": True},
        "001 #47 on a discard",
    ),
    (48, "[111m,1]222p333s555sEE", {}, "[123m,1]222p333s555sEE", {}, "001 #48 four pungs"),
    (49, "123m456m789mEEE5m5m", {}, "123m456m789pEEE5m5m", {}, "001 #49 one suit plus honors"),
    (
        50,
        "123m234p345s567m9s9s",
        {},
        "123m234p456s567m9s9s",
        {},
        "001 #50 chows rising by one in three suits",
    ),
    (51, "123m456p789sEEECC", {}, "123m456p789sEEESS", {}, "001 #51 a dragon is missing"),
    (
        52,
        "[123m,1][456p,1][789s,2][EEE,2]CC",
        {},
        "[123m,1][456p,1][789s,2][EEE,2]CC",
        D,
        "001 #52 won on a discard",
    ),
    (
        53,
        "[1111m][2222p]345s678sEE",
        {},
        "[1111m][2222p,1]345s678sEE",
        {},
        "001 #53 two concealed kongs",
    ),
    (54, "CCCFFF123m456p9s9s", {}, "CCC123m456p789m9s9s", {}, "001 #54 two dragon pungs"),
    (55, "123m789p111sEEE9s9s", {}, "123m678p111sEEE9s9s", {}, "001 #55 678p has no terminal"),
    (56, "123m456p789s234m5s5s", D, "123m456p789s234m5s5s", {}, "001 #56 self-drawn"),
    (
        57,
        "[1111m,1][2222p,2]345s678sEE",
        {},
        "[1111m,1][2222p]345s678sEE",
        {},
        "001 #57 two melded kongs",
    ),
    (
        58,
        "123m456p789s234m5s5s",
        {"fourth_tile": True},
        "123m456p789s234m5s5s",
        {},
        "001 #58 last copy",
    ),
    (59, "CCC123m456p789m9s9s", {}, "EEE123m456p789m9s9s", {"seat": "S"}, "001 #59 a dragon pung"),
    (
        60,
        "SSS123m456p789m9s9s",
        {"round": "S"},
        "SSS123m456p789m9s9s",
        {"round": "E"},
        "001 #60 the prevalent wind",
    ),
    (
        61,
        "WWW123m456p789m9s9s",
        {"seat": "W"},
        "WWW123m456p789m9s9s",
        {"seat": "N"},
        "001 #61 the seat wind",
    ),
    (62, "123m456p789s234m5s5s", {}, "[123m,1]456p789s234m5s5s", {}, "001 #62 no claimed set"),
    (63, "123m456p789s234m5s5s", {}, "123m456p789s234mEE", {}, "001 #63 the pair must be suited"),
    (
        64,
        "111m123m456p789s9s9s",
        {},
        "[1111m,1]234m456p789s9s9s",
        {},
        "001 #64 four tiles not made a kong",
    ),
    (65, "222m222p567s789sEE", {}, "222m333p567s789sEE", {}, "001 #65 same rank in two suits"),
    (66, "222m444p567s789sEE", D, "[222m,1]444p567s789sEE", D, "001 #66 two concealed pungs"),
    (67, "[2222m]456p567s789sEE", {}, "[2222m,2]456p567s789sEE", {}, "001 #67 a concealed kong"),
    (68, "234m456p678s345m5s5s", {}, "234m456p789s345m5s5s", {}, "001 #68 9s is a terminal"),
    (69, "234m234m567p678s5s5s", {}, "234m345m567p678s5s5s", {}, "001 #69 two identical chows"),
    (70, "234m234p567p789sEE", {}, "234m345p567p789sEE", {}, "001 #70 same chow in two suits"),
    (71, "123m456m567p789sEE", {}, "123m567m567p789sEE", {}, "001 #71 six consecutive tiles"),
    (72, "123m789m456p567sEE", {}, "123m678m456p567sEE", {}, "001 #72 123 and 789 of one suit"),
    (73, "111m234p456p789sEE", {}, "222m234p456p789sEE", {}, "001 #73 a terminal pung"),
    (74, "[2222m,2]456p567s789sEE", {}, "[2222m]456p567s789sEE", {}, "001 #74 a melded kong"),
    (75, "123m456m789p234p5p5p", {}, "123m456m789p234s5p5p", {}, "001 #75 exactly two suits"),
    (76, "[123m,1]456p789s222m5s5s", {}, "[123m,1]456p789s222mEE", {}, "001 #76 no honors"),
    (
        77,
        "[234p,1][567s,1]EEE12m9s9s3m",
        {},
        "[234p,1][567s,1]12345m9s9s3m",
        {},
        "001 #77 12345m waits on 3m and 6m",
    ),
    (
        78,
        "[234p,1][567s,1]EEE13m9s9s2m",
        {},
        "[234p,1][567s,1]45567m9s9s6m",
        {},
        "003 #78 45567 won on 6 is not 坎张",
    ),
    (
        79,
        "[234p,1][567s,1]EEE123m9s9s",
        {},
        "[234p,1][567s,1]EEE1234m4m",
        {},
        "001 #79 1234m waits on 1m and 4m",
    ),
    (80, "[123m,1]456p789s234m5s5s", D, "[123m,1]456p789s234m5s5s", {}, "001 #80 self-drawn"),
    (
        81,
        "123m456p789s234m5s5s",
        {"flowers": 3},
        "123m456p789s234m5s5s",
        {},
        "001 #81 one per flower",
    ),
]


@pytest.mark.parametrize(
    ("fid", "hit", "hit_flags", "miss", "miss_flags", "why"),
    CASES,
    ids=[f"{c[0]}-{FANS[c[0]].name_en}" for c in CASES],
)
def test_fan_hit_and_near_miss(fid, hit, hit_flags, miss, miss_flags, why):
    """Each fan is counted on its hand and not on the near miss (definition cited in `why`)."""
    got = fans(hit, **hit_flags)
    assert fid in got, f"{FANS[fid].name_zh} missing from {hit}: {got}"
    missed = fans(miss, **miss_flags)
    assert fid not in missed, f"{FANS[fid].name_zh} wrongly on {miss} ({why}): {missed}"


def test_every_fan_is_covered_once():
    """The table above covers all 81 fans of the fan table."""
    assert sorted(c[0] for c in CASES) == list(range(1, 82))
    assert sorted(FANS) == list(range(1, 82))


def test_fan_points_follow_the_table():
    """The twelve point levels of the fan table: 88 ... 1 (seed 001 introduction)."""
    levels = {f.points for f in FANS.values()}
    assert levels == {88, 64, 48, 32, 24, 16, 12, 8, 6, 4, 2, 1}
    assert [FANS[i].points for i in (1, 8, 14, 16, 19, 28, 34, 39, 48, 55, 59, 69)] == [
        88,
        64,
        48,
        32,
        24,
        16,
        12,
        8,
        6,
        4,
        2,
        1,
    ]


def test_fan_by_name_accepts_zh_traditional_and_english():
    assert fan_by_name("大四喜").id == 1
    assert fan_by_name("九蓮寶燈").id == 4
    assert fan_by_name("all chows").id == 63
    assert fan_by_name("  Big Four Winds ").id == 1
    with pytest.raises(KeyError):
        fan_by_name("riichi")


def test_flowers_count_one_each_but_not_toward_minimum():
    """001 #81: 每花计1番，不计在起和番内."""
    r = result("[234m,1][456p,1][777m,1]67sSS8s", flowers=8)
    got = {h.fan.id: h.count for h in r.fans}
    assert got == {43: 1, 81: 8}
    assert r.total == 16 and r.meets_minimum  # 无番和 alone is 8

    r2 = result("[234m,1][456p,1][777m,1]67sSS8s", flowers=7, self_drawn=True)
    assert {h.fan.id: h.count for h in r2.fans} == {80: 1, 81: 7}
    assert r2.total == 8 and not r2.meets_minimum


def test_green_without_green_dragon_is_also_full_flush():
    """001 #3: 如无"发"，可计清一色."""
    got = fans("234s234s666s888s2s2s")
    assert 3 in got and 22 in got
    got = fans("234s234s666s888sFF")
    assert 3 in got and 49 not in got  # 不计混一色


def test_melded_hand_is_not_single_wait():
    """001 #52: 全求人 不计单钓将; the single wait is listed as excluded."""
    r = result("[123m,1][456p,1][789s,2][EEE,2]CC")
    got = {h.fan.id for h in r.fans}
    assert 52 in got and 79 not in got
    assert any(e.fan.id == 79 and e.by == 52 for e in r.excluded)


def test_robbing_the_kong_excludes_last_tile():
    """001 #47: 抢杠和 不计和绝张."""
    got = fans("123m456p789s123m5s5s", kong=True, fourth_tile=True)
    assert 47 in got and 58 not in got


def test_last_tile_when_three_copies_are_exposed_in_own_melds():
    """001 #58: the other three copies lie exposed on the table (in the winner's pung)."""
    assert 58 in fans("[222p,3][234s,1][456s,2]11m13p2p")
    assert 58 not in fans("[234s,1][456s,2]222p11m13p2p")


def test_all_terminals_and_honors_partial_exclusions():
    """001 #59-61: a dragon pung or a seat/prevalent wind pung is not also 幺九刻."""
    got = fans("CCC111mSSS789p5s5s", seat="S", round="E")
    assert got[59] == 1 and got[61] == 1 and got[73] == 1  # only 111m


def test_two_kongs_one_concealed_is_concealed_plus_melded_kong():
    """Our rules have no 明暗杠: one concealed and one melded kong are 暗杠 + 明杠."""
    got = fans("[1111m][2222p,1]345s678sEE")
    assert got.get(67) == 1 and got.get(74) == 1 and 53 not in got and 57 not in got


def test_three_kongs_count_concealed_kongs_on_top():
    """001 #17: 三杠 (暗杠加计): one concealed kong among three adds 暗杠."""
    got = fans("[1111m][2222p,1][3333s,2]EEE5p5p")
    assert got.get(17) == 1 and got.get(67) == 1 and 74 not in got and 57 not in got
