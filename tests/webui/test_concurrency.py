"""Several tablets at once: a real threaded server answers concurrent requests correctly."""

from __future__ import annotations

import json
import threading
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from tests.webui.conftest import SEED_HAND, needs_scorer
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
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_port}"
    photo_body, photo_type = _multipart(photo_png())

    def score(i: int) -> int:
        body = json.dumps({"hand": SEED_HAND, "self_drawn": True}).encode()
        req = urllib.request.Request(
            f"{base}/api/score", data=body, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=30) as resp:
            return json.load(resp)["total"]

    def recognize(i: int) -> str:
        req = urllib.request.Request(
            f"{base}/api/recognize", data=photo_body, headers={"Content-Type": photo_type}
        )
        with urllib.request.urlopen(req, timeout=30) as resp:
            return json.load(resp)["hand"]

    try:
        with ThreadPoolExecutor(max_workers=12) as pool:
            totals = list(pool.map(score, range(40)))
            hands = list(pool.map(recognize, range(8)))
    finally:
        server.shutdown()
        thread.join(5)
    assert totals == [48] * 40
    assert len(set(hands)) == 1 and hands[0]
