"""The page in headless Chromium: photo → tiles → fix → breakdown, manual entry, languages.

Screenshots at tablet (768 px) and phone (390 px) width go to
artifacts/screenshots/ for a person to look at.
"""

from __future__ import annotations

import logging
import re
import shutil
import threading
from pathlib import Path

import pytest

from tests.webui.conftest import SEED_HAND, needs_scorer
from tests.webui.photo_fixture import fake_recognize, photo_png
from webui.app import create_app

CHROMIUM = "/usr/bin/chromium"
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
TABLET = {"width": 768, "height": 1024}
PHONE = {"width": 390, "height": 844}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(shutil.which(CHROMIUM) is None, reason=f"{CHROMIUM} is not installed"),
]


@pytest.fixture(scope="module")
def base_url(tmp_path_factory):
    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    db = tmp_path_factory.mktemp("db") / "games.db"
    app = create_app({"MCR_RECOGNIZE": fake_recognize(), "MCR_DB": str(db)})
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


@pytest.fixture()
def open_page(browser, base_url):
    pages = []

    def _open(viewport=TABLET, locale="en-US"):
        # wait_for_function evaluates strings, which the page's CSP forbids;
        # test_security_browser.py runs the page under its CSP
        context = browser.new_context(viewport=viewport, locale=locale, bypass_csp=True)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.js_errors = errors
        page.goto(base_url)
        pages.append((context, page))
        return page

    yield _open
    for context, page in pages:
        assert page.js_errors == [], page.js_errors
        context.close()


def _shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")  # the sticky header belongs at the top
    page.screenshot(path=str(SHOTS / name), full_page=True)


def _upload_fixture(page, tmp_path):
    photo = tmp_path / "table.png"
    photo.write_bytes(photo_png())
    page.set_input_files("#upload-input", str(photo))
    page.wait_for_selector("#photo-view:not([hidden])")


def test_upload_shows_the_tiles_and_boxes(open_page, tmp_path):
    page = open_page()
    _upload_fixture(page, tmp_path)
    assert page.locator("#boxes .box").count() == 15
    assert page.locator("#hand .tile").count() == 15
    assert page.locator("#hand .group.meld .tile.side").count() == 1  # the claimed 2m
    assert page.locator("#hand .group.winning .tile").get_attribute("data-code") == "5s"
    assert page.locator("#hand .group.flowers .tile").count() == 1
    # the tile read with low confidence is marked on the photo and in the hand
    assert page.locator("#boxes .box.uncertain").count() == 1
    assert page.locator("#hand .tile.uncertain").count() == 1


@needs_scorer
def test_replacing_a_tile_rescores(open_page, tmp_path):
    page = open_page()
    _upload_fixture(page, tmp_path)
    page.wait_for_selector("#total-value")
    before = page.locator("#total-value").inner_text()
    fans_before = page.locator("#result tr.fan .main").all_inner_texts()
    page.click("#hand .group.winning .tile")
    page.click('#dialog-palette .key[data-code="2s"]')
    page.wait_for_function(
        "before => { const t = document.querySelector('#total-value');"
        " return t && t.textContent !== before; }",
        arg=before,
    )
    assert page.input_value("#notation").endswith("2s")
    assert page.locator("#result tr.fan .main").all_inner_texts() != fans_before
    # the box on the photo follows the fix
    assert page.locator("#boxes .box.edited .tag").inner_text() == "2s"
    _shot(page, "tablet_photo_fixed.png")
    page.set_viewport_size(PHONE)
    _shot(page, "phone_photo_fixed.png")


