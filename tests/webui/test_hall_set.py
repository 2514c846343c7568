"""`/api/hall-set`: the referee teaches the hall's tile set once, every table's photos lean
on it first; changing it needs the hall PIN, reading it does not; a damaged file is no
set, never a failure of every photo."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from tests.webui.photo_fixture import fake_recognize, photo_png
from vision.config import DEFAULT
from vision.exemplars import encode_look
from vision.tileset import BLOCKS, PLAYING
from webui import security
from webui.app import create_app

SET = [c for name in PLAYING for c in BLOCKS[name]]
LOOKS = [encode_look(np.full(240, k + 1.0), "0123abcd") for k in range(len(SET))]
TAUGHT = {
    "image": "set.jpg",
    "set": [
        {"tile": c, "look": look, "box": [0, 0, 1, 1], "read": c}
        for c, look in zip(SET, LOOKS, strict=True)
    ],
    "agreed": 34,
    "elapsed_ms": 1.0,
}
HALL = [{"tile": c, "look": look} for c, look in zip(SET, LOOKS, strict=True)]
LAN = {"REMOTE_ADDR": "192.168.1.20"}


@pytest.fixture(autouse=True)
def _no_wrong_pins_yet(monkeypatch):
    monkeypatch.setattr(security, "_failures", {})


@pytest.fixture()
def hall(tmp_path, monkeypatch):
    """An app whose reader records the named tiles each photo came with; a set photo is
    read as TAUGHT."""
    calls: list = []
    read = fake_recognize()

    def recognize(data, name, exemplars=None):
        calls.append(exemplars)
        return read(data, name, exemplars=exemplars)

    monkeypatch.setattr("vision.pipeline.teach_set", lambda data, name: TAUGHT)
    config = {"MCR_RECOGNIZE": recognize, "MCR_DB": str(tmp_path / "games.db")}
    return create_app(config), calls, config


def _photo(name: str = "set.jpg") -> dict:
    return {"photo": (io.BytesIO(photo_png()), name)}


def test_the_hall_set_is_taught_kept_sent_first_and_forgotten(hall) -> None:
    app, calls, config = hall
    client = app.test_client()
    assert client.get("/api/hall-set").get_json() == {"count": 0}
    resp = client.post("/api/hall-set", data=_photo())
    assert resp.status_code == 200 and resp.get_json()["hall"] is True
    assert client.get("/api/hall-set").get_json() == {"count": 34}
    mine = [{"tile": "6m", "look": LOOKS[0]}]
    client.post("/api/recognize", data={**_photo("hand.png"), "exemplars": json.dumps(mine)})
    client.post("/api/recognize", data=_photo("hand.png"))
    assert calls == [HALL + mine, HALL]
    # kept on disk: a restarted server reads every photo with it still
    again = create_app({**config})
    assert again.test_client().get("/api/hall-set").get_json() == {"count": 34}
    assert client.delete("/api/hall-set").get_json() == {"count": 0}
    client.post("/api/recognize", data=_photo("hand.png"))
    assert calls[-1] is None
    assert create_app({**config}).test_client().get("/api/hall-set").get_json()["count"] == 0


def test_the_hall_set_and_a_tablets_tiles_stay_within_the_readers_limit(hall) -> None:
    app, calls, _ = hall
    client = app.test_client()
    client.post("/api/hall-set", data=_photo())
    mine = [{"tile": "6m", "look": LOOKS[k % 34]} for k in range(DEFAULT.exemplars.most)]
    resp = client.post("/api/recognize", data={**_photo("h.png"), "exemplars": json.dumps(mine)})
    assert resp.status_code == 200
    assert len(calls[-1]) == DEFAULT.exemplars.most and calls[-1][:34] == HALL


@pytest.mark.parametrize(
    "content",
    [
        "not json",
        '{"tile": "5m"}',
        '[{"tile": "5m", "look": "<script>"}]',
        "[" * 5000,
        '"' + "x" * 300_000 + '"',
    ],
)
def test_a_damaged_hall_set_file_is_no_set_and_photos_are_still_read(
    hall, tmp_path, content
) -> None:
    app, calls, _ = hall
    (tmp_path / "games.hall-set.json").write_text(content)
    client = app.test_client()
    assert client.get("/api/hall-set").get_json() == {"count": 0}
    assert client.post("/api/recognize", data=_photo("hand.png")).status_code == 200
    assert calls == [None]


def test_changing_the_hall_set_needs_the_pin_from_other_machines(hall) -> None:
    app, calls, _ = hall
    app.config.update(MCR_ALLOWED_HOSTS=frozenset({"192.168.1.5"}), MCR_PIN="246810")
    tablet = app.test_client()
    for method in ("post", "delete"):
        kwargs = {"data": _photo()} if method == "post" else {}
        resp = getattr(tablet, method)("/api/hall-set", environ_base=LAN, **kwargs)
        assert resp.status_code == 403 and resp.get_json()["error"]["code"] == "pin_required"
    assert tablet.get("/api/hall-set", environ_base=LAN).get_json() == {"count": 0}
    resp = tablet.post(
        "/api/hall-set", data=_photo(), environ_base=LAN, headers={"X-MCR-PIN": "246810"}
    )
    assert resp.status_code == 200
    # reading photos stays open: the tablet without the PIN gets the hall's set applied
    tablet.post("/api/recognize", data=_photo("hand.png"), environ_base=LAN)
    assert calls[-1] == HALL


def test_a_cross_site_form_cannot_teach_the_hall(hall) -> None:
    app, _, _ = hall
    resp = app.test_client().post(
        "/api/hall-set", data=_photo(), headers={"Origin": "http://evil.example"}
    )
    assert resp.status_code == 403
    assert app.test_client().get("/api/hall-set").get_json() == {"count": 0}


def test_a_photo_that_is_no_set_leaves_the_hall_set_as_it_was(hall, monkeypatch) -> None:
    from vision.errors import PhotoError

    app, _, _ = hall
    client = app.test_client()
    client.post("/api/hall-set", data=_photo())

    def refuse(data, name):
        raise PhotoError("tileset.count", found=16)

    monkeypatch.setattr("vision.pipeline.teach_set", refuse)
    resp = client.post("/api/hall-set", data=_photo(), headers={"Accept-Language": "zh-CN"})
    assert resp.status_code == 422 and "找到 16 张牌" in resp.get_json()["error"]["message"]
    assert client.get("/api/hall-set").get_json() == {"count": 34}


def test_a_look_of_the_wrong_size_in_the_file_is_left_out_not_every_photo(hall, tmp_path):
    """A hand-edited or damaged look (the classifier's own tag, a few bytes) would make
    every photo's request a bad one: that tile is left out, the rest kept."""
    app, calls, _ = hall
    client = app.test_client()
    client.post("/api/hall-set", data=_photo())
    file = tmp_path / "games.hall-set.json"
    kept = json.loads(file.read_text())
    assert kept["size"] == 240 and len(kept["tiles"]) == 34
    kept["tiles"][0]["look"] = LOOKS[0].split(":")[0] + ":AAAA"
    kept["tiles"][1]["look"] = LOOKS[1].split(":")[0] + ":A"
    file.write_text(json.dumps(kept))
    again = create_app({**app.config, "MCR_RECOGNIZE": app.config["MCR_RECOGNIZE"]}).test_client()
    assert again.get("/api/hall-set").get_json() == {"count": 32}
    assert again.post("/api/recognize", data=_photo("hand.png")).status_code == 200
    assert calls[-1] == HALL[2:]


def test_a_hall_set_the_server_cannot_write_is_a_clear_503(hall, tmp_path) -> None:
    """The file's place taken by a folder (a full disk, a read-only folder alike)."""
    app, _, _ = hall
    (tmp_path / "games.hall-set.json").mkdir()
    client = app.test_client()
    for resp in (client.post("/api/hall-set", data=_photo()), client.delete("/api/hall-set")):
        assert resp.status_code == 503
        error = resp.get_json()["error"]
        assert error["code"] == "hall_set_unwritable" and "hall's tile set" in error["message"]
    assert not (tmp_path / "games.hall-set.part").exists()
    assert client.get("/api/hall-set").get_json() == {"count": 0}


def test_the_pin_refusal_names_the_hall_set(hall) -> None:
    app, _, _ = hall
    app.config.update(MCR_ALLOWED_HOSTS=frozenset({"192.168.1.5"}), MCR_PIN="246810")
    resp = app.test_client().delete("/api/hall-set", environ_base=LAN)
    assert "hall's tile set needs the hall PIN" in resp.get_json()["error"]["message"]
