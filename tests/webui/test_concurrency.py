"""Several tablets at once: a real threaded server answers concurrent requests correctly."""

from __future__ import annotations

import json
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from tests.webui.conftest import SEED_HAND, call_json, live_server, needs_scorer
from tests.webui.photo_fixture import photo_png


def _multipart(data: bytes) -> tuple[bytes, str]:
    boundary = "----mcrtest"
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="t.png"\r\n'
            "Content-Type: image/png\r\n\r\n"
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, f"multipart/form-data; boundary={boundary}"


@needs_scorer
def test_concurrent_scores_and_photos(app):
    photo_body, photo_type = _multipart(photo_png())

    def recognize(i: int) -> str:
        req = urllib.request.Request(
            f"{base}api/recognize", data=photo_body, headers={"Content-Type": photo_type}
        )
        with urllib.request.urlopen(req, timeout=30) as resp:
            return json.load(resp)["hand"]

    def score(i: int) -> int:
        return call_json(base, "POST", "api/score", {"hand": SEED_HAND, "self_drawn": True})[
            "total"
        ]

    with live_server(app) as base, ThreadPoolExecutor(max_workers=12) as pool:
        totals = list(pool.map(score, range(40)))
        hands = list(pool.map(recognize, range(8)))
    assert totals == [48] * 40
    assert len(set(hands)) == 1 and hands[0]


def test_a_photo_that_would_wait_too_long_is_told_at_once_when_to_come_back(monkeypatch):
    """One reader at 0.4 s a photo and at most 1 s of waiting: of five photos sent at
    once, those that would wait past the second are refused at once, with a
    Retry-After from the pace the readings have lately kept, not after a second."""
    import io
    import time

    from webui import photos

    monkeypatch.setattr(photos, "WAIT_S", 1.0)

    def slow(data: bytes, name: str, exemplars=None) -> dict:
        time.sleep(0.4)
        return {"image": name}

    reader = photos.PhotoReader(readers=1, queue=16, recognize=slow)
    for _ in range(8):  # the pace: readings timed until it has settled near 0.4 s
        reader.read(io.BytesIO(b"x"), "p.jpg", 10)

    def send(k: int) -> tuple[str, float, int]:
        time.sleep(0.05 * k)  # one after another, within a quarter of a second
        started = time.monotonic()
        try:
            reader.read(io.BytesIO(b"x"), f"{k}.jpg", 10)
            return "read", time.monotonic() - started, 0
        except photos.Busy as busy:
            return "busy", time.monotonic() - started, busy.retry_after

    with ThreadPoolExecutor(5) as pool:
        answers = list(pool.map(send, range(5)))
    reader.close()
    assert [a[0] for a in answers] == ["read", "read", "read", "busy", "busy"]
    assert all(secs < 0.2 and retry >= 2 for kind, secs, retry in answers if kind == "busy")
