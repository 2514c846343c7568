"""The page in headless Chromium: photo → tiles → fix → breakdown, manual entry, languages.

Screenshots at tablet (768 px) and phone (390 px) width go to
artifacts/screenshots/ for a person to look at.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.webui.conftest import CHROMIUM, SEED_HAND, call_json, live_server, needs_scorer
from tests.webui.photo_fixture import (
    KONGS,
    THIRTEEN,
    boxes,
    fake_recognize,
    fake_table_recognize,
    photo_png,
)
from vision.errors import PhotoError
from vision.exemplars import encode_look
from webui.app import create_app

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
TABLET = {"width": 768, "height": 1024}
PHONE = {"width": 390, "height": 844}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(shutil.which(CHROMIUM) is None, reason=f"{CHROMIUM} is not installed"),
]


#: the exemplars each photo named `learn.png` came with
LEARN_CALLS: list = []


def _with_looks(read):
    """A reader whose tiles each have a look of their own (as the bundled classifier
    gives them), recording the exemplars it is sent."""

    def recognize(data, name, exemplars=None):
        LEARN_CALLS.append(exemplars)
        out = read(data, name, exemplars=exemplars)
        for i, t in enumerate(out["tiles"]):
            t["look"] = encode_look(np.random.default_rng(i).random(240), "0123abcd")
        return out

    return recognize


@pytest.fixture(scope="module")
def base_url(tmp_path_factory):
    db = tmp_path_factory.mktemp("db") / "games.db"
    readers = {
        "learn.png": _with_looks(fake_recognize()),
        "thirteen.png": fake_recognize(THIRTEEN),
        "kongs.png": fake_recognize(KONGS),
        "whole-table.png": fake_table_recognize(),
        "table-cut.png": fake_table_recognize(),
    }
    default = fake_recognize()

    def recognize(data, name, exemplars=None):
        return readers.get(name, default)(data, name, exemplars=exemplars)

    with live_server(create_app({"MCR_RECOGNIZE": recognize, "MCR_DB": str(db)})) as url:
        yield url


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
        # the page runs under the server's strict CSP: nothing of it may be refused
        page.on(
            "console",
            lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None,
        )
        page.js_errors = errors
        page.goto(base_url)
        pages.append((context, page))
        return page

    yield _open
    for context, page in pages:
        assert page.js_errors == [], page.js_errors
        context.close()


def _settled(page) -> None:
    """Wait until the page has its answers (notation, score, options) for the last change."""
    page.wait_for_function("window.MCRPage && !window.MCRPage.busy()")


def _reader_called(page, times: int) -> None:
    """Wait until the reader has been called `times` times: the page shows the tiles it
    keeps before the photo's request reaches the server."""
    for _ in range(200):
        if len(LEARN_CALLS) >= times:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"the reader was called {len(LEARN_CALLS)} times, not {times}")


def _notation_is(page, text: str) -> None:
    page.wait_for_function("t => document.querySelector('#notation').value === t", arg=text)


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
def test_a_kong_lying_face_down_is_asked_for_its_tile_then_scored(open_page, tmp_path):
    """A photo cannot name a kong lying all face down: the page asks for its tile in
    words a player follows (no tile code), shows the kong with its middle tiles up as
    its tile four times, and scores once the face-down kong is named."""
    page = open_page()
    photo = tmp_path / "kongs.png"
    photo.write_bytes(photo_png(KONGS))
    page.set_input_files("#upload-input", str(photo))
    page.wait_for_selector("#photo-view:not([hidden])")
    _settled(page)
    error = page.locator('#result [data-code="kong_unnamed"]')
    assert "tap one of its tiles" in error.inner_text() and "back" not in error.inner_text()
    assert page.input_value("#notation") == ""  # no hand to write yet, not an older one
    kongs = page.locator("#hand .group.meld")
    assert kongs.nth(1).locator('.tile[data-code="2m"]').count() == 4
    kongs.nth(0).locator(".tile").first.click()
    page.click('#dialog-palette .key[data-code="N"]')
    page.wait_for_selector("#total-value")
    assert page.input_value("#notation").startswith("[NNNN][2222m]")


