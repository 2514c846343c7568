"""The game sheet page in headless Chromium: its undo button removes the hand it shows
last, never one another tablet recorded meanwhile."""

from __future__ import annotations

import shutil
from datetime import datetime

import pytest

from tests.webui.conftest import CHROMIUM, call_json, live_server
from webui.app import create_app

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(shutil.which(CHROMIUM) is None, reason=f"{CHROMIUM} is not installed"),
]


@pytest.fixture(scope="module")
def base_url(tmp_path_factory):
    with live_server(create_app({"MCR_DB": str(tmp_path_factory.mktemp("db") / "g.db")})) as url:
        yield url


def _sheet_page(browser, base_url: str, game_id: int):
    """A tablet's page of the game's sheet, its periodic refresh held still (the test
    plays the other tablet); the caller closes the context."""
    context = browser.new_context(locale="en-US", bypass_csp=True)
    page = context.new_page()
    page.clock.install(time=datetime(2024, 5, 1, 9, 0))
    page.goto(f"{base_url}game/{game_id}")
    page.clock.pause_at(datetime(2024, 5, 1, 9, 0, 1))  # the page's refresh waits
    return context, page


def test_undo_on_a_stale_page_removes_nothing_and_shows_the_sheet(browser, base_url):
    """The page sends the number of its last hand: after another tablet recorded hand 3,
    undo on a page still showing 2 hands is refused, and the page then shows hand 3."""
    game = call_json(base_url, "POST", "game/api/games", {"players": ["Ann", "Bo", "Cy", "Di"]})
    api = f"game/api/{game['id']}"
    for _ in range(2):
        call_json(base_url, "POST", f"{api}/hands", {"result": "draw"})
    context, page = _sheet_page(browser, base_url, game["id"])
    page.wait_for_selector("#sheet-table tr.g-hand[data-number='2']")
    call_json(base_url, "POST", f"{api}/hands", {"result": "draw"})  # another tablet
    sent: list[dict] = []
    page.on("request", lambda r: sent.append(r.post_data_json) if "/undo" in r.url else None)
    page.on("dialog", lambda d: d.accept())
    page.click("#undo")
    page.wait_for_selector("#sheet-table tr.g-hand[data-number='3']")
    assert sent and sent[0]["number"] == 2
    assert "nothing was undone" in page.locator("#record-error").inner_text()
    assert len(call_json(base_url, "GET", api)["hands"]) == 3
    page.click("#undo")  # now the page shows hand 3: that one goes
    page.wait_for_selector("#sheet-table tr.g-hand[data-number='3']", state="detached")
    assert sent[1]["number"] == 3
    assert len(call_json(base_url, "GET", api)["hands"]) == 2
    context.close()


def test_a_correction_on_a_stale_page_is_refused_and_shows_the_newer_hand(browser, base_url):
    """The page sends the revision of the hand it corrects: after another tablet undid
    hand 1 and recorded another in its place, saving the correction is refused, the
    page says so and shows the newer hand, which the server keeps."""
    game = call_json(base_url, "POST", "game/api/games", {"players": ["Ann", "Bo", "Cy", "Di"]})
    api = f"game/api/{game['id']}"
    ann = {"result": "win", "winner": "Ann", "self_drawn": True, "fans": 8}
    seen = call_json(base_url, "POST", f"{api}/hands", ann)["sheet"]["hands"][0]["revision"]
    context, page = _sheet_page(browser, base_url, game["id"])
    page.click("#sheet-table tr.g-hand[data-number='1']")
    page.wait_for_selector("#cancel-edit:not([hidden])")
    call_json(base_url, "POST", f"{api}/undo", {"number": 1})  # another tablet
    bo = {"result": "win", "winner": "Bo", "discarder": "Cy", "fans": 32, "expected_number": 1}
    call_json(base_url, "POST", f"{api}/hands", bo)
    sent: list[dict] = []
    page.on("request", lambda r: sent.append(r.post_data_json) if "/hands/1" in r.url else None)
    page.click("[data-fans='16']")
    page.click("#submit")
    page.wait_for_selector("#sheet-table td.g-desc:has-text('32')")
    assert sent and sent[0]["expected_revision"] == seen and sent[0]["fans"] == 16
    assert "nothing was saved" in page.locator("#record-error").inner_text()
    assert page.locator("#cancel-edit").is_hidden()  # the page left the correction
    hand = call_json(base_url, "GET", api)["hands"][0]
    assert (hand["winner"], hand["fans"]) == ("Bo", 32)
    context.close()


def test_a_correction_keeps_the_hand_flowers_and_note_the_form_does_not_show(browser, base_url):
    """A hand recorded from a scored photo carries its tiles, flowers and a note; a
    correction of its fans on a tablet changes the fans and loses none of them."""
    game = call_json(base_url, "POST", "game/api/games", {"players": ["Ann", "Bo", "Cy", "Di"]})
    api = f"game/api/{game['id']}"
    scored = {
        "result": "win",
        "winner": "Ann",
        "self_drawn": True,
        "fans": 10,
        "flowers": 2,
        "hand": "123m456m789m123p11s",
        "note": "checked by the referee",
    }
    call_json(base_url, "POST", f"{api}/hands", scored)
    context = browser.new_context(locale="en-US", bypass_csp=True)
    page = context.new_page()
    page.goto(f"{base_url}game/{game['id']}")
    page.click("#sheet-table tr.g-hand[data-number='1']")
    page.wait_for_selector("#cancel-edit:not([hidden])")
    page.click("[data-fans='16']")
    page.click("#submit")
    page.wait_for_selector("#sheet-table td.g-desc:has-text('16')")
    hand = call_json(base_url, "GET", api)["hands"][0]
    assert hand["fans"] == 16
    assert (hand["flowers"], hand["hand"], hand["note"]) == (2, scored["hand"], scored["note"])
    context.close()
