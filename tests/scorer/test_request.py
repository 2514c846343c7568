"""Score requests: field validation, contradictory flags, the response, fuzz."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.errors import ScoreError
from scorer.hand import Situation
from scorer.notation import parse_hand
from scorer.randhands import random_hand, to_request
from scorer.request import (
    check_claim,
    error_response,
    parse_claim,
    parse_request,
    score_request,
    waits_report,
)
from scorer.tiles import index

# 123m 456p 789s 123s EE: a plain 14-tile winning hand
PLAIN = "123m456p789s123sEE"


def code_of(exc_info) -> str:
    return exc_info.value.code


def test_defaults():
    hand, sit = parse_request({"hand": PLAIN})
    assert hand.winning_tile == index("E")
    assert sit == Situation()


def test_all_fields_read():
    _, sit = parse_request(
        {
            "hand": PLAIN,
            "flowers": 3,
            "self_drawn": True,
            "fourth_tile": False,
            "kong": False,
            "last_tile": True,
            "seat_wind": "S",
            "round_wind": "N",
        }
    )
    assert sit == Situation(3, True, False, False, True, index("S"), index("N"))


@pytest.mark.parametrize(
    ("request_obj", "code"),
    [
        ([PLAIN], "bad_request"),
        ("123m", "bad_request"),
        (None, "bad_request"),
        ({}, "missing_field"),
        ({"hand": 5}, "bad_type"),
        ({"hand": None}, "bad_type"),
        ({"hand": PLAIN, "selfdrawn": True}, "unknown_field"),
        ({"hand": PLAIN, "flowers": True}, "bad_type"),
        ({"hand": PLAIN, "flowers": "2"}, "bad_type"),
        ({"hand": PLAIN, "flowers": 2.0}, "bad_type"),
        ({"hand": PLAIN, "flowers": -1}, "bad_flowers"),
        ({"hand": PLAIN, "flowers": 9}, "bad_flowers"),
        ({"hand": PLAIN, "self_drawn": 1}, "bad_type"),
        ({"hand": PLAIN, "kong": "true"}, "bad_type"),
        ({"hand": PLAIN, "fourth_tile": None}, "bad_type"),
        ({"hand": PLAIN, "last_tile": []}, "bad_type"),
        ({"hand": PLAIN, "seat_wind": "e"}, "bad_wind"),
        ({"hand": PLAIN, "round_wind": "X"}, "bad_wind"),
        ({"hand": PLAIN, "round_wind": 0}, "bad_wind"),
        ({"hand": "123m"}, "wrong_tile_count"),
        ({"hand": "12x"}, "bad_character"),
    ],
)
def test_bad_requests(request_obj, code):
    with pytest.raises(ScoreError) as err:
        parse_request(request_obj)
    assert code_of(err) == code
    assert err.value.message


def test_unknown_field_is_named():
    with pytest.raises(ScoreError) as err:
        parse_request({"hand": PLAIN, "selfdrawn": True})
    assert "selfdrawn" in err.value.message


# -- contradictory flags (seed 001 fans 44-47, 58) ---------------------------------


@pytest.mark.parametrize(
    ("hand", "flags", "fragment"),
    [
        # 杠上开花 needs a kong in the hand
        (PLAIN, {"self_drawn": True, "kong": True}, "no kong"),
        # 抢杠和 of E while the winner holds another E
        (PLAIN, {"kong": True}, "robbing a kong"),
        # 抢杠和 of 3s while a 3s is in a declared chow
        ("[123s,1]123m456p789sE3s", {"kong": True}, "holds 1 more"),
        # kong with last tile, both ways
        (
            "[1111m]456p789s123sEE",
            {"self_drawn": True, "kong": True, "last_tile": True},
            "杠上开花",
        ),
        ("123m456p789sEE23s4s", {"kong": True, "last_tile": True}, "抢杠和"),
        # 和绝张 with a concealed copy of the winning tile
        (PLAIN, {"fourth_tile": True}, "1 concealed"),
    ],
)
def test_contradictory_flags(hand, flags, fragment):
    with pytest.raises(ScoreError) as err:
        parse_request({"hand": hand, **flags})
    assert code_of(err) == "contradictory_flags"
    assert fragment in err.value.message


def test_fourth_tile_with_concealed_kong_of_it_is_impossible_anyway():
    # a concealed kong plus the winning tile would be a fifth copy
    with pytest.raises(ScoreError) as err:
        parse_request({"hand": "[EEEE]123m456p789s1sE", "fourth_tile": True})
    assert code_of(err) == "too_many_copies"


def test_consistent_flags_accepted():
    _, sit = parse_request({"hand": "[1111m]456p789s123sEE", "self_drawn": True, "kong": True})
    assert sit.kong and sit.self_drawn
    # robbing the kong: no other copy of 4s anywhere; 和绝张 given too is fine (抢杠和 不计和绝张)
    _, sit = parse_request({"hand": "123m456p789sEE23s4s", "kong": True, "fourth_tile": True})
    assert sit.kong and sit.fourth_tile
    # 和绝张 with copies of the winning tile shown in the winner's own melds
    _, sit = parse_request({"hand": "[789s,1]123m456p78sEE9s", "fourth_tile": True})
    assert sit.fourth_tile


def test_fourth_tile_implied_by_three_shown_copies():
    _, sit = parse_request({"hand": "[999s,1]123m456p78sEE9s"})
    assert sit.fourth_tile


def test_fourth_tile_not_implied_otherwise():
    _, sit = parse_request({"hand": PLAIN})
    assert not sit.fourth_tile


# -- the response -----------------------------------------------------------------------


def test_response_fields_and_total():
    resp = score_request(
        {"hand": "[123p,1][345s,2][999s,3]66mEEE", "flowers": 2, "id": 7, "lang": "en"}
    )
    for key in (
        "fans",
        "total",
        "meets_minimum",
        "excluded",
        "payments",
        "hand",
        "form",
        "sets",
        "explanation",
        "situation",
    ):
        assert key in resp, key
    for fan in resp["fans"]:
        assert {"id", "name_zh", "name_en", "points", "count"} <= set(fan)
    assert resp["total"] == sum(f["points"] * f["count"] for f in resp["fans"])
    flowers = [f for f in resp["fans"] if f["id"] == 81]
    assert flowers and flowers[0]["count"] == 2
    no_flowers = resp["total"] - 2
    assert resp["meets_minimum"] == (no_flowers >= 8)
    assert resp["hand"] == "[123p,1][345s,2][999s,3]66mEEE"
    assert resp["id"] == 7
    assert isinstance(resp["explanation"], str) and resp["explanation"]
    assert resp["payments"]["winner"] > 0


def test_explanation_only_on_request():
    """The readable table is added only when the request names a language."""
    resp = score_request({"hand": "[123p,1][345s,2][999s,3]66mEEE"})
    assert "explanation" not in resp
    resp = score_request({"hand": "[123p,1][345s,2][999s,3]66mEEE", "lang": "zh"})
    assert "合计" in resp["explanation"]
    assert "Total" not in resp["explanation"]


def test_not_winning_is_a_score_error():
    with pytest.raises(ScoreError) as err:
        score_request({"hand": "123m456p789s124sEE"})
    assert code_of(err) == "not_winning"


def test_bad_lang():
    with pytest.raises(ScoreError) as err:
        score_request({"hand": PLAIN, "lang": "fr"})
    assert code_of(err) == "bad_lang"


def test_error_response_shape_and_id():
    exc = ScoreError("bad_character", char="x", pos=3)
    assert error_response(exc) == {"error": {"code": "bad_character", "message": exc.message}}
    assert error_response(exc, {"id": "a1"})["id"] == "a1"


def test_generated_hands_score_through_requests():
    rng = random.Random(5)
    for _ in range(150):
        hand, sit = random_hand(rng)
        resp = score_request(to_request(hand, sit))
        assert resp["total"] == sum(f["points"] * f["count"] for f in resp["fans"])


# -- referee check and waits ----------------------------------------------------------------


def test_parse_claim_names_numbers_counts():
    assert parse_claim("清一色, 平和") == {22: 1, 63: 1}
    assert parse_claim("22,63") == {22: 1, 63: 1}
    assert parse_claim("幺九刻*2，Pure Straight") == {73: 2, 28: 1}
    assert parse_claim("幺九刻,幺九刻") == {73: 2}
    for bad, code in (
        ("无此番", "unknown_fan"),
        ("99", "unknown_fan"),
        (" , ", "bad_claim"),
        ("平和*0", "bad_claim"),
    ):
        with pytest.raises(ScoreError) as err:
            parse_claim(bad)
        assert code_of(err) == code


def test_check_claim_finds_missing_extra_and_miscounted():
    req = {"hand": "[123p,1][345s,2][999s,3]66mEEE"}
    right = score_request(req)
    names = ",".join(f"{f['id']}*{f['count']}" for f in right["fans"])
    ok = check_claim(req, claim=names)
    assert ok["correct"] and ok["claimed_total"] == right["total"]
    first = right["fans"][0]
    wrong = check_claim(req, claim=f"清一色,{first['id']}*{first['count'] + 1}")
    assert not wrong["correct"]
    assert [f["id"] for f in wrong["extra"]] == [22]
    assert [f["id"] for f in wrong["miscounted"]] == [first["id"]]
    assert {f["id"] for f in wrong["missing"]} == {f["id"] for f in right["fans"][1:]}
    assert check_claim(req, total=right["total"])["correct"]
    assert not check_claim(req, total=right["total"] + 1)["correct"]


def test_waits_report():
    rep = waits_report({"hand": "123m456p789s23sEE"})
    assert rep["waiting"]
    assert [w["tile"] for w in rep["waits"]] == ["1s", "4s"]
    for w in rep["waits"]:
        assert w["self_drawn"]["total"] > w["discard"]["total"] or "error" in w["discard"]
    none = waits_report({"hand": "1357m2468p1357sE"})
    assert not none["waiting"] and none["waits"] == []


def test_waits_flags_per_tile():
    # 'kong': no 杠上开花 without a kong; 抢杠和 fine on 1s/4s (the hand holds none)
    rep = waits_report({"hand": "123m456p789s23sEE", "kong": True})
    for w in rep["waits"]:
        assert "error" in w["self_drawn"]  # no kong in the hand: no 杠上开花
        assert "total" in w["discard"]  # 抢杠和 of a tile the hand does not hold


# -- fuzz -------------------------------------------------------------------------------------

_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.text(max_size=6),
    st.sampled_from(["E", "S", "W", "N", "x"]),
    st.lists(st.integers(), max_size=2),
)
_hands = st.one_of(
    st.text(alphabet="123456789mpsESWNCFP[],", max_size=30),
    st.builds(lambda s: to_request(*random_hand(random.Random(s)))["hand"], st.integers(0, 10**6)),
)
_requests = st.fixed_dictionaries(
    {"hand": _hands},
    optional={
        k: _values
        for k in (
            "flowers",
            "self_drawn",
            "fourth_tile",
            "kong",
            "last_tile",
            "seat_wind",
            "round_wind",
            "lang",
            "extra",
        )
    },
)


@settings(max_examples=250, deadline=None)
@given(st.one_of(_requests, _values))
def test_fuzz_score_request_raises_only_score_error(obj):
    try:
        resp = score_request(obj)
    except ScoreError as exc:
        assert exc.code and exc.message
    else:
        assert resp["total"] == sum(f["points"] * f["count"] for f in resp["fans"])


def test_remaining_error_paths():
    from scorer.request import check_situation

    waiting = parse_hand("123m456p789s23sEE", waiting=True)
    with pytest.raises(ScoreError) as err:
        check_situation(waiting, Situation())
    assert code_of(err) == "no_winning_tile"
    for kwargs in ({}, {"claim": "平和", "total": 3}):
        with pytest.raises(ScoreError) as err:
            check_claim({"hand": PLAIN}, **kwargs)
        assert code_of(err) == "bad_arguments"
    with pytest.raises(ScoreError) as err:
        check_claim({"hand": PLAIN}, total="12")  # type: ignore[arg-type]
    assert code_of(err) == "bad_type"
    with pytest.raises(ScoreError) as err:
        parse_claim(22)  # type: ignore[arg-type]
    assert code_of(err) == "bad_type"
    with pytest.raises(ScoreError) as err:
        waits_report({"hand": PLAIN})
    assert code_of(err) == "wrong_tile_count"


def test_format_rejects_non_playing_tiles():
    from scorer.hand import Hand
    from scorer.notation import format_hand

    for bad in (34, 42, -1):
        with pytest.raises(ScoreError) as err:
            format_hand(Hand((), (0,) * 13, bad))
        assert code_of(err) == "bad_tile"
