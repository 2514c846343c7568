"""The production server itself (waitress, on loopback): half-sent requests hold no
thread, broken HTTP gets an answer, a full photo queue answers 503 with Retry-After,
and the server stays alive throughout."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.webui.conftest import SEED_HAND, needs_scorer
from tests.webui.photo_fixture import photo_png
from webui.app import create_app
from webui.server import TARGET_BYTES, Limits, make_server, target_path

#: a small server: few threads, so a stalled request holding one would show
SMALL = Limits(threads=4, connection_limit=100, channel_timeout=5)


@pytest.fixture()
def serve(tmp_path):
    """serve(config, limits) -> base URL of a waitress server in this process."""
    servers = []

    def _serve(config=None, limits=SMALL):
        app = create_app({"MCR_DB": str(tmp_path / "games.db"), **(config or {})})
        server = make_server(app, "127.0.0.1", 0, limits)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        servers.append((server, thread, app))
        return f"http://127.0.0.1:{server.effective_port}", server.effective_port

    yield _serve
    for server, thread, app in servers:
        server.close()
        thread.join(5)
        reader = app.extensions.get("mcr_photos")
        if reader is not None:
            reader.close()


def _score(base: str) -> int:
    req = urllib.request.Request(
        f"{base}/api/score",
        data=json.dumps({"hand": SEED_HAND, "self_drawn": True}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.load(resp)["total"]


def _raw(port: int, data: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(data)
        with contextlib.suppress(OSError):  # answered an oversized request and closed first
            s.shutdown(socket.SHUT_WR)
        chunks: list[bytes] = []
        try:
            while chunk := s.recv(65536):
                chunks.append(chunk)
        except ConnectionResetError:  # closed with our unread bytes: after its answer
            assert chunks, "the connection was dropped without an answer"
    return b"".join(chunks)


@needs_scorer
def test_half_sent_requests_hold_no_thread(serve):
    """60 clients that send half a request and stall, on a server with 4 threads."""
    base, port = serve()
    stalled = []
    for _ in range(60):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(b"POST /api/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 500\r\n\r\n{")
        stalled.append(s)
    try:
        started = time.perf_counter()
        with ThreadPoolExecutor(8) as pool:
            totals = list(pool.map(lambda _: _score(base), range(16)))
        assert totals == [48] * 16
        assert time.perf_counter() - started < 10
    finally:
        for s in stalled:
            s.close()


def test_broken_http_gets_an_answer_and_the_server_lives(serve):
    base, port = serve()
    cases = [
        b"GARBAGE\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -5\r\n\r\n",
        b"POST /api/score HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 100_000 + b"\r\n\r\n",
        b"POST /api/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 99999999999\r\n\r\n",
        b"GET http://[ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",  # a target that is no URL
        b"GET http://]/healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        b"POST /api/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: "
        + b"9" * 5000
        + b"\r\n\r\n",
    ]
    for data in cases:
        answer = _raw(port, data)  # waitress itself answers HTTP it cannot parse
        assert re.match(rb"HTTP/1\.[01] 4\d\d ", answer), answer[:200]
    assert urllib.request.urlopen(f"{base}/healthz", timeout=5).status == 200


def test_hostile_json_over_a_real_socket(serve):
    base, port = serve()
    bodies = [b"[" * 60_000, b'{"hand": NaN}', b'{"hand": "\\ud800"}', b"\xff" * 10]
    for body in bodies:
        head = (
            "POST /api/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        ).encode()
        answer = _raw(port, head + body)
        assert answer.split(b" ", 2)[1] == b"400", answer[:200]
        assert b'"error"' in answer
    foreign = _raw(
        port, b"GET /healthz HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n"
    )
    assert foreign.startswith(b"HTTP/1.1 400") and b"bad_host" in foreign


def test_full_photo_queue_answers_503_with_retry_after(serve):
    """One reader and no queue: while a (slow) photo is read, the next is refused at once."""
    entered = threading.Event()

    def slow_reader(data: bytes, name: str, exemplars=None) -> dict:
        entered.set()
        time.sleep(0.8)
        return {"image": name, "tiles": [], "hand": None}

    base, _ = serve({"MCR_RECOGNIZE": slow_reader, "MCR_READERS": 1, "MCR_PHOTO_QUEUE": 0})
    boundary = "b0undary"
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="a.png"\r\n'
            "Content-Type: image/png\r\n\r\n"
        ).encode()
        + photo_png()
        + f"\r\n--{boundary}--\r\n".encode()
    )

    def upload() -> tuple[int, dict, str | None]:
        req = urllib.request.Request(
            f"{base}/api/recognize",
            data=body,
            headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
        )
        try:
            with urllib.request.urlopen(req, timeout=10) as resp:
                return resp.status, json.load(resp), None
        except urllib.error.HTTPError as exc:
            return exc.code, json.load(exc), exc.headers.get("Retry-After")

    with ThreadPoolExecutor(2) as pool:
        first = pool.submit(upload)
        assert entered.wait(5)
        second = upload()
        assert first.result()[0] == 200
    status, answer, retry = second
    assert status == 503 and answer["error"]["code"] == "busy"
    assert retry is not None and int(retry) >= 1
    assert upload()[0] == 200  # the reader is free again


def _closed(s: socket.socket) -> bool:
    """Whether the server has closed the connection (nothing more will come)."""
    try:
        return s.recv(1) == b""
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False


def test_one_address_holds_at_most_its_share_of_connections(serve):
    """A device that opens connection after connection gets its share and no more: the
    ones past it are closed at once; once it lets go, it is served again."""
    limits = Limits(threads=4, per_address=5, trust_loopback=False)
    base, port = serve(limits=limits)
    held = [socket.create_connection(("127.0.0.1", port), timeout=2) for _ in range(8)]
    try:
        for s in held:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never finished
        closed = [_closed(s) for s in held]
        assert closed.count(True) == 3 and not any(closed[:5])
    finally:
        for s in held:
            s.close()
    for _ in range(20):  # the server sees the closes on its next turn
        with contextlib.suppress(OSError):
            assert urllib.request.urlopen(f"{base}/healthz", timeout=5).status == 200
            return
        time.sleep(0.1)
    raise AssertionError("not served again after letting go of its connections")


def test_a_request_trickled_a_byte_at_a_time_is_cut_off(serve):
    """A client that sends its headers a byte now and then, never silent long enough to be
    timed out, is closed once its headers have taken longer than allowed."""
    limits = Limits(threads=4, channel_timeout=30, header_seconds=1.0, check_every=1)
    base, port = serve(limits=limits)
    s = socket.create_connection(("127.0.0.1", port), timeout=0.2)
    try:
        s.sendall(b"POST /api/score HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        started = time.monotonic()
        while time.monotonic() - started < 6:
            try:
                s.sendall(b"X")
            except (BrokenPipeError, ConnectionResetError):
                break
            if _closed(s):
                break
        assert time.monotonic() - started < 5
    finally:
        s.close()
    assert urllib.request.urlopen(f"{base}/healthz", timeout=5).status == 200


def test_what_waitress_refuses_is_answered_as_the_app_answers(serve):
    """waitress refuses a body past MAX_BODY or headers past their limit before the app
    sees them; the answer is still the app's: a JSON error for the API in the language
    the client asked for, with the app's headers, and the error page for a page."""
    _, port = serve()
    answer = _raw(
        port,
        b"POST /api/recognize HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: zh-CN\r\n"
        b"Content-Type: image/jpeg\r\nContent-Length: 28311552\r\n\r\n",
    )
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413 ")
    assert b"Content-Type: application/json" in head and b"nosniff" in head
    error = json.loads(body)["error"]
    assert error["code"] == "too_large" and "照片太大" in error["message"]
    scored = _raw(  # no photo goes to the scorer: its body is too large, not a photo
        port,
        b"POST /api/score HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: 28311552\r\n\r\n",
    )
    head, _, body = scored.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413 ")
    error = json.loads(body)["error"]
    assert error["code"] == "body_too_large" and "too large" in error["message"]
    assert "photo" not in error["message"]
    page = _raw(
        port, b"GET /game/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 70_000 + b"\r\n\r\n"
    )
    head, _, body = page.partition(b"\r\n\r\n")
    assert re.match(rb"HTTP/1\.[01] 431 ", head) and b"Content-Type: text/html" in head
    assert b"<html" in body.lower()  # a page asked for gets a page
    long_query = _raw(  # waitress takes headers past their limit for a request for "/"
        port,
        b"GET /game/api/games?tournament=" + b"a" * 100_000 + b" HTTP/1.1\r\n"
        b"Host: 127.0.0.1\r\n\r\n",
    )
    head, _, body = long_query.partition(b"\r\n\r\n")
    assert re.match(rb"HTTP/1\.[01] 431 ", head) and b"Content-Type: application/json" in head
    assert json.loads(body)["error"]["code"]