def test_the_flower_stepper_stops_at_none_and_at_a_sets_eight(open_page):
    page = open_page()
    assert page.locator("#flower-minus").is_disabled()
    for _ in range(8):
        page.click("#flower-plus")
    assert page.locator("#flower-count").inner_text() == "8"
    assert page.locator("#flower-plus").is_disabled()
    page.click("#flower-minus")
    assert page.locator("#flower-plus").is_enabled()


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
    _notation_is(page, "555666777p5556s7s")  # the library's notation of the seed hand
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
    _shot(page, "tablet_error.png")
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
def test_an_option_the_new_hand_rules_out_says_why_in_the_players_words(open_page):
    """和绝张 ticked, then the hand corrected to hold the winning tile concealed: the
    breakdown and the option itself name the option, never the API field."""
    page = open_page(locale="en-US")
    page.fill("#notation", "123m456m789m11p456p")
    page.click("#notation-apply")
    page.wait_for_selector("#total-value")
    page.check("#flag-fourth_tile")
    page.fill("#notation", "123m456m789m11p555p")  # won on 5p, two more 5p concealed
    page.click("#notation-apply")
    page.wait_for_selector("#result .msg.error")
    page.wait_for_selector("#reason-fourth_tile:not([hidden])")
    for where in ("#result .msg.error", "#reason-fourth_tile"):
        text = page.locator(where).inner_text()
        assert "Last of its kind" in text and "fourth_tile" not in text, text
    page.uncheck("#flag-fourth_tile")
    page.wait_for_selector("#total-value")
    assert page.locator("#flag-fourth_tile").is_disabled()  # now ruled out, its reason kept
    assert "Last of its kind" in page.locator("#reason-fourth_tile").inner_text()


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
    page.select_option("#lang-select", "en")
    assert page.locator("#result-card h2").inner_text() == "Fan breakdown"
    page.reload()  # the choice is remembered
    assert page.locator("#result-card h2").inner_text() == "Fan breakdown"
    page.select_option("#lang-select", "zh-Hant")
    assert page.locator("#result-card h2").inner_text() == "番數"
    assert page.evaluate("document.documentElement.lang") == "zh-Hant"
    page.goto(page.url + "game/")  # the game pages follow the same switch
    assert page.locator("h1").inner_text() == "記分表"
    assert page.input_value("#lang-select") == "zh-Hant"


def test_a_taiwanese_browser_starts_in_traditional_chinese(open_page):
    page = open_page(locale="zh-TW")
    assert page.input_value("#lang-select") == "zh-Hant"
    assert page.locator("#situation-card h2").inner_text() == "和牌情況"


TAGS = ["zh", "zh-CN", "zh-TW", "zh-Hans-HK", "zh-Hant-CN", "zh_HK", "cmn-Hant-TW",
        "cmn-Hans", "cmn", "yue", "yue-HK", "yue-Hans", "yue-CN", "en-GB"]  # fmt: skip


def test_the_page_and_the_server_read_a_browser_language_alike(open_page):
    """A tablet whose browser asks for Cantonese or Mandarin by their own tags gets
    Chinese, and the page picks the same script as the server's messages."""
    from scorer.errors import pick_lang

    page = open_page()
    got = page.evaluate(
        "async (tags) => { const m = await import('/static/i18n.js');"
        " return tags.map((t) => m.productLang(t)); }",
        TAGS,
    )
    assert got == [pick_lang(t) for t in TAGS]
    assert got[TAGS.index("yue-HK")] == got[TAGS.index("cmn-Hant-TW")] == "zh-Hant"
    assert page.evaluate("async () => (await import('/static/i18n.js')).productLang('fr')") is None


@needs_scorer
def test_language_switch_renames_the_fans(open_page):
    page = open_page(locale="zh-CN")
    page.fill("#notation", SEED_HAND)
    page.click("#notation-apply")
    page.wait_for_selector("#result tr.fan")
    names = {}
    for lang in ("zh", "zh-Hant", "en"):
        page.select_option("#lang-select", lang)
        names[lang] = page.locator("#result tr.fan .main").all_inner_texts()
    assert "一色三同顺" in names["zh"] and "一色三同順" in names["zh-Hant"]
    assert all(re.fullmatch(r"[A-Za-z0-9 '\-()]+", n) for n in names["en"])


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


