"""The library served to the page: tile codes and names, fan names, the notation both ways.

The page holds no tile list and no notation parser of its own; these tests
pin what it gets instead, and that the server's texts follow the language
the page asks for.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from scorer.fans import FANS
from scorer.names import FAN_NAMES_ZH_HANT, TILE_NAMES
from scorer.tiles import CODES
from tests.webui.conftest import SEED_HAND

SEEDS = Path(__file__).resolve().parents[2] / ".." / "shared" / "seeds"
FIELD_NAMES = ("fourth_tile", "last_tile", "self_drawn", "seat_wind", "'kong'")


def _module_consts(text: str) -> dict:
    found = re.findall(r"^export const (\w+) = Object\.freeze\((.*)\);$", text, re.M)
    return {name: json.loads(value) for name, value in found}


def test_library_module_is_the_library(client):
    resp = client.get("/library.js")
    assert resp.status_code == 200 and "javascript" in resp.content_type
    consts = _module_consts(resp.get_data(as_text=True))
    assert [x["code"] for x in consts["TILES"]] == list(CODES)
    assert consts["LANGS"] == ["zh", "zh-Hant", "en"]
    five_dots = consts["TILES"][CODES.index("5p")]
    assert (five_dots["kind"], five_dots["suit"], five_dots["rank"]) == ("suited", "p", 5)
    assert five_dots["names"] == {"zh": "五饼", "zh-Hant": "五餅", "en": "5 Dots"}
    fans = consts["FANS"]
    assert sorted(map(int, fans)) == list(range(1, 82))
    assert fans["46"]["names"] == {"zh": "杠上开花", "zh-Hant": "槓上開花", "en": FANS[46].name_en}
    assert all(len(names) == len(CODES) for names in TILE_NAMES.values())
    from scorer.game.rules import WRONG_WIN_PAYMENT

    assert consts["RULES"] == {"wrong_win_payment": WRONG_WIN_PAYMENT}


def test_traditional_fan_names_are_the_rulebooks_own():
    """Seed 001's fan definitions, written in traditional characters, name each fan."""
    seeds = sorted(SEEDS.glob("001_*.txt")) if SEEDS.is_dir() else []
    if not seeds:
        pytest.skip("the rules documents (../shared/seeds) are not here")
    text = seeds[0].read_text(encoding="utf-8")
    for fan_id, name in FAN_NAMES_ZH_HANT.items():
        assert re.search(rf"^{fan_id}、{name[0]}", text, re.M), (fan_id, name)
        assert name.replace("坎張", "坎（嵌）張") in text, (fan_id, name)
    assert set(FAN_NAMES_ZH_HANT) == set(FANS)


ROUND_TRIP = [
    "[567m,2][999s,3][8888p,1][SSSS]EE",
    "[5555m,5][123p,3]456789sCC",
    "19m19p19sESWNCFP1m",
    "555666777p5556s7s",  # the winning tile keeps its own suit letter
]


@pytest.mark.parametrize("hand", ROUND_TRIP)
def test_notation_read_and_written_back_is_the_same_hand(client, hand):
    read = client.post("/api/hand", json={"hand": hand}).get_json()
    assert read["hand"] == hand
    written = client.post(
        "/api/hand", json={k: read[k] for k in ("melds", "concealed", "winning")}
    ).get_json()
    assert written == {"hand": hand}


def test_a_hand_being_typed_has_no_winning_tile_yet(client):
    read = client.post("/api/hand", json={"hand": "[123m,1]55p"}).get_json()
    assert read["melds"] == [
        {"kind": "chow", "tiles": ["1m", "2m", "3m"], "claimed": 1, "promoted": False}
    ]
    assert (read["concealed"], read["winning"]) == (["5p", "5p"], None)
    # fourteen tiles: the last one is the winning tile, written with its own suit letter
    read = client.post("/api/hand", json={"hand": "11223344556677m"}).get_json()
    assert (read["winning"], read["hand"]) == ("7m", "1122334455667m7m")


