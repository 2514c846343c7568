"""The tiles a table's players named travel with each photo (`exemplars`), and only
well-formed ones reach a reader: anything else is a 4xx before the photo waits.

The page keeps the looks the reader gave and sends them back with the next photo
(`vision.exemplars`); the regroup tap sends the tiles back with their looks too.
"""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from tests.webui.photo_fixture import fake_recognize, photo_png
from vision.exemplars import encode_look
from webui.app import create_app

LOOK = encode_look(np.linspace(0, 1, 240), "0123abcd")


@pytest.fixture()
def seen(tmp_path):
    """A client whose reader records the exemplars each photo came with."""
    calls: list = []
    read = fake_recognize()

    def recognize(data, name, exemplars=None):
        calls.append(exemplars)
        return read(data, name, exemplars=exemplars)

    app = create_app({"MCR_RECOGNIZE": recognize, "MCR_DB": str(tmp_path / "g.db")})
    return app.test_client(), calls


def _upload(client, exemplars: str | None = None):
    data = {"photo": (io.BytesIO(photo_png()), "table.png")}
    if exemplars is not None:
        data["exemplars"] = exemplars
    return client.post("/api/recognize", data=data)


def test_named_tiles_reach_the_reader_with_the_photo(seen) -> None:
    client, calls = seen
    named = [{"tile": "6m", "look": LOOK}, {"tile": "1f", "look": LOOK}]
    assert _upload(client, json.dumps(named)).status_code == 200
    assert _upload(client).status_code == 200
    assert calls == [named, None]


def test_every_tile_of_the_answer_has_a_look_field(seen) -> None:
    """The fake classifier gives no looks: the field is there, null (a model without
    looks learns nothing, and the page keeps nothing)."""
    client, _ = seen
    body = _upload(client).get_json()
    assert all("look" in t and t["look"] is None for t in body["tiles"])


@pytest.mark.parametrize(
    ("text", "status", "code"),
    [
        ("not json", 400, "bad_json"),
        ("[" * 50 + "]" * 50, 400, "too_deep"),
        ('{"tile": "6m"}', 422, "bad_exemplars"),
        (json.dumps([{"tile": "back", "look": LOOK}]), 422, "bad_exemplars"),
        (json.dumps([{"tile": "6m", "look": "<script>"}]), 422, "bad_exemplars"),
        (json.dumps([{"tile": "6m", "look": LOOK, "x": 1}]), 422, "bad_exemplars"),
        (json.dumps([{"tile": "6m", "look": LOOK}] * 301), 422, "bad_exemplars"),
        (json.dumps([{"tile": "6m", "look": LOOK + "A" * 3000}]), 422, "too_long"),
        (json.dumps([{"tile": 10**40, "look": LOOK}]), 422, "number_out_of_range"),
        (json.dumps("x" * 400_000), 413, "body_too_large"),
    ],
)
def test_bad_exemplars_are_a_clear_4xx_and_no_reading(
    seen, text: str, status: int, code: str
) -> None:
    client, calls = seen
    resp = _upload(client, text)
    assert resp.status_code == status, resp.get_data(as_text=True)
    assert resp.get_json()["error"]["code"] == code
    assert calls == []


def test_exemplars_that_are_no_json_are_named_not_the_whole_upload(seen) -> None:
    client, calls = seen
    resp = _upload(client, "not json")
    assert resp.status_code == 400
    assert resp.get_json()["error"]["code"] == "bad_json"
    assert "'exemplars'" in resp.get_json()["error"]["message"]
    assert calls == []


def test_bad_exemplars_are_refused_in_the_players_language(seen) -> None:
    client, _ = seen
    resp = client.post(
        "/api/recognize",
        data={"photo": (io.BytesIO(photo_png()), "t.png"), "exemplars": "[1]"},
        headers={"Accept-Language": "zh-CN"},
    )
    assert resp.status_code == 422
    assert "牌码" in resp.get_json()["error"]["message"]


def _regroup(client, tiles: list[dict]):
    body = {"tiles": tiles, "ignored": []}
    return client.post("/api/regroup", data=json.dumps(body), content_type="application/json")


def test_a_regrouped_hand_keeps_its_tiles_looks(client) -> None:
    tiles = [
        {"tile": c, "box": [10 + 32 * i, 100, 40 + 32 * i, 140], "confidence": 0.9, "look": LOOK}
        for i, c in enumerate(["1m", "2m", "3m"])
    ]
    out = _regroup(client, tiles).get_json()
    assert [t["look"] for t in out["tiles"]] == [LOOK] * 3


@pytest.mark.parametrize("look", ["<img src=x>", 5, ["a"], "0123abcd:" + "A" * 2100])
def test_a_regrouped_tile_with_a_bad_look_is_refused(client, look) -> None:
    tiles = [{"tile": "1m", "box": [10, 100, 40, 140], "confidence": 0.9, "look": look}]
    resp = _regroup(client, tiles)
    assert resp.status_code == 422
    assert resp.get_json()["error"]["code"] in ("bad_tiles", "too_long")


def test_a_whole_tables_tiles_sent_back_with_their_looks_are_read(client) -> None:
    """A whole table is about 150 tiles; its result's faces carry looks (backs none), and
    the page sends them all back when a group is tapped as the hand."""
    hand = [
        {"tile": c, "box": [10 + 32 * i, 100, 40 + 32 * i, 140], "confidence": 0.9, "look": LOOK}
        for i, c in enumerate(["1m", "2m", "3m"])
    ]
    pond = [
        {
            "tile": "9p",
            "box": [
                10 + 32 * (i % 20),
                200 + 45 * (i // 20),
                40 + 32 * (i % 20),
                240 + 45 * (i // 20),
            ],
            "confidence": 0.9,
            "alternatives": [{"tile": "8p", "p": 0.05}, {"tile": "7p", "p": 0.02}],
            "up": [0.0, -1.0],
            "look": LOOK,
        }
        for i in range(150)
    ]
    body = {"tiles": hand, "ignored": [{"kind": "discards", "tiles": pond}]}
    data = json.dumps(body)
    assert len(data) > 64 * 1024  # more than a score request may be
    resp = client.post("/api/regroup", data=data, content_type="application/json")
    assert resp.status_code == 200, resp.get_data(as_text=True)[:300]
    assert len(resp.get_json()["ignored"][0]["tiles"]) == 150
