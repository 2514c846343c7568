"""Fixtures for the web page tests: the app with a photo reader that needs no model."""

from __future__ import annotations

import json
import logging
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from tests.webui.photo_fixture import fake_recognize
from webui.app import create_app

#: the browser the page's tests drive (they skip where it is not installed)
CHROMIUM = "/usr/bin/chromium"

#: seed 001, 就高不就低: 门清 555666777p5556s, self-drawn on 7s = 48
SEED_HAND = "555666777p55567s"


def scorer_ready() -> bool:
    """Whether the whole scoring chain (notation, engine, payments, explanations) is installed."""
    try:
        from scorer.request import score_request

        score_request({"hand": SEED_HAND, "self_drawn": True})
    except ModuleNotFoundError:
        return False
    return True


needs_scorer = pytest.mark.skipif(
    not scorer_ready(), reason="the scoring engine is not installed yet"
)


@pytest.fixture()
def app(tmp_path):
    return create_app(
        {"TESTING": True, "MCR_RECOGNIZE": fake_recognize(), "MCR_DB": str(tmp_path / "games.db")}
    )


@pytest.fixture()
def client(app):
    return app.test_client()


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for a test module."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@contextmanager
def live_server(app) -> Iterator[str]:
    """The app served on a free local port in a thread, for a browser or real HTTP calls:
    its base URL (ending in /)."""
    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        thread.join(5)


def call_json(base_url: str, method: str, path: str, body: dict | None = None) -> dict:
    """A JSON request to a live server (`live_server`) and its JSON answer."""
    req = urllib.request.Request(
        base_url + path,
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=30) as resp:  # a stuck server fails, not hangs
        return json.load(resp)
