"""The game sheet replay of CONTRACTS.md and its input checks."""

from __future__ import annotations

import copy

import pytest

from scorer.game import replay
from scorer.game.errors import GameError

CONTRACT_EXAMPLE = {
    "players": ["Ann", "Bo", "Cy", "Di"],
    "hands": [
        {"result": "win", "winner": "Ann", "self_drawn": True, "fans": 24},
        {
            "result": "win",
            "winner": "Bo",
            "discarder": "Cy",
            "fans": 8,
            "penalties": [{"player": "Di", "kind": "wrong_win"}],
        },
        {"result": "draw"},
        {"result": "draw", "penalties": [{"player": "Cy", "kind": "deduction", "points": 20}]},
    ],
}


def test_contract_example():
    sheet = replay(copy.deepcopy(CONTRACT_EXAMPLE))
    hands = sheet["hands"]
    assert [h["round_wind"] for h in hands] == ["E"] * 4
    assert [h["dealer"] for h in hands] == ["Ann", "Bo", "Cy", "Di"]
    assert hands[1]["seat_winds"] == {"Ann": "N", "Bo": "E", "Cy": "S", "Di": "W"}
    # Ann self-draws 24: each pays 8 + 24
    assert hands[0]["delta"] == {"Ann": 96, "Bo": -32, "Cy": -32, "Di": -32}
    # Bo wins 8 off Cy (Cy 16, others 8); Di's 错和 pays 10 to each other player
    assert hands[1]["delta"] == {"Ann": -8 + 10, "Bo": 32 + 10, "Cy": -16 + 10, "Di": -8 - 30}
    assert hands[2]["delta"] == {"Ann": 0, "Bo": 0, "Cy": 0, "Di": 0}
    assert hands[3]["delta"] == {"Ann": 0, "Bo": 0, "Cy": -20, "Di": 0}
    assert sheet["scores"] == {"Ann": 598, "Bo": 510, "Cy": 442, "Di": 430}
    assert sheet["table_points"] == {"Ann": 4, "Bo": 2, "Cy": 1, "Di": 0}
    assert sheet["complete"] is False
    assert sheet["next"]["number"] == 5 and sheet["next"]["dealer"] == "Bo"


def test_full_game_of_sixteen_hands_and_ties():
    players = ["A", "B", "C", "D"]
    # every player self-draws 8 fans four times: all end at 500 and share 标准分
    hands = [
        {"result": "win", "winner": players[i % 4], "self_drawn": True, "fans": 8}
        for i in range(16)
    ]
    sheet = replay({"players": players, "hands": hands})
    assert sheet["complete"] is True and "next" not in sheet
    assert sheet["scores"] == {p: 500 for p in players}
    assert sheet["table_points"] == {p: 1.75 for p in players}
    assert sheet["hands"][-1]["totals"] == sheet["scores"]


def test_game_ended_early_keeps_points_so_far():
    sheet = replay(
        {
            "players": ["A", "B", "C", "D"],
            "hands": [{"result": "win", "winner": "C", "discarder": "A", "fans": 12}],
        }
    )
    assert sheet["scores"] == {"A": 480, "B": 492, "C": 536, "D": 492}
    assert sheet["table_points"] == {"C": 4, "B": 1.5, "D": 1.5, "A": 0}


def test_false_win_and_lateness_penalty():
    sheet = replay(
        {
            "players": ["A", "B", "C", "D"],
            "hands": [{"result": "draw", "penalties": [{"player": "B", "kind": "false_win"}]}],
            "penalties": [{"player": "D", "kind": "deduction", "points": 10}],
        }
    )
    assert sheet["hands"][0]["delta"] == {"A": 20, "B": -60, "C": 20, "D": 20}
    assert sheet["scores"] == {"A": 520, "B": 440, "C": 520, "D": 510}


def bad(game: dict, code: str) -> str:
    with pytest.raises(GameError) as err:
        replay(game)
    assert err.value.code == code, err.value.message
    return err.value.message


P = ["A", "B", "C", "D"]


