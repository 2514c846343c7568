"""A table's set taught from one photo of it laid out in order (`vision.tileset`): each
tile is named by its place, whatever the reader itself makes of it, and a photo that is
not such a layout is refused rather than taught."""

from __future__ import annotations

from collections import Counter

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


SUITS_FIRST = _order("characters", "dots", "bamboos", "honours")


def test_every_layout_holds_each_kind_once() -> None:
    """The blocks in any order, forwards or backwards: 24 orders of 4 blocks, 120 of 5."""
    for count, n in ((NUM_KINDS, 48), (WITH_FLOWERS, 240)):
        found = layouts(count)
        assert len(found) == len(set(found)) == n
        assert all(Counter(codes) == Counter(CODES[:count]) for codes in found)


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
    """Honours first, the flowers in the middle, rows running on; seen from any side."""
    codes = _order("honours", "bamboos", "flowers", "characters", "dots")
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


def test_a_tile_found_twice_is_left_out_by_its_weaker_box() -> None:
    """A second, less sure box on the 5m (a duplicate the detector gives now and then)."""
    reads = _laid_out(SUITS_FIRST, 9)
    twice = reads[4]
    x1, y1, x2, y2 = twice.detection.box
    weak = TileRead(
        Detection((x1 + 3, y1 + 2, x2 + 3, y2 + 2), 0.5), twice.probs, "5m", look="twice"
    )
    out = taught(reads[:5] + [weak] + reads[5:])
    assert [t["tile"] for t in out] == SUITS_FIRST and "twice" not in {t["look"] for t in out}


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
