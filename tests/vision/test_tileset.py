"""A table's set taught from one photo of it laid out in order (`vision.tileset`): each
tile is named by its place, whatever the reader itself makes of it, and a photo that is
not such a layout is refused rather than taught."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from scorer.tiles import CODES, INDEX, NUM_KINDS
from vision.errors import ModelError, PhotoError
from vision.tileset import BLOCKS, WITH_FLOWERS, exemplars, layouts, taught
from vision.types import Detection, TileRead

W, H = 30.0, 40.0  # a tile's box in the photo


def _read(code: str, x: float, y: float, look: str, upright: bool = True) -> TileRead:
    """A tile at (x, y) the reader took for `code` (0.9 sure), with a look."""
    sure = 0.9
    probs = np.full(len(CODES), (1 - sure) / (len(CODES) - 1), np.float32)
    probs[INDEX[code]] = sure
    w, h = (W, H) if upright else (H, W)
    box = (x, y, x + w, y + h)
    return TileRead(Detection(box, 0.9), probs, chosen=code, look=look)


def _laid_out(
    codes: list[str], per_row: int, misread: dict[int, str] | None = None, turn: str = ""
) -> list[TileRead]:
    """Reads of `codes` laid out `per_row` a row from the photo's top left, as the
    reader reads them (`misread`: place -> what it reads there instead), each with its
    place as its look. `turn`: the photo taken from across the table ("across") or from
    the left ("left")."""
    misread = misread or {}
    out = []
    for k, code in enumerate(codes):
        r, c = divmod(k, per_row)
        x, y = c * (W + 1), r * (H + 12)
        if turn == "across":
            x, y = 2000 - x, 2000 - y
        if turn == "left":  # rows run down the photo, taken from right to left
            x, y = 2000 - r * (W + 12), c * (H + 1)
        out.append(_read(misread.get(k, code), x, y, f"place {k}", upright=turn != "left"))
    return out


def _order(*names: str) -> list[str]:
    return [c for n in names for c in BLOCKS[n]]


SUITS_FIRST = _order("characters", "dots", "bamboos", "winds", "dragons")


def test_every_layout_holds_each_kind_once() -> None:
    """The blocks in any order, the dragons either way round, the whole forwards or
    backwards: 5! * 2 * 2 orders of a set without flowers, 6! * 2 * 2 with them."""
    for count, n in ((NUM_KINDS, 480), (WITH_FLOWERS, 2880)):
        found = layouts(count)
        assert found.shape == (n, count) and len({tuple(row) for row in found}) == n
        assert all(sorted(row) == list(range(count)) for row in found)


def test_places_name_the_tiles_the_reader_misreads() -> None:
    """An unfamiliar set: the reader takes its 6s for 4s and its 白 for a back; the
    places name them all the same, and their looks go with the names."""
    reads = _laid_out(SUITS_FIRST, 9, misread={23: "4s", 33: "back", 2: "5m"})
    out = taught(reads)
    assert [t["tile"] for t in out] == SUITS_FIRST
    assert out[23]["read"] == "4s" and out[23]["look"] == "place 23"
    assert out[33]["tile"] == "P" and out[33]["read"] == "back"
    assert exemplars(out)[23] == {"tile": "6s", "look": "place 23"}


@pytest.mark.parametrize("turn", ["", "across", "left"])
@pytest.mark.parametrize("per_row", [9, 12, 17])
def test_blocks_in_any_order_rows_of_any_length_any_side(turn: str, per_row: int) -> None:
    """Winds first, the flowers in the middle, 白發中, rows running on; seen from any
    side."""
    codes = _order("winds", "bamboos", "flowers", "characters", "dots")
    codes += ["P", "F", "C"]
    out = taught(_laid_out(codes, per_row, misread={5: "9p", 30: "1s"}, turn=turn))
    assert sorted(t["tile"] for t in out) == sorted(codes)
    named = {t["look"]: t["tile"] for t in out}
    assert all(named[f"place {k}"] == code for k, code in enumerate(codes))


def test_a_missing_tile_or_many_more_are_refused() -> None:
    with pytest.raises(PhotoError) as missing:
        taught(_laid_out(SUITS_FIRST[:-1], 9))
    assert missing.value.code == "tileset" and missing.value.params["found"] == 33
    with pytest.raises(PhotoError):
        taught(_laid_out(SUITS_FIRST + ["5m", "5m", "5m"], 9))


@pytest.mark.parametrize("score", [0.5, 0.95])
def test_a_tile_found_twice_is_left_out_whichever_box_is_surer(score: float) -> None:
    """A second box on the 5m (a duplicate the detector gives now and then), less or more
    sure than the first; a faint box on another tile (發) is no duplicate and stays."""
    reads = _laid_out(SUITS_FIRST, 9)
    faint = SUITS_FIRST.index("F")
    reads[faint] = replace(reads[faint], detection=replace(reads[faint].detection, score=0.6))
    x1, y1, x2, y2 = reads[4].detection.box
    twice = TileRead(Detection((x1 + 3, y1 + 2, x2 + 3, y2 + 2), score), reads[4].probs, "5m")
    out = taught(reads[:5] + [replace(twice, look="twice")] + reads[5:])
    assert [t["tile"] for t in out] == SUITS_FIRST
    assert {t["look"] for t in out} >= {f"place {faint}"}


def test_a_set_with_six_tiles_missing_is_refused_by_its_count() -> None:
    codes = _order("characters", "dots", "bamboos", "winds", "dragons", "flowers")
    with pytest.raises(PhotoError) as refused:
        taught(_laid_out(codes[:36], 9))
    assert refused.value.params["found"] == 36


def test_a_row_laid_out_with_a_gap_in_it_is_one_row() -> None:
    """1-5, a gap, 6-9 on the same line, the second half a little higher in the photo:
    still read after the first half, not as a row of its own above it."""
    reads = _laid_out(SUITS_FIRST, 9)
    for k in range(5, 9):  # the characters' 6-9 moved right and up a little
        x1, y1, x2, y2 = reads[k].detection.box
        box = (x1 + 2 * W, y1 - 4, x2 + 2 * W, y2 - 4)
        reads[k] = replace(reads[k], detection=replace(reads[k].detection, box=box))
    out = taught(reads)
    assert [t["tile"] for t in out] == SUITS_FIRST
    assert [t["look"] for t in out[:9]] == [f"place {k}" for k in range(9)]


def test_a_tile_laid_out_in_another_ones_place_is_named_by_the_place() -> None:
    """Places name tiles: a 3m laid where the 5m belongs is taught as a 5m, and the answer
    shows the reader read a 3m there, for the player to check (the page lists it)."""
    reads = _laid_out(SUITS_FIRST, 9, misread={4: "3m"})
    out = taught(reads)
    assert out[4]["tile"] == "5m" and out[4]["read"] == "3m"


def test_tiles_not_in_the_sets_order_are_refused_not_taught() -> None:
    """Shuffled tiles fit some order of the blocks a little: too little to name them."""
    shuffled = [SUITS_FIRST[i] for i in np.random.default_rng(3).permutation(NUM_KINDS)]
    with pytest.raises(PhotoError) as refused:
        taught(_laid_out(shuffled, 9))
    assert "tileset.order" in refused.value.message_id


def test_a_reader_without_looks_teaches_nothing() -> None:
    reads = _laid_out(SUITS_FIRST, 9)
    reads[4] = TileRead(reads[4].detection, reads[4].probs, chosen="5m", look=None)
    with pytest.raises(ModelError):
        taught(reads)


@pytest.mark.parametrize(("score", "taught_it"), [(0.5, True), (0.8, False)])
def test_a_box_on_no_tile_is_left_out_only_when_faint(score: float, taught_it: bool) -> None:
    """A faint box beside the set (a shadow, a tile's side) is left out; a sure one might
    be a tile, and which of the 35 is not the set's is then not known: refused."""
    reads = _laid_out(SUITS_FIRST, 9)
    stray = TileRead(Detection((900.0, 900.0, 930.0, 940.0), score), reads[0].probs, "back")
    if taught_it:
        out = taught([*reads, replace(stray, look="stray")])
        assert [t["tile"] for t in out] == SUITS_FIRST
    else:
        with pytest.raises(PhotoError):
            taught([*reads, replace(stray, look="stray")])