def test_unknown_player():
    msg = bad(
        {"players": P, "hands": [{"result": "win", "winner": "Z", "self_drawn": True, "fans": 8}]},
        "unknown_player",
    )
    assert "hand 1" in msg and "'Z'" in msg
    bad(
        {
            "players": P,
            "hands": [{"result": "draw", "penalties": [{"player": "Q", "kind": "wrong_win"}]}],
        },
        "unknown_player",
    )


def test_discarder_is_winner():
    bad(
        {"players": P, "hands": [{"result": "win", "winner": "A", "discarder": "A", "fans": 8}]},
        "bad_hand",
    )


def test_more_than_sixteen_hands():
    bad({"players": P, "hands": [{"result": "draw"}] * 17}, "too_many_hands")


def test_missing_fields():
    bad({"hands": []}, "missing_field")
    bad({"players": P, "hands": [{}]}, "missing_field")
    bad({"players": P, "hands": [{"result": "win", "winner": "A", "fans": 8}]}, "missing_field")
    bad(
        {"players": P, "hands": [{"result": "win", "winner": "A", "self_drawn": True}]},
        "missing_field",
    )
    bad(
        {
            "players": P,
            "hands": [{"result": "draw", "penalties": [{"player": "A", "kind": "deduction"}]}],
        },
        "missing_field",
    )


def test_bad_penalty_kind():
    msg = bad(
        {
            "players": P,
            "hands": [{"result": "draw", "penalties": [{"player": "A", "kind": "cheat"}]}],
        },
        "bad_penalty",
    )
    assert "wrong_win" in msg


def test_duplicate_players():
    bad({"players": ["A", "B", "A", "D"], "hands": []}, "duplicate_player")


def test_other_bad_input():
    bad([], "bad_game")
    bad({"players": ["A", "B", "C"], "hands": []}, "bad_players")
    bad({"players": P, "hands": [{"result": "lost"}]}, "bad_result")
    bad(
        {"players": P, "hands": [{"result": "win", "winner": "A", "self_drawn": True, "fans": 6}]},
        "below_minimum",
    )
    bad(
        {
            "players": P,
            "hands": [{"result": "win", "winner": "A", "self_drawn": True, "fans": "8"}],
        },
        "bad_fans",
    )
    bad(
        {
            "players": P,
            "hands": [
                {"result": "win", "winner": "A", "self_drawn": True, "discarder": "B", "fans": 8}
            ],
        },
        "bad_hand",
    )
    bad({"players": P, "hands": [{"result": "draw", "winner": "A"}]}, "bad_hand")
    # a player who made a wrong win may not win the same hand (第十四条 六)
    bad(
        {
            "players": P,
            "hands": [
                {
                    "result": "win",
                    "winner": "A",
                    "self_drawn": True,
                    "fans": 8,
                    "penalties": [{"player": "A", "kind": "wrong_win"}],
                }
            ],
        },
        "bad_hand",
    )
    bad(
        {
            "players": P,
            "hands": [
                {
                    "result": "draw",
                    "penalties": [{"player": "A", "kind": "deduction", "points": -5}],
                }
            ],
        },
        "bad_penalty",
    )


def test_hand_text_and_flowers_are_kept():
    sheet = replay(
        {
            "players": P,
            "hands": [
                {
                    "result": "win",
                    "winner": "A",
                    "self_drawn": True,
                    "fans": 10,
                    "flowers": 2,
                    "hand": "[123p,1][345s,2][999s,3]6m6pEW1m",
                    "note": "checked",
                    "kong": True,
                }
            ],
        }
    )
    h = sheet["hands"][0]
    assert (h["hand"], h["note"], h["flowers"]) == (
        "[123p,1][345s,2][999s,3]6m6pEW1m",
        "checked",
        2,
    )
    assert "kong" not in h  # fields of the score request that the sheet does not use
    bad({"players": P, "hands": [{"result": "draw", "hand": 5}]}, "bad_hand")
    bad({"players": P, "hands": [{"result": "draw", "flowers": 1}]}, "bad_hand")
