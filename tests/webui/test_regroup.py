"""`POST /api/regroup`: a tap on a group of a photo's tiles makes it the hand.

The page sends back the tiles of the recognition result (the group tapped as
`tiles`, every other group as `ignored`); the answer is the result read with
that group as the hand. Bad bodies are 4xx JSON errors in the page's language.
"""

from __future__ import annotations

import json

import pytest

from tests.webui.conftest import needs_scorer

JSON = "application/json"


def _tile(code: str, x: float, y: float = 100.0, **extra) -> dict:
    return {"tile": code, "box": [x, y, x + 30, y + 40], "confidence": 0.95, **extra}


def _row(codes: list[str], y: float = 100.0) -> list[dict]:
    return [_tile(c, 10 + 32 * i, y) for i, c in enumerate(codes)]


HAND = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E", "C"]
POND = ["2m", "7p", "N", "F", "9s", "1p"]


def _post(client, obj, **headers):
    return client.post("/api/regroup", data=json.dumps(obj), content_type=JSON, headers=headers)


@needs_scorer
def test_a_tapped_group_is_read_as_the_hand(client) -> None:
    hand = _row(HAND) + [_tile("C", 10 + 32 * 13 + 40)]
    pond = _row(POND, y=20)
    answer = _post(client, {"tiles": hand, "ignored": [{"kind": "discards", "tiles": pond}]})
    assert answer.status_code == 200
    out = answer.get_json()
    assert out["hand"] == "123m456p789sEEECC"
    assert out["winning_tile"] == "C"
    assert [g["kind"] for g in out["ignored"]] == ["discards"]
    assert len(out["ignored"][0]["tiles"]) == len(POND)


@needs_scorer
def test_the_pond_tapped_instead_gives_no_hand_and_says_so(client) -> None:
    hand = _row(HAND) + [_tile("C", 10 + 32 * 13 + 40)]
    out = _post(
        client, {"tiles": _row(POND, y=20), "ignored": [{"kind": "stray", "tiles": hand}]}
    ).get_json()
    assert out["hand"] is None
    assert any("tap the group" in w for w in out["warnings"])


@needs_scorer
def test_the_copies_in_view_make_the_winning_tile_the_last(client) -> None:
    """和绝张 (seed 003, fan 58): the three other copies of the winning tile lie face up in
    the ponds and the other players' melds; a copy held in the hand is not shown."""
    edge = _row(["1m", "2m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E", "N", "N"]) + [
        _tile("3m", 10 + 32 * 13 + 40)
    ]
    ponds = [{"kind": "discards", "tiles": _row(["3m", "2m", "3p"], y=20)}]
    out = _post(client, {"tiles": edge, "ignored": ponds}).get_json()
    assert out["hand"] == "12m456p789sEEENN3m" and out["fourth_tile_seen"] is False
    ponds.append({"kind": "other_meld", "tiles": _row(["3m", "4m", "5m"], y=300)})
    ponds.append({"kind": "discards", "tiles": _row(["3m"], y=400)})
    out = _post(client, {"tiles": edge, "ignored": ponds}).get_json()
    assert out["fourth_tile_seen"] is True
    assert out["hand"] == "12m456p789sEEENN3m"


BAD = [
    ("not_object", [1, 2]),
    ("no_tiles", {"ignored": []}),
    ("tiles_not_list", {"tiles": "1m"}),
    ("tile_not_object", {"tiles": [1]}),
    ("bad_code", {"tiles": [_tile("0m", 0)]}),
    ("code_not_text", {"tiles": [{"tile": 5, "box": [0, 0, 1, 1]}]}),
    ("box_short", {"tiles": [{"tile": "1m", "box": [0, 0, 1]}]}),
    ("box_inverted", {"tiles": [{"tile": "1m", "box": [10, 0, 1, 5]}]}),
    ("box_text", {"tiles": [{"tile": "1m", "box": ["0", 0, 1, 1]}]}),
    ("box_huge", {"tiles": [{"tile": "1m", "box": [0, 0, 1e300, 1]}]}),
    ("box_bool", {"tiles": [{"tile": "1m", "box": [True, 0, 1, 1]}]}),
    ("confidence_high", {"tiles": [_tile("1m", 0, confidence=7)]}),
    ("alternatives_text", {"tiles": [_tile("1m", 0, alternatives="x")]}),
    ("alternative_bad", {"tiles": [_tile("1m", 0, alternatives=[{"tile": "zz", "p": 0.1}])]}),
    ("alternatives_many", {"tiles": [_tile("1m", 0, alternatives=[{"tile": "1m"}] * 50)]}),
    ("up_three", {"tiles": [_tile("1m", 0, up=[0, 1, 2])]}),
    ("too_many", {"tiles": [_tile("1m", i) for i in range(401)]}),
    ("more_than_a_hand", {"tiles": [_tile("1m", 40 * i) for i in range(27)]}),
    ("group_kind", {"tiles": [], "ignored": [{"kind": "hand", "tiles": []}]}),
    ("group_not_object", {"tiles": [], "ignored": ["x"]}),
    ("ignored_too_many", {"tiles": [], "ignored": [{"kind": "wall", "tiles": [_tile("back", i)
                                                   for i in range(300)]}] * 2}),
    ("size_text", {"tiles": [], "size": {"width": "w"}}),
    ("size_not_object", {"tiles": [], "size": "1600x1200"}),
    ("size_list", {"tiles": [], "size": [1600, 1200]}),
    ("size_negative", {"tiles": [], "size": {"width": -5, "height": 10}}),
    ("size_huge", {"tiles": [], "size": {"width": 1e300, "height": 10}}),
    ("unknown_field", {"tiles": [], "tile": []}),
    ("image_object", {"tiles": [], "image": {"a": 1}}),
    ("probabilities_past_one", {"tiles": [_tile("5p", 0, confidence=0.9,
                                                alternatives=[{"tile": "1m", "p": 0.5}])]}),
    ("box_under_a_pixel", {"tiles": [{"tile": "1m", "box": [10, 10, 10.04, 60]}]}),
    ("box_outside_the_photo", {"tiles": [_tile("1m", 5000)],
                               "size": {"width": 640, "height": 480}}),
    ("box_left_of_the_photo", {"tiles": [], "size": {"width": 640, "height": 480},
                               "ignored": [{"kind": "stray", "tiles": [_tile("1m", -100)]}]}),
]  # fmt: skip


