"""Layout reading on synthetic tile positions: rows, melds, winning tile, any photo turn."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision.layout_fixtures import GAP, full_layout, reads_for, row, simple_layout
from vision.layout import read_layout


def _groups(reads, layout):
    return [
        (g.role, [reads[i].chosen or _top(reads[i]) for i in g.tiles], g.claimed, g.promoted)
        for g in layout.groups
    ]


def _top(read):
    from scorer.tiles import CODES

    return CODES[int(read.probs.argmax())]


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
@pytest.mark.parametrize("seed", [1, 2])
def test_full_layout_any_turn(rotation: int, seed: int) -> None:
    reads = reads_for(full_layout(), rotation=rotation, jitter=2.5, seed=seed, shuffle=True)
    layout = read_layout(reads)
    assert layout.rotation == rotation
    groups = _groups(reads, layout)
    assert ("meld", ["3s", "4s", "5s"], 2, False) in groups
    assert ("meld", ["9m", "9m", "9m"], 3, False) in groups  # sideways on the right: 下家
    promoted = [g for g in groups if g[0] == "meld" and len(g[1]) == 4]
    assert promoted == [("meld", ["E", "E", "E", "E"], 2, True)]
    assert ("concealed_kong", ["back", "7p", "7p", "back"], 0, False) in groups
    assert ("concealed", ["C"], 0, False) in groups
    assert ("winning", ["C"], 0, False) in groups
    flowers = [g for g in groups if g[0] == "flowers"]
    assert len(flowers) == 1 and sorted(flowers[0][1]) == ["1f", "6f"]
    assert layout.warnings == []


@pytest.mark.parametrize("degrees", [-12.0, 8.0])
@pytest.mark.parametrize("rotation", [0, 90])
def test_tilted_photo(rotation: int, degrees: float) -> None:
    reads = reads_for(full_layout(), rotation=rotation, jitter=1.5, degrees=degrees, seed=3)
    layout = read_layout(reads)
    roles = sorted((g.role, len(g.tiles), g.claimed) for g in layout.groups)
    assert roles == [
        ("concealed", 1, 0),
        ("concealed_kong", 4, 0),
        ("flowers", 2, 0),
        ("meld", 3, 2),
        ("meld", 3, 3),
        ("meld", 4, 2),
        ("winning", 1, 0),
    ]
    assert layout.rotation == rotation


def test_sideways_tiles_are_marked() -> None:
    tiles = full_layout()
    reads = reads_for(tiles, rotation=90)
    read_layout(reads)
    marked = [code for (code, _), r in zip(tiles, reads, strict=True) if r.detection.sideways]
    assert marked == ["4s", "9m", "E", "E"]


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_melds_beside_the_hand_in_one_row(rotation: int) -> None:
    reads = reads_for(simple_layout(), rotation=rotation, jitter=2.0, seed=rotation)
    layout = read_layout(reads)
    groups = _groups(reads, layout)
    assert groups[0] == ("meld", ["5m", "6m", "7m"], 1, False)
    assert groups[1] == ("meld", ["2p", "2p", "2p"], 1, False)
    assert groups[2] == ("concealed", ["3s", "4s", "5s", "6p", "7p", "9s", "9s"], 0, False)
    assert groups[3] == ("winning", ["8p"], 0, False)
    assert groups[4][0] == "flowers"


def test_touching_melds_are_split() -> None:
    tiles = row(["1m", "1m", "1m", "1m", "2m", GAP, "4p"], y=300) + row(
        ["W/", "W", "W", "N", "N/", "N", "5s", "5s", "5s/", "5s"], y=100
    )
    layout = read_layout(reads_for(tiles))
    melds = [(len(g.tiles), g.claimed) for g in layout.groups if g.role == "meld"]
    assert melds == [(3, 1), (3, 2), (4, 2)]


def test_kong_fourth_tile_next_to_the_claimed_one() -> None:
    tiles = row(["2s", "2s", "2s/", "2s/"], y=100) + row(["1m", "1m", GAP, "1m"], y=300)
    layout = read_layout(reads_for(tiles))
    meld = next(g for g in layout.groups if g.role == "meld")
    assert (len(meld.tiles), meld.claimed, meld.promoted) == (4, 3, True)


def test_all_face_down_kong_asks_for_a_name() -> None:
    tiles = row(["back", "back", "back", "back"], y=100) + row(["1m", "1m", GAP, "1m"], y=300)
    layout = read_layout(reads_for(tiles))
    assert any(g.role == "concealed_kong" for g in layout.groups)
    assert any("face down" in w for w in layout.warnings)


def test_no_tile_set_apart_warns_and_takes_the_last() -> None:
    tiles = row(["1m", "2m", "3m", "5p", "5p"], y=300) + row(["E/", "E", "E"], y=100)
    reads = reads_for(tiles)
    layout = read_layout(reads)
    winning = next(g for g in layout.groups if g.role == "winning")
    assert _top(reads[winning.tiles[0]]) == "5p"
    assert any("set apart" in w for w in layout.warnings)


def test_meld_pushed_against_the_hand_is_peeled_off() -> None:
    tiles = row(["1m", "2m", "3m", "4p", "5p", "6p", "W", "W", "9m", "9m", "9m/"], y=300) + row(
        ["E", GAP, "E"], y=300, x0=600
    )
    reads = reads_for(tiles)
    layout = read_layout(reads)
    melds = [g for g in layout.groups if g.role == "meld"]
    assert [(_codes(reads, g), g.claimed) for g in melds] == [(["9m", "9m", "9m"], 3)]
    assert any("touches" in w for w in layout.warnings)


def _codes(reads, group):
    return [_top(reads[i]) for i in group.tiles]


def test_unreadable_meld_is_unknown_with_a_warning() -> None:
    tiles = row(["E/", "E"], y=100) + row(["1m", "1m", GAP, "1m"], y=300)  # a tile missed
    layout = read_layout(reads_for(tiles))
    assert any(g.role == "unknown" for g in layout.groups)
    assert any("sideways" in w for w in layout.warnings)


def test_no_tiles() -> None:
    layout = read_layout([])
    assert layout.groups == [] and layout.warnings == []


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(0, 2000),
            st.floats(0, 2000),
            st.floats(0, 90),
            st.floats(0, 90),
            st.integers(0, 42),
        ),
        max_size=30,
    )
)
def test_any_boxes_every_tile_in_one_group(boxes) -> None:
    from scorer.tiles import CODES
    from tests.vision.layout_fixtures import probs_for
    from vision.decode import decode
    from vision.types import Detection, TileRead

    reads = [
        TileRead(Detection((x, y, x + w, y + h), 0.9), probs_for(CODES[k]))
        for x, y, w, h, k in boxes
    ]
    layout = read_layout(reads)
    placed = sorted(i for g in layout.groups for i in g.tiles)
    assert placed == list(range(len(reads)))
    decode(reads, layout)  # never raises
    assert all(r.chosen in CODES for r in reads)


def test_stray_tiles_away_from_a_full_hand_are_left_out() -> None:
    hand = row(
        ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E", "N", GAP, "N"], y=300
    )
    discards = row(["3p", GAP, "9m", "F"], y=60)
    layout = read_layout(reads_for(hand + discards))
    extra = [g for g in layout.groups if g.role == "extra"]
    assert len(extra) == 1 and sorted(extra[0].tiles) == [14, 15, 16]
    assert any("Left out 3" in w for w in layout.warnings)


def test_winning_tile_laid_below_the_row() -> None:
    hand = row(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E", "N"], y=300)
    below = row(["N"], y=380, x0=200)
    reads = reads_for(hand + below)
    layout = read_layout(reads)
    winning = next(g for g in layout.groups if g.role == "winning")
    assert winning.tiles == [13]


def test_flat_meld_row_seen_at_an_angle() -> None:
    """Melds lying flat look shorter than the standing hand: sideways is judged per row."""
    melds = [
        (code, (x1, 100 + (y1 - 100) * 0.6, x2, 100 + (y2 - 100) * 0.6))
        for code, (x1, y1, x2, y2) in row(["3s", "4s/", "5s", GAP, "9m", "9m", "9m/"], y=100)
    ]
    hand = row(["1m", "1m", "1m", "7p", "8p", "9p", "N", GAP, "N"], y=300)
    reads = reads_for(melds + hand)
    layout = read_layout(reads)
    assert [i for i, r in enumerate(reads) if r.detection.sideways] == [1, 5]
    assert sorted(g.claimed for g in layout.groups if g.role == "meld") == [2, 3]