ROUND_TRIP = [  # pasted, and as the library writes it back
    ("[567m,2][999s,3][8888p,1][SSSS]EE", "[567m,2][999s,3][8888p,1][SSSS]EE"),
    ("[5555m,5][123p,3]456789sCC", "[5555m,5][123p,3]456789sCC"),
    ("11223344556677m", "1122334455667m7m"),
    ("19m19p19sESWNCFP1m", "19m19p19sESWNCFP1m"),
]


@needs_scorer
def test_notation_round_trips_through_the_page(open_page, base_url):
    """The page's own notation for a pasted hand scores exactly like the pasted text."""

    def score(hand: str) -> dict:
        return call_json(base_url, "POST", "api/score", {"hand": hand})

    page = open_page()
    for pasted, written in ROUND_TRIP:
        page.fill("#notation", pasted)
        page.click("#notation-apply")
        _notation_is(page, written)
        expected = score(pasted)["total"]
        page.wait_for_function(
            "t => document.querySelector('#total-value')?.textContent === String(t)", arg=expected
        )


@needs_scorer
def test_meld_controls_change_the_notation(open_page):
    page = open_page()
    page.click('#kb-modes [data-mode="pung"]')
    page.click('#keyboard .key[data-code="C"]')
    _notation_is(page, "[CCC,1]")
    page.select_option("#hand .group.meld select", "3")  # given by the player on the right
    _notation_is(page, "[CCC,3]")
    assert page.locator("#hand .group.meld .tile.side").count() == 1
    # replacing one tile of a pung renames the whole pung
    page.click("#hand .group.meld .tile >> nth=0")
    page.click('#dialog-palette .key[data-code="F"]')
    _notation_is(page, "[FFF,3]")
    # break it up: its tiles go back to the hand
    page.click("#hand .group.meld .btn")
    _notation_is(page, "FFF")
    # the last tile typed into a full hand becomes the winning tile
    for code in ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "E", "E"]:
        page.click(f'#keyboard .key[data-code="{code}"]')
    assert page.locator("#hand .group.winning .tile").get_attribute("data-code") == "E"
    page.wait_for_function("document.querySelector('#total-value') !== null")
    # three concealed tiles become an exposed pung in two taps
    page.click('#hand .group.concealed .tile[data-code="F"] >> nth=0')
    page.click('#dialog-actions [data-action="form_pung"]')
    _notation_is(page, "[FFF,1]123456789mEE")


@needs_scorer
def test_a_scored_hand_is_recorded_in_the_game_sheet(open_page, base_url):
    pytest.importorskip("webui.game_views")

    def call(method: str, path: str, body: dict | None = None) -> dict:
        return call_json(base_url, method, path, body)

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
    page.dblclick("#record-btn")  # a double tap records the hand once
    page.wait_for_selector("#record-result .msg.good")
    sheet = call("GET", f"game/api/{game['id']}")
    assert len(sheet["hands"]) == 1
    hand = sheet["hands"][0]
    assert (hand["winner"], hand["discarder"], hand["fans"]) == ("Bo", "Cy", total)
    assert hand["hand"] == "555666777p5556s7s"  # the seed hand as the library writes it


# -- a page every player can read -------------------------------------------------

#: what a finger can tap (a checkbox is tapped through its label)
TARGETS = (
    "button, a[href], select, summary, label.flag, label.mini,"
    " input:not([type=checkbox]):not([type=radio]):not([type=file]):not([type=hidden])"
)

SMALL_TARGETS = """sel => [...document.querySelectorAll(sel)].filter(e => {
    const r = e.getBoundingClientRect();
    const style = getComputedStyle(e);
    if (!r.width || !r.height || style.visibility === "hidden") return false;
    return r.width < 44 || r.height < 44;
  }).map(e => `${e.tagName.toLowerCase()}#${e.id}.${e.className} ${e.textContent.trim().slice(0, 20)}`
    + ` ${Math.round(e.getBoundingClientRect().width)}x${Math.round(e.getBoundingClientRect().height)}`)"""

SIDEWAYS = "document.documentElement.scrollWidth - window.innerWidth"