@pytest.mark.parametrize("name,obj", BAD, ids=[b[0] for b in BAD])
def test_a_bad_body_is_a_4xx_json_error(client, name, obj) -> None:
    answer = _post(client, obj)
    assert 400 <= answer.status_code < 500, (name, answer.status_code)
    error = answer.get_json()["error"]
    assert error["code"] and error["message"]


def test_errors_speak_the_pages_language(client) -> None:
    answer = _post(client, {"tiles": [_tile("0m", 0)]}, **{"Accept-Language": "zh-CN"})
    message = answer.get_json()["error"]["message"]
    assert answer.status_code == 422 and "牌码" in message


def test_a_tile_reads_back_as_it_was_sent(client) -> None:
    """A tile the rules re-read (5m over a likelier 6m) keeps its name and confidence when
    its group is sent back, so the page's marks stay as they were."""
    tile = _tile("5m", 0, confidence=0.3, alternatives=[{"tile": "6m", "p": 0.6}])
    out = _post(client, {"tiles": [], "ignored": [{"kind": "stray", "tiles": [tile]}]}).get_json()
    back = out["ignored"][0]["tiles"][0]
    assert back["tile"] == "5m" and back["confidence"] == pytest.approx(0.3, abs=1e-3)


@needs_scorer
def test_an_unsure_tile_keeps_its_name_over_every_tile_not_listed(client) -> None:
    """A hand tile sent at no confidence and without alternatives is still the tile
    named (the hand reads), not whichever kind comes first in the code list."""
    codes = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "1p", "2s", "3s"]
    for confidence in (0, 0.001):
        tiles = _row(codes) + [_tile("4s", 10 + 32 * 13 + 40)]
        tiles[9] = {**tiles[9], "confidence": confidence}
        out = _post(client, {"tiles": tiles}).get_json()
        assert out["hand"] == "123456789m11p23s4s", confidence
        assert out["tiles"][9]["tile"] == "1p"


@needs_scorer
def test_a_copy_held_in_the_hand_keeps_the_flag_off(client) -> None:
    """Three N in view while the hand holds N concealed: five copies cannot be, some tile is
    misread, and 和绝张 (which the scorer would refuse) stays off."""
    hand = _row(["1m", "2m", "3m", "4m", "5m", "6m", "4p", "5p", "6p", "E", "E", "E", "N"]) + [
        _tile("N", 10 + 32 * 13 + 40)
    ]
    ponds = [{"kind": "discards", "tiles": _row(["N", "N", "N"], y=20)}]
    out = _post(client, {"tiles": hand, "ignored": ponds}).get_json()
    assert out["hand"] == "123456m456pEEENN" and out["fourth_tile_seen"] is False


def test_an_empty_group_reads_as_no_tiles(client) -> None:
    out = _post(client, {"tiles": []}).get_json()
    assert out["hand"] is None and out["tiles"] == [] and out["ignored"] == []


@needs_scorer
def test_a_tapped_group_cut_by_the_photos_edge_asks_for_the_whole_hand(client) -> None:
    """With the photo's size sent, a tile of the tapped group at its edge is `partial` and
    the answer asks for a photo of the whole hand; with no size sent, nothing is marked."""
    hand = _row(HAND) + [_tile("C", 10 + 32 * 13 + 40)]  # the winning tile ends at x = 496
    body = {"tiles": hand, "ignored": [], "size": {"width": 497, "height": 300}}
    out = _post(client, body).get_json()
    assert [t["partial"] for t in out["tiles"]] == [False] * 13 + [True]
    assert "hand_at_edge" in [n["id"] for n in out["notes"]]
    out = _post(client, {"tiles": hand, "ignored": []}).get_json()
    assert not any(t["partial"] for t in out["tiles"])


@needs_scorer
def test_a_ponds_tile_is_a_playing_tile_lying_face_up(client) -> None:
    """A pond holds only playing tiles face up (a flower is set aside at once, never
    discarded; seed 000): a pond tile read likeliest as a flower or a back is named its
    likeliest playing tile, and so counts among the copies shown for 和绝张 (fan 58)."""
    edge = _row(["1m", "2m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E", "N", "N"]) + [
        _tile("3m", 10 + 32 * 13 + 40)
    ]
    unsure = [
        _tile("4f", 10, y=20, confidence=0.5, alternatives=[{"tile": "3m", "p": 0.3}]),
        _tile("back", 42, y=20, confidence=0.4, alternatives=[{"tile": "3m", "p": 0.35}]),
        _tile("3m", 74, y=20),
    ]
    out = _post(client, {"tiles": edge, "ignored": [{"kind": "discards", "tiles": unsure}]})
    out = out.get_json()
    assert [t["tile"] for t in out["ignored"][0]["tiles"]] == ["3m", "3m", "3m"]
    assert out["fourth_tile_seen"] is True
    strays = _post(client, {"tiles": edge, "ignored": [{"kind": "stray", "tiles": unsure}]})
    assert [t["tile"] for t in strays.get_json()["ignored"][0]["tiles"]] == ["4f", "back", "3m"]
