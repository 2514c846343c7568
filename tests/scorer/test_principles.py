"""The five counting principles, with the worked examples of seed 001.

Each test quotes the example it checks; breakdowns are compared in full
({fan id: count}) so a stray extra fan fails the test.
"""

from __future__ import annotations

from scorer.engine import all_readings
from scorer.hand import Situation
from scorer.notation import parse_hand
from tests.scorer.fanhelp import fans, result


def test_highest_reading_555666777p_5556s_self_drawn_is_48():
    """001 就高不就低: 门清手牌555666777p5556s自摸7s — the chow reading
    一色三同顺24+全带五16+不求人4+平和2+喜相逢1+缺一门1=48 beats the pung
    reading (47)."""
    r = result("555666777p5556s7s", self_drawn=True)
    assert {h.fan.id: h.count for h in r.fans} == {23: 1, 31: 1, 56: 1, 63: 1, 70: 1, 75: 1}
    assert r.total == 48
    assert [s["kind"] for s in r.sets].count("chow") == 4


def test_the_pung_reading_of_the_same_tiles_is_47():
    """001 就高不就低, second reading: 555p 666p 777p 567s 55s —
    一色三节高24+三暗刻16+不求人4+断幺2+缺一门1=47; both readings are scored."""
    readings = all_readings(parse_hand("555666777p5556s7s"), Situation(self_drawn=True))
    by_total = {r.total: {h.fan.id: h.count for h in r.fans} for r in readings}
    assert by_total[47] == {24: 1, 33: 1, 56: 1, 68: 1, 75: 1}
    assert by_total[48] == {23: 1, 31: 1, 56: 1, 63: 1, 70: 1, 75: 1}
    assert max(by_total) == 48


def test_no_repeat_big_three_dragons_keeps_fourth_terminal_pung():
    """001 不重复 (二): 大三元's three pungs are not 幺九刻, another terminal pung is."""
    got = fans("CCCFFFPPP111m5p5p")
    assert got[2] == 1 and got[73] == 1 and 59 not in got and 54 not in got


def test_no_repeat_nine_gates_on_5_counts_one_terminal_pung():
    """001 不重复 (二): 和2、5、8的九莲宝灯，应计九莲宝灯、双暗刻、幺九刻x1."""
    assert fans("1112345678999m5m") == {4: 1, 66: 1, 73: 1}


def test_no_repeat_nine_gates_on_2_and_8_also_count_short_straight():
    """001 不重复 (二) for 2 and 8: 九莲宝灯、双暗刻、幺九刻x1 — and the 345/678
    (234/567) chows are a 连六 the example does not mention; the reference
    calculator counts it too, and no principle removes it."""
    assert fans("1112345678999m2m") == {4: 1, 66: 1, 71: 1, 73: 1}
    assert fans("1112345678999m8m") == {4: 1, 66: 1, 71: 1, 73: 1}


def test_no_repeat_nine_gates_on_1_3_4_6_7_9_no_terminal_pung():
    """001 不重复 (二): 和1、3、4、6、7、9的九莲宝灯则不计幺九刻."""
    for w in "134679":
        got = fans(f"1112345678999m{w}m")
        assert got.get(4) == 1, w
        assert 73 not in got, (w, got)
    # won on 1m: 111 123 456 789 99 also makes 清龙 and 四归一 (four 1m)
    assert fans("1112345678999m1m") == {4: 1, 28: 1, 64: 1}


def test_no_repeat_nine_gates_self_drawn_counts_self_draw():
    """001 #4: 九莲宝灯 不计不求人 — so a self-drawn one keeps 自摸 (only 不求人 is
    implied; a fan that is not counted implies nothing)."""
    got = fans("1112345678999m5m", self_drawn=True)
    assert 56 not in got and got.get(80) == 1


def test_no_repeat_scope_green_and_full_flush_keep_all_simples():
    """001 不重复 (三): 绿一色与清一色同时出现时…仍应计断幺."""
    got = fans("234s234s666s888s2s2s")
    assert 3 in got and 22 in got and 68 in got


def test_no_split_four_shifted_chows_no_short_straight():
    """001 不拆移: 123、234、345、456 的一色四步高不可再以 123 与 456 组成连六."""
    got = fans("123m234m345m456m5p5p")
    assert 16 in got and 71 not in got and 30 not in got


def test_no_split_four_shifted_chows_by_two_no_terminal_chows():
    """001 不拆移: 123、345、567、789 的一色四步高不可再以 123 与 789 组成老少副."""
    got = fans("123m345m567m789m5p5p")
    assert 16 in got and 72 not in got and 71 not in got


