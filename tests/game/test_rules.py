"""Seating, payments, penalties and 标准分 against the rules documents."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scorer.game import rules
from scorer.game.errors import GameError

PLAYERS = ["A", "B", "C", "D"]

# Written out by hand from seed 001 item 3: the first round sits A B C D
# in the East, South, West, North chairs; before round 2 East/South and
# West/North swap (chairs B A D C); before round 3 the East and South
# players go to the opposite chairs, West to South and North to East
# (chairs C D B A); before round 4 East/South and West/North swap again
# (chairs D C A B). In each round the East chair deals first and the deal
# passes to the 下家 (South chair, West chair, North chair). Each string
# is the 门风 of A, B, C, D in that hand; then the dealer.
EXPECTED = [
    ("E", "ESWN", "A"),
    ("E", "NESW", "B"),
    ("E", "WNES", "C"),
    ("E", "SWNE", "D"),
    ("S", "SENW", "B"),
    ("S", "ENWS", "A"),
    ("S", "NWSE", "D"),
    ("S", "WSEN", "C"),
    ("W", "NWES", "C"),
    ("W", "WSNE", "D"),
    ("W", "SEWN", "B"),
    ("W", "ENSW", "A"),
    ("N", "WNSE", "D"),
    ("N", "SWEN", "C"),
    ("N", "ESNW", "A"),
    ("N", "NEWS", "B"),
]


@pytest.mark.parametrize("index", range(16))
def test_seat_table_follows_seed_rotation(index):
    round_wind, winds, dealer = EXPECTED[index]
    seat = rules.seating(PLAYERS, index)
    assert seat.round_wind == round_wind
    assert seat.dealer == dealer
    assert seat.seat_winds == dict(zip(PLAYERS, winds, strict=True))
    assert seat.seat_winds[dealer] == "E"


def test_everyone_sits_every_chair_once_and_deals_once_per_round():
    chairs = rules.round_positions(PLAYERS)
    for player in PLAYERS:
        sat = {wind for r in chairs for wind, p in r.items() if p == player}
        assert sat == set("ESWN")
    for rnd in range(4):
        dealers = {rules.seating(PLAYERS, rnd * 4 + k).dealer for k in range(4)}
        assert dealers == set(PLAYERS)


def test_seating_rejects_a_seventeenth_hand():
    with pytest.raises(GameError):
        rules.seating(PLAYERS, 16)


def test_self_draw_each_other_player_pays_base_plus_fans():
    delta = rules.win_payments(PLAYERS, "B", 24, self_drawn=True)
    assert delta == {"A": -32, "B": 96, "C": -32, "D": -32}


def test_discard_discarder_pays_fans_others_pay_base():
    delta = rules.win_payments(PLAYERS, "A", 10, self_drawn=False, discarder="D")
    assert delta == {"A": 18 + 8 + 8, "B": -8, "C": -8, "D": -18}
    assert sum(delta.values()) == 0


def test_win_below_eight_fans_is_an_error():
    with pytest.raises(GameError) as err:
        rules.win_payments(PLAYERS, "A", 7, self_drawn=True)
    assert err.value.code == "below_minimum"
    # flowers do not count towards the 8 (起和分)
    with pytest.raises(GameError):
        rules.check_fans(9, flowers=2)
    assert rules.check_fans(10, flowers=2) == 10


def test_wrong_win_pays_ten_to_each():
    assert rules.penalty_payments(PLAYERS, "C", "wrong_win") == {
        "A": 10,
        "B": 10,
        "C": -30,
        "D": 10,
    }


def test_false_win_pays_twenty_to_each():
    assert rules.penalty_payments(PLAYERS, "A", "false_win") == {
        "A": -60,
        "B": 20,
        "C": 20,
        "D": 20,
    }


def test_deduction_is_paid_to_nobody():
    assert rules.penalty_payments(PLAYERS, "D", "deduction", 30) == {
        "A": 0,
        "B": 0,
        "C": 0,
        "D": -30,
    }


def test_unknown_penalty_kind():
    with pytest.raises(GameError):
        rules.penalty_payments(PLAYERS, "D", "cheating")


def test_violation_deductions_are_the_seven_amounts():
    for points in (5, 10, 20, 30, 40, 50, 60):
        assert rules.violation_deduction("A", points)["points"] == points
    for bad in (0, 15, 70):
        with pytest.raises(GameError):
            rules.violation_deduction("A", bad)


def test_repeat_offence_ladder():
    # 第十四条: warning, 5, 10, 20, then on through the allowed amounts
    assert [rules.repeat_offence_points(n) for n in range(1, 10)] == [
        0,
        5,
        10,
        20,
        30,
        40,
        50,
        60,
        60,
    ]
    assert rules.repeat_offence_penalty("B", 1) is None
    assert rules.repeat_offence_penalty("B", 3) == {
        "player": "B",
        "kind": "deduction",
        "points": 10,
    }
    with pytest.raises(GameError):
        rules.repeat_offence_points(0)


def test_lateness():
    assert rules.lateness_ruling(0).points == 0
    five = rules.lateness_ruling(5)
    assert five.warning and five.points == 10 and not five.forfeit
    assert rules.lateness_ruling(10).points == 10
    assert rules.lateness_ruling(12).points == 20
    assert rules.lateness_ruling(15).points == 20
    assert rules.lateness_ruling(16).forfeit
    assert rules.lateness_ruling(12).penalty("C") == {
        "player": "C",
        "kind": "deduction",
        "points": 20,
    }
    with pytest.raises(GameError):
        rules.lateness_ruling(-1)


def test_table_points_without_ties():
    tp = rules.table_points({"A": 600, "B": 400, "C": 550, "D": 450})
    assert tp == {"A": 4, "C": 2, "D": 1, "B": 0}


def test_table_points_shared_by_tied_players():
    assert rules.table_points({"A": 520, "B": 520, "C": 480, "D": 480}) == {
        "A": 3,
        "B": 3,
        "C": Fraction(1, 2),
        "D": Fraction(1, 2),
    }
    assert rules.table_points({"A": 600, "B": 500, "C": 500, "D": 400}) == {
        "A": 4,
        "B": Fraction(3, 2),
        "C": Fraction(3, 2),
        "D": 0,
    }
    three = rules.table_points({"A": 510, "B": 510, "C": 510, "D": 470})
    assert three["A"] == Fraction(7, 3) and three["D"] == 0
    assert set(rules.table_points({p: 500 for p in PLAYERS}).values()) == {Fraction(7, 4)}
    # the shares always add up to the 7 points of a table
    assert sum(three.values()) == 7


def test_number_json():
    assert rules.number(Fraction(3)) == 3 and isinstance(rules.number(Fraction(3)), int)
    assert rules.number(Fraction(3, 2)) == 1.5
