"""The photo reader's notes reach the page in its language (CONTRACTS.md "Recognition
output": `warnings` in the language the request asks for, English by default; `notes` the
same notes by message id, each with its `texts` in every language)."""

from __future__ import annotations

import io
import json

import pytest

from tests.webui.photo_fixture import THIRTEEN, fake_recognize, photo_png
from webui.app import create_app

ENGLISH = [
    "No tile is set apart at the end of the hand; took its last tile as the winning tile.",
    "Found 13 tiles besides 0 meld(s): a waiting hand, not yet a win.",
]
SIMPLIFIED = [
    "手牌末端没有单独放开的牌；已把最后一张当作和张。",
    "除 0 组副露外找到 13 张牌：这是听牌，还没有和。",
]
TRADITIONAL = [
    "手牌末端沒有單獨放開的牌；已把最後一張當作和張。",
    "除 0 組副露外找到 13 張牌：這是聽牌，還沒有和。",
]


@pytest.fixture()
def thirteen(tmp_path):
    """The app reading a photo of 13 tiles in a row: a waiting hand, nothing set apart."""
    config = {"TESTING": True, "MCR_DB": str(tmp_path / "g.db")}
    return create_app({**config, "MCR_RECOGNIZE": fake_recognize(THIRTEEN)}).test_client()


def _read(client, **headers) -> dict:
    photo = {"photo": (io.BytesIO(photo_png(THIRTEEN)), "thirteen.png")}
    resp = client.post("/api/recognize", data=photo, headers=headers)
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return resp.get_json()


@pytest.mark.parametrize(
    ("cookie", "headers", "expected"),
    [
        (None, {}, ENGLISH),
        (None, {"Accept-Language": "en-GB,en;q=0.9"}, ENGLISH),
        (None, {"Accept-Language": "zh-CN,zh;q=0.9"}, SIMPLIFIED),
        (None, {"Accept-Language": "zh-TW"}, TRADITIONAL),
        ("zh-Hant", {"Accept-Language": "en"}, TRADITIONAL),  # the page's choice goes first
    ],
    ids=["default", "en", "zh", "zh-TW", "cookie"],
)
def test_a_photo_is_noted_in_the_language_asked(thirteen, cookie, headers, expected):
    if cookie:
        thirteen.set_cookie("mcr-lang", cookie)
    out = _read(thirteen, **headers)
    assert out["warnings"] == expected
    assert [n["id"] for n in out["notes"]] == ["nothing_set_apart", "waiting_hand"]
    assert out["notes"][1]["params"] == {"have": 13, "melds": 0}
    # every language, for a page whose reader switches it after the photo
    texts = [n["texts"] for n in out["notes"]]
    assert [t["en"] for t in texts] == ENGLISH
    assert [t["zh"] for t in texts] == SIMPLIFIED
    assert [t["zh-Hant"] for t in texts] == TRADITIONAL


def test_only_the_notes_change_with_the_language(thirteen):
    english, chinese = _read(thirteen), _read(thirteen, **{"Accept-Language": "zh"})
    for out in (english, chinese):
        out.pop("elapsed_ms", None)
        out.pop("warnings")
    assert english == chinese
    assert english["hand"] is None and english["waits"]


def test_a_tapped_group_is_noted_in_the_page_language(client):
    """`/api/regroup`: the pond tapped as the hand is no hand, and the page is told so."""
    row = [{"tile": c, "box": [10 + 32 * i, 20, 40 + 32 * i, 60]} for i, c in enumerate("1234")]
    tiles = [{**t, "tile": t["tile"] + "m", "confidence": 0.95} for t in row]
    stray = [{**t, "box": [t["box"][0], 200, t["box"][2], 240]} for t in tiles]
    body = {"tiles": tiles, "ignored": [{"kind": "stray", "tiles": stray}], "lang": "zh-Hant"}
    resp = client.post("/api/regroup", data=json.dumps(body), content_type="application/json")
    assert resp.status_code == 200, resp.get_data(as_text=True)
    out = resp.get_json()
    assert "no_hand_among" in [n["id"] for n in out["notes"]]
    assert "照片裡沒有一組牌是完整的和牌：請點一下手牌那一組，或改正其中的牌。" in out["warnings"]
    assert not any(c.isascii() and c.isalpha() for w in out["warnings"] for c in w)
