"""`POST /api/teach`: a photo of the table's set laid out in order is read into the set
it teaches (`vision.tileset`), through the same bounded readers as the hands' photos.

The readers here are threads (a fake hand reader is configured), so the set is read by
the library itself: a photo that is no laid-out set is refused in the player's
language, and a set read (`vision.pipeline.teach_set`, replaced where the test needs a
set without artwork) comes back as the page keeps it.
"""

from __future__ import annotations

import io
import re
import threading

import numpy as np
import pytest

from tests.webui.photo_fixture import fake_recognize, photo_png
from vision.errors import PhotoError
from vision.exemplars import encode_look
from vision.tileset import BLOCKS, PLAYING
from webui.app import create_app

SET = [c for name in PLAYING for c in BLOCKS[name]]
TAUGHT = {
    "image": "set.jpg",
    "set": [
        {"tile": c, "look": encode_look(np.full(240, k + 1.0), "0123abcd"), "box": [0, 0, 1, 1],
         "read": c}
        for k, c in enumerate(SET)
    ],
    "agreed": 34,
    "elapsed_ms": 1.0,
}  # fmt: skip


@pytest.fixture()
def client(tmp_path):
    app = create_app({"MCR_RECOGNIZE": fake_recognize(), "MCR_DB": str(tmp_path / "g.db")})
    return app.test_client()


def _teach(client, data: bytes = b"", name: str = "set.jpg", **kw):
    form = {"photo": (io.BytesIO(data or photo_png()), name)}
    return client.post("/api/teach", data=form, **kw)


def test_a_set_read_comes_back_with_each_tile_named_by_its_place(client, monkeypatch) -> None:
    sent = []

    def teach_set(data, name):
        sent.append((len(data), name))
        return TAUGHT

    monkeypatch.setattr("vision.pipeline.teach_set", teach_set)
    resp = _teach(client, b"\xff\xd8photo", "mine.jpg")
    assert resp.status_code == 200
    assert resp.get_json()["set"][5] == TAUGHT["set"][5]
    assert sent == [(len(b"\xff\xd8photo"), "mine.jpg")]


@pytest.mark.parametrize(
    ("lang", "pattern"),
    [("en", r"^Found \d+ tiles; "), ("zh-CN", r"^找到 \d+ 张牌；"), ("zh-TW", r"^找到 \d+ 張牌；")],
)
def test_a_photo_that_is_no_laid_out_set_is_refused_in_the_players_language(
    client, lang: str, pattern: str
) -> None:
    """The bundled reader finds a hand's tiles in the fixture: no set to teach."""
    resp = _teach(client, headers={"Accept-Language": lang})
    assert resp.status_code == 422
    error = resp.get_json()["error"]
    assert error["code"] == "tileset" and re.match(pattern, error["message"])


def test_a_set_taught_waits_its_turn_with_the_hands(tmp_path, monkeypatch) -> None:
    """One reader and no queue: while a set is read, a hand's photo is told to come back
    (503, Retry-After), not read beside it: the hall's readers bound both."""
    started, release = threading.Event(), threading.Event()

    def slow_teach(data, name):
        started.set()
        release.wait(10)
        return TAUGHT

    monkeypatch.setattr("vision.pipeline.teach_set", slow_teach)
    app = create_app(
        {
            "MCR_RECOGNIZE": fake_recognize(),
            "MCR_DB": str(tmp_path / "g.db"),
            "MCR_READERS": 1,
            "MCR_PHOTO_QUEUE": 0,
        }
    )
    answers = {}
    teacher = threading.Thread(target=lambda: answers.update(teach=_teach(app.test_client())))
    teacher.start()
    assert started.wait(10)
    form = {"photo": (io.BytesIO(photo_png()), "hand.png")}
    busy = app.test_client().post("/api/recognize", data=form)
    assert busy.status_code == 503 and int(busy.headers["Retry-After"]) >= 1
    release.set()
    teacher.join(10)
    assert answers["teach"].status_code == 200


def test_reading_switched_off_refuses_teaching_too(tmp_path) -> None:
    """Readers off: both photo endpoints say so first, whatever else the form holds (a
    page must not forget its named tiles over a server that reads no photo)."""
    app = create_app({"MCR_READERS": 0, "MCR_DB": str(tmp_path / "g.db")})
    resp = _teach(app.test_client())
    assert resp.status_code == 503 and resp.get_json()["error"]["code"] == "recognizer_off"
    form = {"photo": (io.BytesIO(photo_png()), "hand.png"), "exemplars": "not json"}
    resp = app.test_client().post("/api/recognize", data=form)
    assert resp.status_code == 503 and resp.get_json()["error"]["code"] == "recognizer_off"


def test_a_cross_site_form_cannot_make_the_server_read(client, monkeypatch) -> None:
    calls = []
    monkeypatch.setattr("vision.pipeline.teach_set", lambda *a: calls.append(a) or TAUGHT)
    resp = _teach(client, headers={"Origin": "http://evil.example"})
    assert resp.status_code == 403 and calls == []
    foreign = client.post(
        "/api/teach",
        data={"photo": (io.BytesIO(photo_png()), "set.jpg")},
        base_url="http://evil.example",
    )
    assert foreign.status_code == 400 and calls == []


def test_a_refusal_from_the_reader_is_a_4xx_not_a_500(client, monkeypatch) -> None:
    def refuse(data, name):
        raise PhotoError("tileset.order", agree=3, count=34)

    monkeypatch.setattr("vision.pipeline.teach_set", refuse)
    resp = _teach(client)
    assert resp.status_code == 422 and "3 of the 34" in resp.get_json()["error"]["message"]