def test_a_meld_is_written_by_the_library(client):
    body = {
        "melds": [
            {"kind": "chow", "tiles": ["8m", "6m", "7m"], "claimed": 2, "promoted": False},
            {"kind": "kong", "tiles": ["C"] * 4, "claimed": 2, "promoted": True},
            {"kind": "kong", "tiles": ["S"] * 4, "claimed": 0, "promoted": False},
        ],
        "concealed": ["E"],
        "winning": "E",
    }
    assert client.post("/api/hand", json=body).get_json() == {"hand": "[678m,2][CCCC,6][SSSS]EE"}
    assert client.post("/api/hand", json={"concealed": []}).get_json() == {"hand": ""}


HOSTILE = [
    {"hand": 5},
    {"hand": None},
    {"hand": "12x"},
    {"hand": "\ud800123m"},
    {"hand": "１２３m"},
    {"hand": "1" * 5000 + "m"},
    {"hand": "[123m"},
    {"concealed": "1m"},
    {"concealed": ["1f"]},
    {"concealed": ["back"]},
    {"concealed": [None]},
    {"concealed": ["1m"] * 19},
    {"winning": "9z"},
    {"winning": ["1m"]},
    {"melds": {}},
    {"melds": [{}] * 5},
    {"melds": [[1, 2, 3]]},
    {"melds": [{"kind": "pair", "tiles": ["1m", "1m"]}]},
    {"melds": [{"kind": "chow", "tiles": ["1m", "5m", "9m"]}]},
    {"melds": [{"kind": "pung", "tiles": ["1m"] * 3, "claimed": 0}]},
    {"melds": [{"kind": "pung", "tiles": ["1m"] * 3, "claimed": True}]},
    {"melds": [{"kind": "pung", "tiles": ["1m"] * 3, "claimed": 10**30}]},
    {"melds": [{"kind": "kong", "tiles": ["1m"] * 4, "promoted": "yes"}]},
    {"melds": [{"kind": "pung", "tiles": ["1m"] * 3, "extra": 1}]},
    {"melds": [{"kind": "pung", "tiles": ["1m"] * 40}]},
    # tiles that are another kind of meld than the one sent: read as the tiles said
    {"melds": [{"kind": "pung", "tiles": ["1m", "2m", "3m"], "claimed": 2}]},
    {"melds": [{"kind": "kong", "tiles": ["1m"] * 3}]},
    {"melds": [{"kind": "pung", "tiles": ["1m"] * 4}]},
    {"melds": [{"kind": "pung", "tiles": ["1m"] * 3, "promoted": True}]},
    {"surprise": 1},
]


@pytest.mark.parametrize("body", HOSTILE)
def test_a_bad_hand_is_a_clear_4xx(client, body):
    resp = client.post("/api/hand", data=json.dumps(body), content_type="application/json")
    assert 400 <= resp.status_code < 500
    error = resp.get_json()["error"]
    assert error["code"] and error["message"] and "\ud800" not in error["message"]


@pytest.mark.parametrize("data", [b"", b"[", b"[1, 2]", b'"hand"', b"\xff\xfe"])
def test_a_body_that_is_no_object_is_a_400(client, data):
    resp = client.post("/api/hand", data=data, content_type="application/json")
    assert resp.status_code == 400 and resp.get_json()["error"]["code"]


def test_the_library_module_refuses_other_methods(client):
    assert client.post("/library.js").status_code == 405
    assert client.get("/api/hand").status_code == 405


HOLDS_WIN = "123m456m789m11p555p"  # won on a 5p with two more 5p in the hand
REASONS = [  # (request, flag the hand makes impossible)
    ({"hand": SEED_HAND, "self_drawn": True}, "kong"),  # 杠上开花 without a kong
    ({"hand": HOLDS_WIN}, "kong"),  # 抢杠和 of 5p while holding two 5p
    ({"hand": HOLDS_WIN}, "fourth_tile"),  # 和绝张 while holding 5p concealed
    ({"hand": SEED_HAND, "last_tile": True}, "kong"),  # 抢杠和 and 海底捞月 at once
    ({"hand": "[7777s,1]555666777p55s", "kong": True, "self_drawn": True}, "self_drawn"),
]


