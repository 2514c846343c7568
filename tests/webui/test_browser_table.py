"""The page with a photo of a table: the tiles that are not the hand are dimmed, a tap on
one of them makes its group the hand, and 和绝张 comes ticked when the photo shows the
winning tile's other three copies (headless Chromium, as test_browser.py)."""

from __future__ import annotations

from tests.webui.photo_fixture import POND, table_png
from tests.webui.test_browser import _settled, base_url, open_page, pytestmark

__all__ = ["base_url", "open_page", "pytestmark"]


def _upload_table(page, tmp_path, name: str = "whole-table.png", height: int = 680) -> None:
    photo = tmp_path / name
    photo.write_bytes(table_png(height))
    page.set_input_files("#upload-input", str(photo))
    page.wait_for_selector("#photo-view:not([hidden])")
    _settled(page)


def _tap_first_ignored(page) -> None:
    """A tap on the photo where the first dimmed box lies. The boxes let taps through to
    the photo (`#boxes`), which opens what lies under the finger; the point is taken once
    the photo has loaded (that lays the boxes out again) and clicked through `#boxes`, so
    that the click waits while the sticky header covers it. The page scrolls smoothly to
    the breakdown after a photo, so the box's place within `#boxes` is read in one step,
    the same whatever the scroll."""
    page.wait_for_function("document.querySelector('#photo-img').complete")
    _settled(page)
    centre = page.evaluate(
        """() => {
            const box = document.querySelector("#boxes .box.ignored").getBoundingClientRect();
            const area = document.querySelector("#boxes").getBoundingClientRect();
            return {x: box.x + box.width / 2 - area.x, y: box.y + box.height / 2 - area.y};
        }"""
    )
    page.locator("#boxes").click(position=centre)


def test_the_pond_is_dimmed_and_the_last_tile_is_ticked(open_page, tmp_path):
    page = open_page()
    _upload_table(page, tmp_path)
    assert page.locator("#boxes .box.ignored").count() == len(POND)
    assert page.locator("#boxes .box:not(.ignored)").count() == 15
    assert page.locator("#flag-fourth_tile").is_checked()  # the pond shows the other 5s
    assert page.locator("#table-note").is_visible()
    assert page.locator("#result-card").inner_text().count("和绝张") >= 1


def test_a_tap_on_the_pond_makes_it_the_hand(open_page, tmp_path):
    page = open_page()
    _upload_table(page, tmp_path)
    _tap_first_ignored(page)
    page.wait_for_selector("#group-bar:not([hidden])")
    assert "18" in page.locator("#group-text").inner_text()
    page.click("#group-make")
    page.wait_for_function("document.querySelectorAll('#boxes .box.ignored').length === 15")
    _settled(page)
    assert page.locator("#boxes .box:not(.ignored)").count() == len(POND)
    assert page.locator("#hand .tile").count() >= len(POND) - 1


def test_ignored_tiles_cut_by_the_photos_edge_are_drawn_dotted(open_page, tmp_path):
    """A pond row the photo's edge cuts is marked as the hand's cut tiles are: its boxes
    show only part of each tile, so their faces may be misread."""
    page = open_page()
    _upload_table(page, tmp_path, "table-cut.png", 600)
    assert page.locator("#boxes .box.ignored").count() == len(POND)
    cut = page.locator("#boxes .box.ignored.partial")
    assert cut.count() == 6
    assert cut.first.evaluate("e => getComputedStyle(e).borderTopStyle") == "dotted"
    whole = page.locator("#boxes .box.ignored:not(.partial)").first
    assert whole.evaluate("e => getComputedStyle(e).borderTopStyle") == "solid"
