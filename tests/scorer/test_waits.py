"""Waiting tiles (听牌) of 13-tile hands and the wait fans 边张/坎张/单钓将."""

from __future__ import annotations

import time

import pytest

from scorer.engine import score
from scorer.errors import ScoreError
from scorer.hand import Hand, Meld, MeldKind, Situation
from scorer.notation import parse_hand
from scorer.randhands import random_waiting_hands
from scorer.tiles import index
from scorer.waits import is_winning, winning_tiles
from tests.scorer.fanhelp import fans


def waits(text: str) -> list[str]:
    from scorer.tiles import code

    return [code(t) for t in winning_tiles(parse_hand(text, waiting=True))]


def test_nine_gates_waits_on_all_nine():
    """001 #4: 九莲宝灯 见本花色任何1张牌成和."""
    assert waits("1112345678999m") == [f"{n}m" for n in range(1, 10)]


def test_thirteen_orphans_thirteen_way_wait():
    assert len(waits("19m19p19sESWNCFP")) == 13


def test_seven_pairs_wait():
    assert waits("1122m3344p5566sE") == ["E"]


def test_honors_and_knitted_waits():
    """全不靠: any missing honor or knitted tile completes it."""
    got = waits("147m258p36sESWNC")
    assert set(got) == {"9s", "F", "P"}


def test_knitted_straight_wait_inside_the_straight():
    assert waits("147m258p36s123mEE") == ["9s"]


def test_tile_with_all_four_copies_in_hand_is_no_wait():
    """A fourth copy cannot be won on when all four are already held."""
    # 66778899s waits on 6s and 9s, but both 6s of the melds and the hand's make four
    assert waits("[456s,3][567s,3]6677889s") == ["9s"]


def test_is_winning():
    assert is_winning(parse_hand("123m456p789s123m5s5s"))
    assert not is_winning(parse_hand("123m456p789s124m5s5s"))
    assert not is_winning(Hand((), tuple(index(c) for c in ["1m"] * 13), None))  # 13 tiles


def test_bad_tiles_are_clear_errors_not_crashes():
    with pytest.raises(ScoreError) as err:
        winning_tiles(Hand((), (0,) * 12 + (index("1f"),), None))
    assert err.value.code == "bad_tile"
    with pytest.raises(ScoreError) as err:
        score(Hand((Meld(MeldKind.CHOW, 7),), (1,) * 10, 2), Situation())
    assert err.value.code == "bad_meld"
    with pytest.raises(ScoreError) as err:
        winning_tiles(Hand((), (0, 1, 2), None))
    assert err.value.code == "wrong_tile_count"


def test_edge_closed_single_only_on_a_single_wait():
    """001 #77-79: 且整手牌只听这一种牌."""
    assert 77 in fans("[234p,1][567s,1]EEE12m9s9s3m")
    assert 78 in fans("[234p,1][567s,1]EEE13m9s9s2m")
    assert 79 in fans("[234p,1][567s,1]EEE123m9s9s")
    assert not {77, 78, 79} & set(fans("[234p,1][567s,1]EEE1234m4m"))


def test_knitted_straight_wait_fans_default_and_option():
    """Default (as the reference calculator): 单钓将 on the pair of a 组合龙 hand
    counts, a wait filled inside the knitted straight does not; with the option
    `knitted_wait_fans` the 9s that ends 369s counts as 边张."""
    assert 79 in fans("147m258p369s789mE" + "E")
    hand = "147m258p36s789mEE9s"
    assert not {77, 78, 79} & set(fans(hand))
    r = score(parse_hand(hand), Situation(options={"knitted_wait_fans": True}))
    assert 77 in {h.fan.id for h in r.fans}
    r = score(parse_hand("147m28p369s789mEE5p"), Situation(options={"knitted_wait_fans": True}))
    assert 78 in {h.fan.id for h in r.fans}


def test_waits_are_fast():
    """Waiting analysis of a 13-tile hand well under 20 ms (loose bound for a busy box)."""
    hands = list(random_waiting_hands(200, seed=3))
    start = time.perf_counter()
    for h in hands:
        winning_tiles(h)
    per_hand = (time.perf_counter() - start) / len(hands)
    assert per_hand < 0.020


def test_pruned_waits_match_trying_every_tile():
    """winning_tiles skips hopeless trial tiles; trying all 34 must agree."""
    for hand in random_waiting_hands(300, seed=11):
        held = [t for m in hand.melds for t in m.tiles] + list(hand.concealed)
        brute = [
            t
            for t in range(34)
            if held.count(t) < 4 and is_winning(Hand(hand.melds, hand.concealed, t))
        ]
        assert winning_tiles(hand) == brute, hand