#: the visible text of the page, without the tile pictures, the language names and typed input
VISIBLE_TEXT = """() => {
  // names people typed (players, games) are marked translate="no" and are not page text
  const folded = (el) => el.closest("details:not([open])") && !el.closest("summary");
  const skip = (el) =>
    el.closest("svg, select, script, style, [hidden], dialog:not([open]), [translate=no]") || folded(el);
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.parentElement || skip(node.parentElement)) continue;
    const box = node.parentElement.getBoundingClientRect();
    if (box.width && box.height && node.textContent.trim()) out.push(node.textContent.trim());
  }
  return out;
}"""

#: product words that are the same in every language (file formats, units)
NOT_ENGLISH = {"CSV", "MB", "HTTP", "JSON", "PIN", "JPEG", "PNG", "WebP", "HEIC", "HEIF"}


def _english_words(page) -> list[str]:
    words = []
    for text in page.evaluate(VISIBLE_TEXT):
        words += [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in NOT_ENGLISH]
    return words


def _game_with_hands(base_url) -> int:
    def call(path: str, body: dict) -> dict:
        return call_json(base_url, "POST", path, body)

    game = call(
        "game/api/games",
        {
            "players": ["Annabelle Longname", "Bo", "Cy", "Di"],
            "name": "final table",
            "tournament": "spring",
        },
    )
    call(
        f"game/api/{game['id']}/hands",
        {"result": "win", "winner": "Bo", "self_drawn": True, "fans": 24},
    )
    call(
        f"game/api/{game['id']}/hands",
        {
            "result": "win",
            "winner": "Cy",
            "discarder": "Di",
            "fans": 8,
            "penalties": [{"player": "Di", "kind": "wrong_win"}],
        },
    )
    return game["id"]


@needs_scorer
@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["390", "768"])
def test_every_touch_target_is_44px_and_nothing_scrolls_sideways(
    open_page, base_url, tmp_path, viewport
):
    game = _game_with_hands(base_url)
    page = open_page(viewport=viewport, locale="zh-CN")
    _upload_fixture(page, tmp_path)  # the hand, its meld controls and the flags are on screen
    page.wait_for_selector("#total-value")
    page.click("#kb-details summary")
    problems = {"photo": page.evaluate(SMALL_TARGETS, TARGETS)}
    page.fill("#notation", SEED_HAND)  # a hand over 8 fans: the game sheet card too
    page.click("#notation-apply")
    page.wait_for_selector("#record-card:not([hidden]) #record-winner")
    _settled(page)
    problems["/"] = page.evaluate(SMALL_TARGETS, TARGETS)
    sideways = {"/": page.evaluate(SIDEWAYS)}
    page.click("#hand .group.concealed .tile >> nth=0")  # the tile dialog and its palette
    page.wait_for_selector("dialog[open]")
    problems["dialog"] = page.evaluate(
        SMALL_TARGETS, "dialog[open] " + TARGETS.replace(",", ", dialog[open] ")
    )
    page.keyboard.press("Escape")
    for path in ("game/", f"game/{game}", "game/rankings"):
        page.goto(base_url + path)
        page.click("details.g-pen summary") if path.startswith("game/1") else None
        problems[path] = page.evaluate(SMALL_TARGETS, TARGETS)
        sideways[path] = page.evaluate(SIDEWAYS)
    assert all(not p for p in problems.values()), problems
    if viewport == PHONE:
        assert all(v <= 0 for v in sideways.values()), sideways


@needs_scorer
@pytest.mark.parametrize(
    ("locale", "lang", "heading"), [("zh-CN", "zh", "番数"), ("zh-TW", "zh-Hant", "番數")]
)
def test_the_chinese_page_shows_no_english(open_page, base_url, tmp_path, locale, lang, heading):
    """After a photo, with a disabled option, after an error, and on the game pages."""
    page = open_page(viewport=PHONE, locale=locale)
    assert page.input_value("#lang-select") == lang
    _upload_fixture(page, tmp_path)
    page.wait_for_selector("#total-value")
    _settled(page)
    assert page.locator("#result-card h2").inner_text() == heading
    assert _english_words(page) == []
    page.fill("#notation", SEED_HAND)
    page.click("#notation-apply")
    page.click("#win-self")
    page.wait_for_selector("#reason-kong:not([hidden])")  # 杠上开花 needs a kong
    _settled(page)
    page.click("#toggle-excluded")
    assert _english_words(page) == []
    game = _game_with_hands(base_url)
    for path in ("game/", f"game/{game}", "game/rankings"):
        page.goto(base_url + path)
        assert _english_words(page) == [], path