def _post_slowly(port: int, body: bytes, rate: float, limits_s: float = 8.0) -> bytes | None:
    """POST `body` to /api/score at about `rate` bytes a second; the answer, or None when
    the server closed the connection first."""
    head = (
        "POST /api/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode()
    step = max(1, int(rate / 10))
    with socket.create_connection(("127.0.0.1", port), timeout=limits_s) as s:
        try:
            s.sendall(head)
            for i in range(0, len(body), step):
                s.sendall(body[i : i + step])
                time.sleep(0.1)
            return s.recv(65536) or None
        except (BrokenPipeError, ConnectionResetError):
            return None


@needs_scorer
def test_a_slow_but_steady_upload_is_served_and_a_trickle_is_not(serve):
    """A photo over crowded Wi-Fi comes slowly but steadily: it is read however long it
    takes. A body trickling in slower than the least rate is closed once the headers'
    time is up."""
    limits = Limits(threads=4, channel_timeout=30, header_seconds=1.0, min_rate=1000, check_every=1)
    _, port = serve(limits=limits)
    body = json.dumps({"hand": SEED_HAND, "self_drawn": True}).encode()
    padded = body[:-1] + b" " * 9000 + b"}"  # about 3 s at 3 KB/s
    answer = _post_slowly(port, padded, rate=3000)
    assert answer is not None and answer.startswith(b"HTTP/1.1 200")
    assert _post_slowly(port, padded, rate=200) is None


def test_the_path_a_request_asked_for_is_read_from_its_first_bytes() -> None:
    """What a refusal of its headers is answered as: the path, once the bytes show its end."""
    assert target_path(b"GE") is None
    assert target_path(b"GET /api/sc") is None  # the path may go on
    assert target_path(b"GET /api/score?hand=1") == "/api/score"
    assert target_path(b"POST /game/api/games HTTP/1.1\r\n") == "/game/api/games"
    assert target_path(b"GET http://example.com/ HTTP/1.1\r\n") == "/"
    long = target_path(b"GET /game/api/" + b"a" * TARGET_BYTES)
    assert long is not None and long.startswith("/game/api/aaa")
