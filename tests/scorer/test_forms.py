"""Winning forms (seed 003 和牌的基本牌型 1-5) and the not-winning error."""

from __future__ import annotations

import pytest

from scorer.engine import all_readings, score
from scorer.errors import ScoreError
from scorer.forms import counts_of, standard_readings
from scorer.hand import Situation
from scorer.notation import parse_hand
from tests.scorer.fanhelp import fans, result


def test_form_1_every_decomposition_is_listed():
    """003 form 1: 111222333m can be three pungs or three chows."""
    counts = counts_of(parse_hand("111222333m567p9s9s").all_tiles)
    kinds = sorted(tuple(sorted(k for k, _ in r)) for r in standard_readings(counts, 4))
    assert kinds == [
        ("chow", "chow", "chow", "chow", "pair"),
        ("chow", "pair", "pung", "pung", "pung"),
    ]


def test_form_1_with_declared_melds_and_kongs():
    r = result("[1111m][2222p,1][345s,2]EEE9s9s")
    assert r.form == "standard"
    assert [s["kind"] for s in r.sets if s["declared"]] == ["kong", "kong", "chow"]


def test_form_2_seven_pairs_with_four_of_a_kind():
    """003 form 2: seven pairs; four identical tiles count as two pairs (and 四归一)."""
    r = result("1111m22m33p44p55sEE")
    assert r.form == "seven_pairs"
    got = {h.fan.id: h.count for h in r.fans}
    assert got[19] == 1 and got[64] == 1


def test_form_2_seven_pairs_needs_no_declared_meld():
    with pytest.raises(ScoreError):
        score(parse_hand("[123m,1]22m33p44p55sEE6s6s"), Situation())


def test_form_3_thirteen_orphans():
    r = result("19m19p19sESWNCFP9s")
    assert r.form == "thirteen_orphans"
    assert {h.fan.id for h in r.fans} == {7}


def test_form_4_honors_and_knitted():
    """003 form 4: 14 single tiles of 147/258/369 of three suits and honors."""
    r = result("147m25p369sESWNCF")
    assert r.form == "honors_and_knitted"
    assert {h.fan.id for h in r.fans} == {34}


def test_form_4_with_the_whole_knitted_straight_adds_knitted_straight():
    got = fans("147m258p369sESWNC")
    assert got.get(34) == 1 and got.get(35) == 1


def test_form_5_knitted_straight_set_and_pair():
    """003 form 5: 1,1,...(nine knitted) 11 123."""
    r = result("147p258s369m123m5s5s")
    assert r.form == "knitted_straight"
    assert [s["kind"] for s in r.sets].count("knitted") == 3


def test_form_5_knitted_straight_with_a_declared_set():
    """003 form 5: the extra set may be claimed."""
    r = result("[EEE,1]147m258p369s5s5s")
    assert r.form == "knitted_straight"
    assert 35 in {h.fan.id for h in r.fans}


def test_not_winning_is_a_clear_error():
    with pytest.raises(ScoreError) as err:
        score(parse_hand("123m456p789s2345m9s"), Situation())
    assert err.value.code == "not_winning"
    assert "winning hand" in err.value.message


def test_every_reading_is_scored():
    readings = all_readings(parse_hand("111222333m567p9s9s"), Situation())
    assert len(readings) == 2
    assert score(parse_hand("111222333m567p9s9s"), Situation()).total == max(
        r.total for r in readings
    )


def test_discard_completing_a_pung_exposes_it_unless_a_chow_takes_the_tile():
    """001 #33 暗刻: a pung completed by a discard is not concealed; when the same
    tile also completes a chow, it is read in the chow (就高不就低)."""
    assert 33 not in fans("[123m,1]222m444p9s9s666s")
    assert 33 in fans("[123m,1]222m444p9s9s666s", self_drawn=True)
    r = result("111m222p444s56s9s9s4s")  # 4s read into 456s: 三暗刻 stays
    pungs = [s for s in r.sets if s["kind"] == "pung"]
    assert len(pungs) == 3 and all(s["concealed"] for s in pungs)
    assert 33 in {h.fan.id for h in r.fans}


def test_to_json_uses_codes():
    j = result("[123p,1][345s,2][999s,3]EEE1m1m").to_json()
    assert j["sets"][0]["tiles"] == ["1p", "2p", "3p"]
    assert all(
        {"id", "name_zh", "name_en", "points", "count", "tiles", "detail"} <= set(f)
        for f in j["fans"]
    )
    assert j["total"] == sum(f["points"] * f["count"] for f in j["fans"])