@needs_scorer
def test_a_thirteen_tile_photo_is_listed_in_hand_order(open_page, tmp_path):
    photo = tmp_path / "thirteen.png"
    photo.write_bytes(photo_png(THIRTEEN))
    page = open_page(viewport=PHONE, locale="zh-CN")
    page.set_input_files("#upload-input", str(photo))
    page.wait_for_selector("#photo-view:not([hidden])")
    # no complete hand: the page says so, and the reader's notes are open, in Chinese
    assert page.locator("#photo-hand-null").is_visible()
    assert page.locator("#photo-notes-summary").inner_text() == "识别提示 2 条"
    notes = page.locator("#photo-warnings li")
    assert notes.nth(1).is_visible()
    assert notes.all_inner_texts() == [
        "手牌末端没有单独放开的牌；已把最后一张当作和张。",
        "除 0 组副露外找到 13 张牌：这是听牌，还没有和。",
    ]
    assert _english_words(page) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#photo-notes").screenshot(path=str(SHOTS / "phone_zh_photo_notes.png"))
    page.select_option("#lang-select", "zh-Hant")  # the notes follow the switch, no new photo
    assert notes.nth(0).inner_text() == "手牌末端沒有單獨放開的牌；已把最後一張當作和張。"
    page.select_option("#lang-select", "en")
    assert notes.nth(1).inner_text().startswith("Found 13 tiles besides 0 meld(s)")
    page.select_option("#lang-select", "zh")
    codes = page.locator("#hand .group.concealed .tile").evaluate_all(
        "tiles => tiles.map(t => t.dataset.code)"
    )
    detected = [code for code, _ in THIRTEEN]
    assert sorted(codes + ["7s"]) == sorted(detected)  # 7s is the winning tile, set apart
    assert codes == ["1p", "1p", "1p", "2p", "3p", "3p", "4p", "5p", "1s", "2s", "3s", "7s"]
    _notation_is(page, "11123345p1237s7s")


@needs_scorer
@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["390", "768"])
def test_the_breakdown_is_in_view_after_a_photo(open_page, tmp_path, viewport):
    page = open_page(viewport=viewport)
    _upload_fixture(page, tmp_path)
    page.wait_for_selector("#total-value")
    page.wait_for_function(
        "() => { const r = document.querySelector('#result-card').getBoundingClientRect();"
        " return r.top >= 0 && r.top < window.innerHeight / 2; }"
    )
    page.screenshot(path=str(SHOTS / f"after_photo_{viewport['width']}.png"))


@needs_scorer
@pytest.mark.parametrize(("locale", "lang"), [("zh-CN", "zh"), ("zh-TW", "zh-Hant")])
def test_errors_reach_the_chinese_page_in_chinese(open_page, base_url, locale, lang):
    """The server's own messages: a hand that is no win, bad notation, a bad photo,
    a game sheet refusing a form, a page that does not exist."""
    page = open_page(viewport=PHONE, locale=locale)
    page.fill("#notation", "13579m2468p13579s")
    page.click("#notation-apply")
    page.wait_for_selector("#result .msg.error")
    assert _english_words(page) == []
    page.fill("#notation", "12x")
    page.click("#notation-apply")
    page.wait_for_selector("#notation-error:not([hidden])")
    page.set_input_files(
        "#upload-input", files=[{"name": "notes.jpg", "mimeType": "image/jpeg", "buffer": b"hi"}]
    )
    page.wait_for_selector("#photo-error:not([hidden])")
    assert _english_words(page) == []
    _shot(page, f"phone_{lang}_errors.png")
    page.goto(base_url + "game/")
    for i, name in enumerate(["甲", "甲", "乙", "丙"]):
        page.fill(f"input[name=p{i}]", name)
    page.click("#new-game button[type=submit]")
    page.wait_for_function("document.querySelector('#new-error').textContent !== ''")
    assert _english_words(page) == []
    for path in ("game/999999", "no-such-page"):
        page.goto(base_url + path)
        assert _english_words(page) == [], path
    if lang == "zh-Hant":  # the page's own choice, not only the browser's, reaches the server
        page.select_option("#lang-select", "zh")
        page.reload()
        assert "没有这个页面" in page.locator("main").inner_text()