@needs_scorer
def test_manual_entry_of_the_seed_hand_shows_48(open_page):
    page = open_page(viewport=PHONE, locale="zh-CN")
    codes = ["5p"] * 3 + ["6p"] * 3 + ["7p"] * 3 + ["5s"] * 3 + ["6s", "7s"]
    for code in codes[:5]:
        page.click(f'#keyboard .key[data-code="{code}"]')
    # 9 more to go: a hint, not an error
    page.wait_for_function("document.querySelector('#more-tiles')?.textContent.includes('9')")
    assert page.locator("#result .msg.error").count() == 0
    for code in codes[5:]:
        page.click(f'#keyboard .key[data-code="{code}"]')
    assert page.input_value("#notation") == SEED_HAND
    assert page.locator("#hand .group.winning .tile").get_attribute("data-code") == "7s"
    page.click("#win-self")
    page.wait_for_function("document.querySelector('#total-value')?.textContent === '48'")
    assert "达到" in page.locator("#result .total").inner_text()
    # 杠上开花 needs a kong: the option is disabled with the scorer's reason
    page.wait_for_selector("#reason-kong:not([hidden])")
    assert page.locator("#flag-kong").is_disabled()
    # tapping a fan lights the tiles that make it
    page.click("#result tr.fan >> nth=0")
    assert page.locator("#hand .tile.hl").count() > 0
    _shot(page, "phone_manual_48.png")
    page.set_viewport_size(TABLET)
    _shot(page, "tablet_manual_48.png")


@needs_scorer
def test_pasted_notation_and_referee_check(open_page):
    page = open_page()
    page.fill("#notation", SEED_HAND)
    page.click("#notation-apply")
    page.click("#win-self")
    page.wait_for_function("document.querySelector('#total-value')?.textContent === '48'")
    page.fill("#notation", "13579m2468p13579s")
    page.click("#notation-apply")
    page.wait_for_selector("#result .msg.error")
    assert "Not a winning hand" in page.locator("#result .msg.error").inner_text()
    page.fill("#notation", SEED_HAND)
    page.click("#notation-apply")
    page.wait_for_function("document.querySelector('#total-value')?.textContent === '48'")
    page.fill("#claim", "一色三节高, 三暗刻")
    page.fill("#claim-total", "47")
    page.click("#check-btn")
    page.wait_for_selector("#check-result .msg")
    text = page.locator("#check-result").inner_text()
    assert "differs" in text and "48" in text
    assert page.locator("#check-result .diff.missing li").count() > 0
    assert page.locator("#check-result .diff.extra li").count() == 2


@needs_scorer
def test_hand_under_eight_fans_shows_the_wrong_win_penalty(open_page):
    """Seed 000 (错和): a declared win under 8 fans pays 10 to each other player."""
    page = open_page(locale="en-US")
    page.fill("#notation", "123m456m789p234s55p")  # a plain discard win, well under 8
    page.click("#notation-apply")
    page.wait_for_selector("#result .payments .wrong-win")
    text = page.locator("#result .payments").inner_text()
    assert "wrong win" in text and "-30" in text and "+10" in text


def test_language_switch(open_page):
    page = open_page(locale="zh-CN")
    assert page.locator("#result-card h2").inner_text() == "番数"
    page.click("#lang-switch")
    assert page.locator("#result-card h2").inner_text() == "Fan breakdown"
    assert page.locator("#lang-switch").inner_text() == "中文"
    page.reload()  # the choice is remembered
    assert page.locator("#result-card h2").inner_text() == "Fan breakdown"
    page.click("#lang-switch")
    assert page.locator("#result-card h2").inner_text() == "番数"


@needs_scorer
def test_language_switch_renames_the_fans(open_page):
    page = open_page(locale="zh-CN")
    page.fill("#notation", SEED_HAND)
    page.click("#notation-apply")
    page.wait_for_selector("#result tr.fan")
    zh = page.locator("#result tr.fan .main").first.inner_text()
    page.click("#lang-switch")
    en = page.locator("#result tr.fan .main").first.inner_text()
    assert re.search(r"[\u4e00-\u9fff]", zh) and re.fullmatch(r"[A-Za-z0-9 '\-()]+", en)


def test_bad_upload_shows_a_readable_error(open_page):
    page = open_page()
    page.set_input_files(
        "#upload-input", files=[{"name": "notes.jpg", "mimeType": "image/jpeg", "buffer": b"hello"}]
    )
    page.wait_for_selector("#photo-error:not([hidden])")
    message = page.locator("#photo-error").inner_text()
    assert len(message) > 10 and "Traceback" not in message
    assert page.locator("#photo-view").is_hidden()
    _shot(page, "tablet_bad_upload.png")


