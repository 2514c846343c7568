"""In headless Chromium, on the production server: the page works under its CSP (no
violation, the game pages run), and a page on another site cannot
change a game with a form post or a script."""

from __future__ import annotations

import http.server
import shutil
import threading

import pytest

from tests.webui.conftest import CHROMIUM, SEED_HAND, needs_scorer
from tests.webui.photo_fixture import fake_recognize
from webui.app import create_app
from webui.server import Limits, make_server

P = ["Ann", "Bo", "Cy", "Di"]
WIN = {"result": "win", "winner": "Ann", "discarder": "Bo", "fans": 8}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(shutil.which(CHROMIUM) is None, reason=f"{CHROMIUM} is not installed"),
]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The app on waitress at 127.0.0.1, with one game of one hand."""
    db = tmp_path_factory.mktemp("csp") / "games.db"
    app = create_app({"MCR_RECOGNIZE": fake_recognize(), "MCR_DB": str(db)})
    client = app.test_client()
    assert client.post("/game/api/games", json={"players": P}).status_code == 201
    assert client.post("/game/api/1/hands", json=WIN).status_code == 201
    server = make_server(app, "127.0.0.1", 0, Limits(threads=8))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}", client
    server.close()
    thread.join(5)


def _page(browser):
    context = browser.new_context(viewport={"width": 768, "height": 1024})
    page = context.new_page()
    page.csp = []  # type: ignore[attr-defined]
    page.on(
        "console",
        lambda m: page.csp.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.on("pageerror", lambda exc: page.csp.append(str(exc)))
    return context, page


@needs_scorer
def test_the_page_works_under_its_csp(browser, site):
    base, _ = site
    context, page = _page(browser)
    try:
        page.goto(f"{base}/")
        page.fill("#notation", SEED_HAND)
        page.click("#notation-apply")
        page.click("#win-self")
        page.locator("#total-value", has_text="48").wait_for(timeout=15000)
        page.goto(f"{base}/game/1")  # its script module draws the sheet from the data block
        page.locator("#sheet-table tr").nth(1).wait_for(timeout=15000)
        page.goto(f"{base}/game/")
        page.locator("#new-game").wait_for()
        assert page.csp == []
    finally:
        context.close()


class _Evil(http.server.BaseHTTPRequestHandler):
    """Another site: a page that posts to the table server as soon as it loads."""

    target = ""

    def do_GET(self) -> None:
        html = f"""<!doctype html><html><body>
<form id="f" method="post" action="{self.target}/game/api/1/undo" enctype="text/plain">
<input name='{{"who": "evil", "x": "' value='"}}'></form>
<script>
fetch("{self.target}/game/api/1/undo", {{method: "POST", mode: "no-cors",
  headers: {{"Content-Type": "text/plain"}}, body: "{{}}"}}).finally(() =>
  document.getElementById("f").submit());
</script></body></html>"""
        data = html.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args) -> None:
        pass


def test_a_cross_site_form_post_cannot_change_a_game(browser, site):
    base, client = site
    _Evil.target = base
    evil = http.server.ThreadingHTTPServer(("localhost", 0), _Evil)
    thread = threading.Thread(target=evil.serve_forever, daemon=True)
    thread.start()
    context, page = _page(browser)
    try:
        answers = []
        page.on("response", lambda r: answers.append(r.status) if "/undo" in r.url else None)
        page.goto(f"http://localhost:{evil.server_address[1]}/")
        page.wait_for_url(f"{base}/game/api/1/undo", timeout=15000)
        assert answers and all(400 <= s < 500 for s in answers), answers
    finally:
        context.close()
        evil.shutdown()
        thread.join(5)
    assert len(client.get("/game/api/1").get_json()["hands"]) == 1
