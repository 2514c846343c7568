"""The game sheet page in headless Chromium: its undo button removes the hand it shows
last, never one another tablet recorded meanwhile."""

from __future__ import annotations

import json
import logging
import shutil
import threading
import urllib.request
from datetime import datetime

import pytest

from webui.app import create_app

CHROMIUM = "/usr/bin/chromium"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(shutil.which(CHROMIUM) is None, reason=f"{CHROMIUM} is not installed"),
]


@pytest.fixture(scope="module")
def base_url(tmp_path_factory):
    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    app = create_app({"MCR_DB": str(tmp_path_factory.mktemp("db") / "games.db")})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
    thread.join(5)


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def call(base_url: str, method: str, path: str, body: dict | None = None) -> dict:
    req = urllib.request.Request(
        base_url + path,
        method=method,
        data=json.dumps(body).encode() if body else None,
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req) as resp:
        return json.load(resp)


def test_undo_on_a_stale_page_removes_nothing_and_shows_the_sheet(browser, base_url):
    """The page sends the number of its last hand: after another tablet recorded hand 3,
    undo on a page still showing 2 hands is refused, and the page then shows hand 3."""
    game = call(base_url, "POST", "game/api/games", {"players": ["Ann", "Bo", "Cy", "Di"]})
    api = f"game/api/{game['id']}"
    for _ in range(2):
        call(base_url, "POST", f"{api}/hands", {"result": "draw"})
    context = browser.new_context(locale="en-US", bypass_csp=True)
    page = context.new_page()
    page.clock.install(time=datetime(2024, 5, 1, 9, 0))
    page.goto(f"{base_url}game/{game['id']}")
    page.clock.pause_at(datetime(2024, 5, 1, 9, 0, 1))  # the page's refresh waits
    page.wait_for_selector("#sheet-table tr.g-hand[data-number='2']")
    call(base_url, "POST", f"{api}/hands", {"result": "draw"})  # another tablet
    sent: list[dict] = []
    page.on("request", lambda r: sent.append(r.post_data_json) if "/undo" in r.url else None)
    page.on("dialog", lambda d: d.accept())
    page.click("#undo")
    page.wait_for_selector("#sheet-table tr.g-hand[data-number='3']")
    assert sent and sent[0]["number"] == 2
    assert "nothing was undone" in page.locator("#record-error").inner_text()
    assert len(call(base_url, "GET", api)["hands"]) == 3
    page.click("#undo")  # now the page shows hand 3: that one goes
    page.wait_for_selector("#sheet-table tr.g-hand[data-number='3']", state="detached")
    assert sent[1]["number"] == 3
    assert len(call(base_url, "GET", api)["hands"]) == 2
    context.close()