@pytest.mark.parametrize(("req", "flag"), REASONS)
@pytest.mark.parametrize("lang", ["zh", "zh-Hant", "en"])
def test_a_disabled_option_says_why_in_the_pages_language(client, req, flag, lang):
    resp = client.post("/api/options", json=req, headers={"Accept-Language": lang})
    info = resp.get_json()["flags"][flag]
    assert info["possible"] is False
    message = info["message"]
    assert not any(name in message for name in FIELD_NAMES), message
    has_han = re.search(r"[\u4e00-\u9fff]", message)
    if lang == "en":
        assert not has_han and re.search(r"[a-z]{4}", message)
    else:
        assert has_han and not re.search(r"[A-Za-z]{2}", message), message
        simplified = client.post("/api/options", json=req, headers={"Accept-Language": "zh"})
        same = simplified.get_json()["flags"][flag]["message"] == message
        assert same == (lang == "zh")


@pytest.mark.parametrize("lang", ["zh", "zh-Hant", "en"])
def test_an_option_that_would_mend_a_refused_request_is_marked_with_the_reason(client, lang):
    """和绝张 ticked on a hand that holds the winning tile concealed (a hand corrected
    after the tick): unticking it mends the request, and the reason is in page words."""
    req = {"hand": HOLDS_WIN, "fourth_tile": True}
    body = client.post("/api/options", json=req, headers={"Accept-Language": lang}).get_json()
    assert body["base_error"] == "contradictory_flags"
    info = body["flags"]["fourth_tile"]
    assert info["possible"] is True and info["mends"] is True
    assert info["message"] == body["base_message"]
    assert not any(name in body["base_message"] for name in FIELD_NAMES), body["base_message"]
    assert "mends" not in body["flags"]["last_tile"]  # flipping it leaves the refusal


def test_a_scorable_request_has_no_base_message(client):
    body = client.post("/api/options", json={"hand": SEED_HAND}).get_json()
    assert body["base_error"] is None and body["base_message"] is None
    assert not any("mends" in info for info in body["flags"].values())


@pytest.mark.parametrize(
    "body",
    [
        {"hand": SEED_HAND, "kong": "yes"},
        {"hand": SEED_HAND, "kong": "false"},
        {"hand": SEED_HAND, "self_drawn": 1},
        {"hand": SEED_HAND, "fourth_tile": None},
        {"hand": SEED_HAND, "flowers": "2"},
        {"hand": SEED_HAND, "seat_wind": "X"},
        {"hand": SEED_HAND, "selfdrawn": True},
        {"hand": SEED_HAND, "lang": "fr"},
        {"hand": 5},
        {},
    ],
)
def test_options_of_a_malformed_request_are_a_4xx_not_a_mend(client, body):
    """A mistyped flag (the string "false") is the request's error: no flag is offered
    as mending it."""
    resp = client.post("/api/options", json=body)
    assert resp.status_code == 422, resp.get_json()
    assert resp.get_json()["error"]["code"] in {
        "bad_type", "unknown_field", "missing_field", "bad_flowers", "bad_wind", "bad_lang"
    }  # fmt: skip


def test_a_promoted_kong_needs_the_seat_it_was_claimed_from(client):
    """加杠 grows from a claimed pung: a concealed kong sent as promoted is refused, not
    written as a concealed kong with the flag dropped."""
    meld = {"kind": "kong", "tiles": ["1m"] * 4, "claimed": 0, "promoted": True}
    resp = client.post("/api/hand", json={"melds": [meld]}, headers={"Accept-Language": "zh"})
    assert resp.status_code == 422 and "加杠" in resp.get_json()["error"]["message"]
    meld["claimed"] = 2
    assert client.post("/api/hand", json={"melds": [meld]}).get_json()["hand"] == "[1111m,6]"


def test_melds_not_a_list_are_named_as_such(client):
    resp = client.post("/api/hand", json={"melds": {}})
    assert resp.status_code == 422
    assert "list" in resp.get_json()["error"]["message"]
    assert "at most" not in resp.get_json()["error"]["message"]


def test_a_written_hand_and_melds_together_are_refused(client):
    """Either the notation or the structure: one of them would be silently dropped."""
    body = {"hand": SEED_HAND, "melds": [{"kind": "pung", "tiles": ["1m"] * 3}]}
    resp = client.post("/api/hand", json=body)
    assert 400 <= resp.status_code < 500 and resp.get_json()["error"]["code"] == "bad_request"