ROUND_TRIP = [
    "[567m,2][999s,3][8888p,1][SSSS]EE",
    "[5555m,5][123p,3]456789sCC",
    "11223344556677m",
    "19m19p19sESWNCFP1m",
]


@needs_scorer
def test_notation_round_trips_through_the_page(open_page, base_url):
    """The page's own notation for a pasted hand scores exactly like the pasted text."""
    import json
    import urllib.request

    def score(hand: str) -> dict:
        req = urllib.request.Request(
            base_url + "api/score",
            data=json.dumps({"hand": hand}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req) as resp:
            return json.load(resp)

    page = open_page()
    for notation in ROUND_TRIP:
        page.fill("#notation", notation)
        page.click("#notation-apply")
        assert page.input_value("#notation") == notation
        expected = score(notation)["total"]
        page.wait_for_function(
            "t => document.querySelector('#total-value')?.textContent === String(t)", arg=expected
        )


@needs_scorer
def test_meld_controls_change_the_notation(open_page):
    page = open_page()
    page.click('#kb-modes [data-mode="pung"]')
    page.click('#keyboard .key[data-code="C"]')
    assert page.input_value("#notation") == "[CCC,1]"
    page.select_option("#hand .group.meld select", "3")  # given by the player on the right
    assert page.input_value("#notation") == "[CCC,3]"
    assert page.locator("#hand .group.meld .tile.side").count() == 1
    # replacing one tile of a pung renames the whole pung
    page.click("#hand .group.meld .tile >> nth=0")
    page.click('#dialog-palette .key[data-code="F"]')
    assert page.input_value("#notation") == "[FFF,3]"
    # break it up: its tiles go back to the hand
    page.click("#hand .group.meld .btn")
    assert page.input_value("#notation") == "FFF"
    # the last tile typed into a full hand becomes the winning tile
    for code in ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "E", "E"]:
        page.click(f'#keyboard .key[data-code="{code}"]')
    assert page.locator("#hand .group.winning .tile").get_attribute("data-code") == "E"
    page.wait_for_function("document.querySelector('#total-value') !== null")
    # three concealed tiles become an exposed pung in two taps
    page.click('#hand .group.concealed .tile[data-code="F"] >> nth=0')
    page.click('#dialog-actions [data-action="form_pung"]')
    assert page.input_value("#notation") == "[FFF,1]123456789mEE"


@needs_scorer
def test_a_scored_hand_is_recorded_in_the_game_sheet(open_page, base_url):
    import json
    import urllib.request

    pytest.importorskip("webui.game_views")

    def call(method: str, path: str, body: dict | None = None) -> dict:
        req = urllib.request.Request(
            base_url + path,
            method=method,
            data=json.dumps(body).encode() if body else None,
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req) as resp:
            return json.load(resp)

    game = call("POST", "game/api/games", {"players": ["Ann", "Bo", "Cy", "Di"], "name": "table 3"})
    page = open_page()
    page.fill("#notation", SEED_HAND)
    page.click("#notation-apply")
    page.click('#seat-wind [data-wind="S"]')  # Bo sits South in the first hand
    page.wait_for_selector("#record-card:not([hidden])")
    page.select_option("#record-game", str(game["id"]))
    page.wait_for_function("document.querySelector('#record-winner').textContent.includes('Bo')")
    page.click('#record-discarder [data-wind="W"]')
    assert page.locator('#record-discarder [data-wind="W"]').inner_text().endswith("Cy")
    total = int(page.locator("#total-value").inner_text())
    page.click("#record-btn")
    page.wait_for_selector("#record-result .msg.good")
    sheet = call("GET", f"game/api/{game['id']}")
    hand = sheet["hands"][0]
    assert (hand["winner"], hand["discarder"], hand["fans"]) == ("Bo", "Cy", total)
    assert hand["hand"] == SEED_HAND