def test_no_identical_pure_straight_once():
    """001 不得相同: 123m、456m、789m、123m — one 清龙, not two."""
    got = fans("123m456m789m123m5s5s")
    assert got[28] == 1 and got.get(69) == 1  # the spare 123m joins once (一般高)


def test_no_identical_mixed_shifted_pungs_once():
    """001 不得相同: 222p、333s、444m、555p — one 三色三节高 only."""
    got = fans("[222p,1]333s444m555p9s9s")
    assert got[42] == 1


def test_once_only_mixed_straight_plus_one():
    """001 套算一次: 123m 456m 789p 123s — 花龙 plus the spare 123m once (连六
    with 456m or 喜相逢 with 123s), not both."""
    r = result("123m456m789p123s5p5p")
    got = {h.fan.id: h.count for h in r.fans}
    assert got[39] == 1
    assert got.get(71, 0) + got.get(70, 0) == 1
    assert any(e.reason.startswith("套算一次") for e in r.excluded)


def test_once_only_four_chows_give_three_pair_fans():
    """001 套算一次: 123m 789m 123s 789s — 2 老少副 + 1 喜相逢 or 2 喜相逢 + 1 老少副,
    3 in all, never 4."""
    got = fans("123m789m123s789sEE")
    assert got.get(70, 0) + got.get(72, 0) == 3


def test_once_only_two_pairs_of_identical_chows():
    """套算一次 with 不得相同: 345s 345s 345p 345p — three pair fans at most."""
    got = fans("[345s,3][345p,2][345s,3][345p,3]44m")
    assert got.get(69, 0) + got.get(70, 0) == 3


def test_wait_fans_only_one_per_hand():
    """003 #78: 4556 won on 5 is 坎张 (it could also be read as 单钓将); one only."""
    r = result("[234p,1][567s,1]EEE4556m5m")
    got = {h.fan.id for h in r.fans}
    assert 78 in got and 79 not in got


def test_edge_wait_1233_won_on_3():
    """003 #77: 1233和3 为边张."""
    got = fans("[234p,1][567s,1]EEE1233m3m")
    assert 77 in got and 79 not in got


def test_edge_wait_12345_is_not_edge():
    """003 #77: 手中有12345和3 … 不算和边张."""
    got = fans("[234p,1][567s,1]12345m9s9s3m")
    assert not {77, 78, 79} & set(got)


def test_edge_wait_7789_won_on_7():
    """003 #77: 7789和7 为边张."""
    got = fans("[234p,1][567s,1]EEE7789m7m")
    assert 77 in got and 79 not in got


def test_edge_wait_56789_is_not_edge():
    """003 #77: 56789和7不算和边张 (it also waits on 4m)."""
    got = fans("[234p,1][567s,1]56789m9s9s7m")
    assert not {77, 78, 79} & set(got)


def _chows_in_big_fan(combo) -> int:
    """How many chows the larger combination fan of `combo` uses (3 or 4)."""
    return 4 if any(h.fan.id in (14, 16) for h in combo) else 3


def test_four_chows_never_more_than_three_combination_fans():
    """001 套算一次: 四副顺子最多只有三番 of two-chow fans; a three- or four-chow
    fan leaves room for one more two-chow fan at most (checked on random hands)."""
    import random

    from scorer.combos import COMBO_FANS
    from scorer.engine import score
    from scorer.hand import Hand

    rng = random.Random(5)
    checked = 0
    while checked < 300:
        starts = [rng.randrange(3) * 9 + rng.randrange(7) for _ in range(4)]
        tiles = [t + k for t in starts for k in range(3)] + [31, 31]
        if max(tiles.count(t) for t in tiles) > 4:
            continue
        hand = Hand((), tuple(tiles[:-1]), tiles[-1])
        r = score(hand, Situation())
        if r.form != "standard" or [s["kind"] for s in r.sets].count("chow") != 4:
            continue
        checked += 1
        combo = [h for h in r.fans if h.fan.id in COMBO_FANS]
        pair_fans = sum(h.count for h in combo if h.fan.id in (69, 70, 71, 72))
        big = sum(h.count for h in combo if h.fan.id not in (69, 70, 71, 72))
        assert big <= 1
        assert pair_fans <= (3 if big == 0 else (1 if _chows_in_big_fan(combo) == 3 else 0)), r.fans