def test_a_tile_cut_by_the_photos_edge_is_dotted_and_noted(open_page, tmp_path):
    """A photo cut just after the flower: the flower's box reaches the edge, so it is drawn
    dotted and the notes ask, in the page's language, for the whole hand in view."""
    flower_end = boxes()[-1][1][2]
    image = cv2.imdecode(np.frombuffer(photo_png(), np.uint8), cv2.IMREAD_COLOR)
    ok, buf = cv2.imencode(".png", image[:, : flower_end + 1])
    photo = tmp_path / "cut.png"
    photo.write_bytes(buf.tobytes())
    page = open_page()
    page.set_input_files("#upload-input", str(photo))
    page.wait_for_selector("#photo-view:not([hidden])")
    _settled(page)
    assert page.locator("#boxes .box.partial").count() == 1
    notes = page.locator("#photo-warnings").inner_text()
    assert "照片边缘" in notes or "photo's edge" in notes


@needs_scorer
def test_a_scored_hand_teaches_the_next_photo_this_tables_tiles(open_page, tmp_path):
    """The player fixes the winning tile (read 5s, truly 2s) and scores the hand; the next
    photo goes with every face-up tile of that hand named as the player left it, the page
    says how many tiles it has learnt, and "Forget" (a new tile set) sends none again."""
    page = open_page()
    photo = tmp_path / "learn.png"
    photo.write_bytes(photo_png())
    LEARN_CALLS.clear()
    page.set_input_files("#upload-input", str(photo))
    page.wait_for_selector("#total-value")
    page.click("#hand .group.winning .tile")
    page.click('#dialog-palette .key[data-code="2s"]')
    page.wait_for_function("() => document.querySelector('#notation').value.endsWith('2s')")
    _settled(page)
    page.set_input_files("#upload-input", str(photo))
    page.wait_for_selector("#table-set:not([hidden])")
    _reader_called(page, 2)
    assert LEARN_CALLS[0] is None
    sent = LEARN_CALLS[1]
    assert sorted(e["tile"] for e in sent) == sorted(
        ["2m", "3m", "4m", "5p", "6p", "7p", "5p", "6p", "7p", "3s", "4s", "E", "E", "2s", "1f"]
    )
    assert "15" in page.locator("#table-set-text").inner_text()
    _settled(page)
    page.click("#table-set-forget")
    assert page.locator("#table-set").is_hidden()
    page.set_input_files("#upload-input", str(photo))
    page.wait_for_function(
        "() => !document.querySelector('#progress') || document.querySelector('#progress').hidden"
    )
    _settled(page)
    _reader_called(page, 3)
    assert len(LEARN_CALLS) == 3 and LEARN_CALLS[2] is None


def test_named_tiles_the_server_refuses_are_dropped_and_the_photo_read(open_page, tmp_path):
    """Tiles kept by another version of the page (here: looks of no reader's form) must not
    block every photo: the page forgets them and sends the photo again without."""
    page = open_page()
    page.evaluate(
        """() => localStorage.setItem("mcr-table-set",
            JSON.stringify([{tile: "5m", look: "not a look"}]))"""
    )
    page.reload()
    assert "1" in page.locator("#table-set-text").inner_text()
    photo = tmp_path / "learn.png"
    photo.write_bytes(photo_png())
    LEARN_CALLS.clear()
    page.set_input_files("#upload-input", str(photo))
    page.wait_for_selector("#photo-view:not([hidden])")
    assert LEARN_CALLS == [None]  # the refused request never reached a reader
    assert page.locator("#table-set").is_hidden()
    assert page.locator("#photo-error").is_hidden()


#: a set as `vision.pipeline.teach_set` reads one: the 34 kinds, each with a look
TAUGHT_SET = [
    {"tile": c, "look": encode_look(np.full(240, k + 1.0), "0123abcd"), "box": [0, 0, 1, 1],
     "read": c}
    for k, c in enumerate(
        [f"{n}{s}" for s in "mps" for n in range(1, 10)] + list("ESWNCFP")
    )
]  # fmt: skip


def _teaching(open_page, tmp_path, monkeypatch, taught: list[dict]):
    """A page with its teaching panel open, a photo to send, and a reader that reads any
    photo as the set `taught` (each tile's place and what the reader read there)."""
    agreed = sum(x["read"] == x["tile"] for x in taught)
    monkeypatch.setattr(
        "vision.pipeline.teach_set",
        lambda data, name: {"image": name, "set": taught, "agreed": agreed, "elapsed_ms": 1},
    )
    page = open_page()
    photo = tmp_path / "learn.png"
    photo.write_bytes(photo_png())
    page.click("#teach summary")
    return page, photo


def test_a_photo_of_the_laid_out_set_teaches_every_later_photo(open_page, tmp_path, monkeypatch):
    """The player photographs the set laid out in order: the page says what it learnt (and
    which tiles their places named otherwise than the reader read them), sends the 34
    named tiles first with every photo after, and "Forget" drops them; a photo that is
    no set is refused with the reader's words."""
    misread = [dict(x, read="4s") if x["tile"] == "6s" else x for x in TAUGHT_SET]
    page, photo = _teaching(open_page, tmp_path, monkeypatch, misread)
    assert "one tile of each kind" in page.locator("#teach").inner_text()
    page.set_input_files("#teach-input", str(photo))
    # "Learning the set…" shows while the reader works; the answer replaces it
    page.wait_for_function("document.querySelector('#teach-result')?.textContent.includes('34')")
    taught = page.locator("#teach-result").inner_text()
    assert "34" in taught and "6 Bamboo (read as 4 Bamboo)" in taught
    assert "34 of them from its laid-out set" in page.locator("#table-set-text").inner_text()
    page.reload()  # the set is kept on the tablet, and the page says so after a reload
    assert "34 of them from its laid-out set" in page.locator("#table-set-text").inner_text()
    LEARN_CALLS.clear()
    page.set_input_files("#upload-input", str(photo))
    page.wait_for_selector("#photo-view:not([hidden])")
    _settled(page)
    assert [e["tile"] for e in LEARN_CALLS[0]] == [t["tile"] for t in TAUGHT_SET]
    page.click("#table-set-forget")
    assert page.locator("#table-set").is_hidden() and page.locator("#teach-result").is_hidden()

    def refuse(data, name):
        raise PhotoError("tileset.count", found=16)

    monkeypatch.setattr("vision.pipeline.teach_set", refuse)
    page.click("#teach summary")  # closed again by the reload
    page.set_input_files("#teach-input", str(photo))
    page.wait_for_selector("#teach-error:not([hidden])")
    assert "Found 16 tiles" in page.locator("#teach-error").inner_text()
    assert page.locator("#table-set").is_hidden()


def test_the_hall_set_is_taught_shown_and_forgotten(open_page, tmp_path, monkeypatch):
    """The referee teaches the set for the whole hall from the page: every tablet's page
    shows it, the next photo is read with it (the server adds it), and it can be
    forgotten."""
    page, photo = _teaching(open_page, tmp_path, monkeypatch, TAUGHT_SET)
    page.set_input_files("#teach-hall-input", str(photo))
    page.wait_for_selector("#hall-set:not([hidden])")
    assert "34" in page.locator("#hall-set-text").inner_text()
    other = open_page(viewport=PHONE, locale="zh-CN")  # another table's tablet
    other.wait_for_selector("#hall-set:not([hidden])")
    assert "赛场的牌：已学会 34 张" in other.locator("#hall-set-text").inner_text()
    LEARN_CALLS.clear()
    other.set_input_files("#upload-input", str(photo))
    other.wait_for_selector("#photo-view:not([hidden])")
    assert [e["tile"] for e in LEARN_CALLS[0]] == [t["tile"] for t in TAUGHT_SET]
    page.click("#hall-set-forget")
    page.wait_for_selector("#hall-set", state="hidden")
