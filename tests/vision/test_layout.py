"""Layout reading on synthetic tile positions: rows, melds, winning tile, any photo turn."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.tiles import INDEX
from vision.decode import decode
from vision.layout import read_layout
from vision.layout.melds import claimed_widest
from vision.layout.slots import Slot
from vision.synthetic import GAP, full_layout, reads_for, row, simple_layout


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
    layout = read_layout(reads)
    marked = [code for (code, _), side in zip(tiles, layout.sideways, strict=True) if side]
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
    assert any("face down" in str(w) for w in layout.warnings)


def test_no_tile_set_apart_warns_and_takes_the_last() -> None:
    tiles = row(["1m", "2m", "3m", "5p", "5p"], y=300) + row(["E/", "E", "E"], y=100)
    reads = reads_for(tiles)
    layout = read_layout(reads)
    winning = next(g for g in layout.groups if g.role == "winning")
    assert _top(reads[winning.tiles[0]]) == "5p"
    assert any("set apart" in str(w) for w in layout.warnings)


def test_meld_pushed_against_the_hand_is_peeled_off() -> None:
    tiles = row(["1m", "2m", "3m", "4p", "5p", "6p", "W", "W", "9m", "9m", "9m/"], y=300) + row(
        ["E", GAP, "E"], y=300, x0=600
    )
    reads = reads_for(tiles)
    layout = read_layout(reads)
    melds = [g for g in layout.groups if g.role == "meld"]
    assert [(_codes(reads, g), g.claimed) for g in melds] == [(["9m", "9m", "9m"], 3)]
    assert any("touches" in str(w) for w in layout.warnings)


def _codes(reads, group):
    return [_top(reads[i]) for i in group.tiles]


def test_a_hand_tile_pushed_against_four_melds_is_no_kong() -> None:
    # Four pungs laid touching the hand's last tile: the run also cuts into a "kong" of
    # 3s + 999s and three pungs, but the tiles read as four pungs beside a 3s (rules seed
    # 003: a claimed tile lies sideways in each meld).
    tokens = ["3s", "9s/", "9s", "9s", "E", "E/", "E", "C/", "C", "C", "3p", "3p", "3p/"]
    reads = reads_for(row([*tokens, GAP, "3s"], y=300))
    layout = read_layout(reads)
    melds = [(_codes(reads, g), g.claimed) for g in layout.groups if g.role == "meld"]
    assert melds == [
        (["9s", "9s", "9s"], 1),
        (["E", "E", "E"], 2),
        (["C", "C", "C"], 1),
        (["3p", "3p", "3p"], 3),
    ]
    concealed = next(g for g in layout.groups if g.role == "concealed")
    assert _codes(reads, concealed) == ["3s"]
    assert decode(reads, layout).hand is not None


def test_a_melds_claimed_tile_is_its_widest() -> None:
    # Rules seed 003: the claimed tile lies sideways and its place tells the giver. At an
    # overhead view the first tile's box came out wide enough to be marked sideways; the
    # third, the one lying across the row, is wider still for its length.
    reads = reads_for(row(["9p", "9p", "9p"], y=300))
    slots = [
        Slot([0], 0.0, 69.0, True),
        Slot([1], 69.0, 135.0, False),
        Slot([2], 135.0, 212.0, False),
    ]
    shapes = np.array([0.84, 0.835, 0.95])
    (segment, giver, promoted), moved = claimed_widest((slots, 1, False), reads, shapes, 1.1)
    assert [s.sideways for s in segment] == [False, False, True]
    assert (giver, promoted) == (3, False)
    assert [r.detection.sideways for r in moved] == [False, False, True]
    # a neighbour about as wide as the marked tile leaves the mark where it is
    shapes = np.array([0.84, 0.835, 0.88])
    (segment, giver, _), _ = claimed_widest((slots, 1, False), reads, shapes, 1.1)
    assert giver == 1


def test_a_misread_pung_tile_makes_no_kong_with_the_hand_tile_beside_it() -> None:
    # As above with the pair pushed against the melds and the first pung's claimed 9s read
    # as 6s: a pung of 6s 9s 9s looks no less like a meld than a "kong" 3s 6s 9s 9s, and
    # kongs are the rarer melds.
    tokens = ["3s", "3s", "6s/", "9s", "9s", "E", "E/", "E", "C/", "C", "C", "3p", "3p", "3p/"]
    reads = reads_for(row(tokens, y=300))
    layout = read_layout(reads)
    melds = [(_codes(reads, g), g.claimed) for g in layout.groups if g.role == "meld"]
    assert melds[0] == (["6s", "9s", "9s"], 1)
    assert [len(codes) for codes, _ in melds] == [3, 3, 3, 3]


def test_unreadable_meld_is_unknown_with_a_warning() -> None:
    tiles = row(["E/", "E"], y=100) + row(["1m", "1m", GAP, "1m"], y=300)  # a tile missed
    layout = read_layout(reads_for(tiles))
    assert any(g.role == "unknown" for g in layout.groups)
    assert any("sideways" in str(w) for w in layout.warnings)


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
    from vision.decode import decode
    from vision.synthetic import probs_for
    from vision.types import Detection, TileRead

    reads = [
        TileRead(Detection((x, y, x + w, y + h), 0.9), probs_for(CODES[k]))
        for x, y, w, h, k in boxes
    ]
    layout = read_layout(reads)
    placed = sorted(i for g in layout.groups for i in g.tiles)
    assert placed == list(range(len(reads)))
    decoded = decode(reads, layout)  # never raises
    assert all(r.chosen in CODES for r in decoded.reads)


def test_stray_tiles_away_from_a_full_hand_are_left_out() -> None:
    hand = row(
        ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E", "N", GAP, "N"], y=300
    )
    discards = row(["3p", GAP, "9m", "F"], y=60)
    layout = read_layout(reads_for(hand + discards))
    extra = [g for g in layout.groups if g.role == "extra"]
    assert len(extra) == 1 and sorted(extra[0].tiles) == [14, 15, 16]
    assert any("Left out 3" in str(w) for w in layout.warnings)


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
    assert [i for i, side in enumerate(layout.sideways) if side] == [1, 5]
    assert sorted(g.claimed for g in layout.groups if g.role == "meld") == [2, 3]


def _hand_row() -> list:
    return row(
        ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E", "N", GAP, "N"], y=300
    )


@pytest.mark.parametrize("degrees", [-40.0, 30.0, 60.0, 135.0, 200.0])
def test_hand_row_at_any_angle(degrees: float) -> None:
    """Rows are found from where the tile centres line up, not from the box shapes."""
    reads = reads_for(_hand_row(), degrees=degrees, jitter=1.0, seed=4)
    layout = read_layout(reads)
    groups = _groups(reads, layout)
    assert groups[-1] == ("winning", ["N"], 0, False)
    assert groups[-2][0] == "concealed" and len(groups[-2][1]) == 13
    assert not any("turned" in str(w) for w in layout.warnings)


def test_low_camera_tiles_look_wider_than_tall() -> None:
    """Seen from low down a standing tile's box is wider than tall; the row still runs across."""
    tiles = [(code, (x1, 300 - 12, x2, 300 + 12)) for code, (x1, _, x2, _) in _hand_row()]
    reads = reads_for(tiles)
    layout = read_layout(reads)
    assert layout.rotation == 0
    assert _groups(reads, layout)[-1] == ("winning", ["N"], 0, False)


def _perspective(tiles: list, shrink: float = 0.5, gap: float = 0.0) -> list:
    """The tiles laid along x, each smaller than the one before (the row runs away from the
    camera); `gap` (in tile widths) is left before the last tile only."""
    out, x = [], 0.0
    for k, (code, (x1, y1, x2, y2)) in enumerate(tiles):
        scale = 1.0 - shrink * k / len(tiles)
        w, h = (x2 - x1) * scale, (y2 - y1) * scale
        if k == len(tiles) - 1:
            x += gap * w
        out.append((code, (x, 300 - h / 2, x + w, 300 + h / 2)))
        x += w + 0.5
    return out


def test_winning_tile_slightly_apart_in_a_row_running_away() -> None:
    """Far from the camera the gap before the winning tile is small; the step between tile
    centres still shows it."""
    reads = reads_for(_perspective(_hand_row(), gap=0.35))
    layout = read_layout(reads)
    groups = _groups(reads, layout)
    assert groups[-1] == ("winning", ["N"], 0, False)
    assert not any("set apart" in str(w) for w in layout.warnings)


def test_box_shapes_drifting_along_a_row() -> None:
    """Perspective widens boxes from one end of a long row to the other; a sideways tile is
    judged against its neighbours, so only the claimed tiles are marked."""
    tokens = [
        "1m",
        "1m",
        "1m/",
        "2m",
        "3m",
        "4m",
        "5p",
        "6p",
        "7p",
        "8s",
        "8s",
        GAP,
        "9s",
        "9s",
        "9s/",
    ]
    tiles = row(tokens, y=300)
    drifted = []
    for k, (code, (x1, y1, x2, y2)) in enumerate(tiles):
        grow = 1.0 + 0.7 * k / len(tiles)  # boxes widen: more of each tile's side shows
        cx = (x1 + x2) / 2 * 1.35
        w = (x2 - x1) * grow
        drifted.append((code, (cx - w / 2, y1, cx + w / 2, y2)))
    reads = reads_for(drifted)
    marked = [k for k, side in enumerate(read_layout(reads).sideways) if side]
    assert marked == [2, 13]


def test_concealed_kong_against_a_meld() -> None:
    tiles = row(["back", "7p", "7p", "back", "9m", "9m", "9m/"], y=100) + row(
        ["1m", "2m", "3m", "5s", "5s", "5s", "W", GAP, "W"], y=300
    )
    layout = read_layout(reads_for(tiles))
    roles = [(g.role, len(g.tiles), g.claimed) for g in layout.groups]
    assert ("concealed_kong", 4, 0) in roles
    assert ("meld", 3, 3) in roles
    assert not any("face-down ones lie together" in str(w) for w in layout.warnings)


def test_lone_tile_looking_sideways_is_the_winning_tile() -> None:
    """A tile set apart is no meld, whatever its box shape (seen at an angle)."""
    hand = _hand_row()
    code, (x1, y1, x2, y2) = hand[-1]
    hand[-1] = (code, (x1, y1 + 8, x2 + 14, y2 - 8))
    reads = reads_for(hand)
    layout = read_layout(reads)
    assert _groups(reads, layout)[-1] == ("winning", ["N"], 0, False)
    assert not any(g.role == "unknown" for g in layout.groups)


def test_flower_told_by_summed_probability() -> None:
    """A model unsure which flower it sees still says 'a flower': the kinds' sums decide."""
    import numpy as np

    from scorer.tiles import INDEX

    reads = reads_for(_hand_row() + row(["1f"], y=100, x0=600))
    p = np.zeros(43)
    p[INDEX["1f"] : INDEX["1f"] + 8] = 0.09  # 0.72 spread over the flowers
    p[INDEX["5s"]] = 0.28  # the most probable single class is a playing tile
    reads[-1].probs = p
    layout = read_layout(reads)
    flowers = [g for g in layout.groups if g.role == "flowers"]
    assert len(flowers) == 1 and flowers[0].tiles == [len(reads) - 1]


def test_fourth_tile_stacked_on_the_claimed_one() -> None:
    """Seen from above, a promoted kong's fourth tile covers the claimed one almost exactly."""
    melds = row(["E", "E/", "E"], y=100)
    code, (x1, y1, x2, y2) = melds[1]
    stacked = [(code, (x1 + 1, y1 - 5, x2 + 1, y2 - 5))]
    hand = row(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "N", GAP, "N"], y=300)
    reads = reads_for(melds + stacked + hand)
    layout = read_layout(reads)
    meld = next(g for g in layout.groups if g.role == "meld")
    assert (len(meld.tiles), meld.claimed, meld.promoted) == (4, 2, True)
    assert not any(g.role == "extra" for g in layout.groups)


def _meld_and_hand(tokens: list[str]) -> list[tuple[str, tuple]]:
    """A meld of three places above a concealed row that completes the hand with it."""
    hand = row(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "N", GAP, "N"], y=300)
    return row(tokens, y=100) + hand


@pytest.mark.parametrize("stacked, promoted", [(0.95, True), (0.85, False), (0.6, False)])
def test_fourth_tile_found_as_one_box_with_the_claimed_one(stacked: float, promoted: bool) -> None:
    """Seed 003 实战细节 五: a promoted kong (加杠) keeps the pung's sideways tile, with the
    fourth laid on it. Found as one box, the pair is a promoted kong when the stacked-tile
    reading is sure (`vision.stacked`), and stays a pung when it is not: 0.85 is as sure as
    a few single sideways tiles of a table's pungs read."""
    reads = reads_for(_meld_and_hand(["E", "E/", "E"]))
    reads[1].stacked = stacked
    layout = read_layout(reads)
    meld = next(g for g in layout.groups if g.role == "meld")
    want = [0, 1, 1, 2] if promoted else [0, 1, 2]
    assert (meld.tiles, meld.claimed, meld.promoted) == (want, 2, promoted)
    decoded = decode(reads, layout)
    assert decoded.notation == ("[EEEE,6]" if promoted else "[EEE,2]") + "123m456p789sN" + "N"


def test_fourth_tile_found_on_its_own_is_not_counted_twice() -> None:
    """Where the detector found both tiles of the pair, a sure stacked-tile reading of the
    claimed one adds no fifth tile."""
    tiles = _meld_and_hand(["E", "E/", "E"])
    code, (x1, y1, x2, y2) = tiles[1]
    reads = reads_for(tiles + [(code, (x1 + 1, y1 - 5, x2 + 1, y2 - 5))])
    reads[1].stacked = 0.95
    layout = read_layout(reads)
    meld = next(g for g in layout.groups if g.role == "meld")
    assert (sorted(meld.tiles), meld.promoted) == ([0, 1, 2, len(tiles)], True)


def test_same_tile_found_twice_is_still_ignored() -> None:
    """A second, smaller box on an upright tile is no stacked tile."""
    hand = row(
        ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E", "N", GAP, "N"], y=300
    )
    code, (x1, y1, x2, y2) = hand[4]
    reads = reads_for(hand + [(code, (x1 + 2, y1 + 4, x2 - 2, y2 - 6))])
    layout = read_layout(reads)
    assert [g.tiles for g in layout.groups if g.role == "extra"] == [[14]]
    assert len(next(g for g in layout.groups if g.role == "concealed").tiles) == 13


def _flower_like(read, code: str, p_code: float) -> None:
    """Read as `code` with `p_code`, and 0.32 spread over the eight flowers (renormalised)."""
    import numpy as np

    from scorer.tiles import INDEX

    p = np.full(43, 0.01)
    p[INDEX["1f"] : INDEX["1f"] + 8] = 0.04
    p[INDEX[code]] = p_code
    read.probs = p / p.sum()


def test_unnamed_flowers_beside_the_hand_found_by_count() -> None:
    """Three tiles too many in the hand row, lying together at its end and more flower-like
    than the rest, are the flowers, though the classifier named none of them a flower."""
    flowers = row(["2f", "5f", "7f"], y=300, x0=-200)
    reads = reads_for(flowers + _hand_row())
    for k, other in enumerate(["6p", "9m", "P"]):
        _flower_like(reads[k], other, 0.3)
    layout = read_layout(reads)
    groups = _groups(reads, layout)
    assert [g for g in layout.groups if g.role == "flowers"][0].tiles == [0, 1, 2]
    assert (
        groups[-2][0] == "winning" and len([g for g in groups if g[0] == "concealed"][0][1]) == 13
    )


def test_tiles_beyond_a_hand_are_no_flowers_when_taking_them_leaves_no_hand() -> None:
    """Flowers found by count (tiles beyond a hand's count) are only the count's evidence:
    a heap of loose tiles holds more than any hand, and tiles at its edge that read a
    little flower-like stay the tiles they were read as (cmd-v4 valid: four characters
    at a heap's edge, read right, were taken for flowers)."""
    tokens = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E"]
    heap = row(["5m", "7m", "6m"], y=300, x0=-200) + row(
        tokens + ["1p", "2p", "3p", "S", "S", "N", GAP, "N"], y=300
    )
    reads = reads_for(heap)
    for k, code in enumerate(["5m", "7m", "6m"]):
        _flower_like(reads[k], code, 0.5)
    layout = read_layout(reads)
    assert not [g for g in layout.groups if g.role == "flowers"]
    decoded = decode(reads, layout)
    assert [decoded.reads[k].chosen for k in range(3)] == ["5m", "7m", "6m"]


def _unsure(read, codes: list[str]) -> None:
    """Spread the read's probability over `codes`, as over unfamiliar art: none above 0.5."""
    import numpy as np

    from scorer.tiles import INDEX

    p = np.full(43, 0.3 / 43)
    for code in codes:
        p[INDEX[code]] += 0.7 / len(codes)
    read.probs = p


def _flower_row(y: float, x0: float) -> list:
    return row(["3p", "1s", "P"], y=y, x0=x0)


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_unread_tiles_beside_a_whole_hand_are_its_flowers(rotation: int) -> None:
    """Rules seed 003, 实战细节 五: flowers lie to one side of the hand. Tiles there that a
    classifier meeting unfamiliar flower art reads as assorted playing tiles, none surely,
    are counted as flowers (only their count scores), with a warning to check them."""
    reads = reads_for(_hand_row() + _flower_row(y=245, x0=0), rotation=rotation)
    for k, codes in zip((14, 15, 16), (["3p", "5m"], ["1s", "4s"], ["P", "8s"]), strict=True):
        _unsure(reads[k], codes)
    layout = read_layout(reads)
    assert [g.tiles for g in layout.groups if g.role == "flowers"] == [[14, 15, 16]]
    assert not [g for g in layout.groups if g.role == "extra"]
    assert any(
        "Counted 3 tile(s) lying apart from the hand as flowers" in str(w) for w in layout.warnings
    )
    assert len(next(g for g in layout.groups if g.role == "concealed").tiles) == 13
    decoded = decode(reads, layout)
    assert all(decoded.reads[k].chosen.endswith("f") for k in (14, 15, 16))


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
@pytest.mark.parametrize("unread", [True, False])
def test_unread_tiles_at_the_hand_rows_end_beyond_its_count_are_flowers(
    rotation: int, unread: bool
) -> None:
    """Flowers laid on at the far end of the hand row with no gap that shows (rules seed
    003, 实战细节 五: flowers lie to one side of the hand): the row holds three tiles more
    than a hand, and the three at its end, read as assorted playing tiles and none surely
    (unfamiliar flower art), are its flowers. Read surely, they are tiles of the hand row,
    and the hand stays unread rather than guessed."""
    tokens = ["3p", "1s", "P", "1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s"]
    reads = reads_for(row(tokens + ["E", "E", "E", "N", GAP, "N"], y=300), rotation=rotation)
    if unread:
        for k, codes in zip((0, 1, 2), (["3p", "5m"], ["1s", "4s"], ["P", "8s"]), strict=True):
            _unsure(reads[k], codes)
    layout = read_layout(reads)
    flowers = [g.tiles for g in layout.groups if g.role == "flowers"]
    concealed = next(g for g in layout.groups if g.role == "concealed").tiles
    if unread:
        assert flowers == [[0, 1, 2]]
        assert sorted(concealed) == list(range(3, 16))
        decoded = decode(reads, layout)
        assert all(decoded.reads[k].chosen.endswith("f") for k in (0, 1, 2))
    else:
        assert flowers == []
        assert len(concealed) == 16


def test_one_unread_tile_too_many_at_the_hand_rows_end_is_not_taken_for_a_flower() -> None:
    """A single unsure tile beyond a hand's count at the row's end is as often a stray or a
    tile found twice as a flower: it stays in the row, and no hand is claimed."""
    tokens = ["3p", "1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E", "N"]
    reads = reads_for(row(tokens + [GAP, "N"], y=300))
    _unsure(reads[0], ["3p", "5m"])
    layout = read_layout(reads)
    assert not [g for g in layout.groups if g.role == "flowers"]
    assert len(next(g for g in layout.groups if g.role == "concealed").tiles) == 14


@pytest.mark.parametrize("unread", ["flowers", "none", "both"])
def test_a_row_of_unread_tiles_outnumbering_the_hand_row_is_its_flowers(unread: str) -> None:
    """`[678p,1][444s,2][123s,1][345p,2]8s8s`: beside four melds the hand row holds two
    tiles, and the flowers, laid in a row of their own (rules seed 003, 实战细节 五), hold
    three, read as assorted playing tiles and none surely (unfamiliar flower art). The
    row of two, whole with the melds, is the hand's, and the three are counted as flowers
    with a warning. Read surely, the three stay playing tiles; and when the row of two is
    unread too, nothing tells which row is the flowers: none are claimed."""
    hand = row(
        ["8s", GAP, "8s", GAP, "6p/", "7p", "8p", GAP, "4s", "4s/", "4s", GAP, "1s/", "2s", "3s"]
        + [GAP, "3p", "4p/", "5p"],
        y=300,
    )
    reads = reads_for(hand + row(["P", "F", "E"], y=450, x0=0))
    if unread != "none":
        for k, codes in zip((14, 15, 16), (["P", "8s"], ["F", "1s"], ["E", "3m"]), strict=True):
            _unsure(reads[k], codes)
    if unread == "both":
        _unsure(reads[0], ["8s", "9s"])
        _unsure(reads[1], ["8s", "6s"])
    layout = read_layout(reads)
    flowers = [g.tiles for g in layout.groups if g.role == "flowers"]
    if unread == "flowers":
        assert flowers == [[14, 15, 16]]
        assert any("Counted a row of 3 tiles as the flowers" in str(w) for w in layout.warnings)
        groups = _groups(reads, layout)
        assert ("concealed", ["8s"], 0, False) in groups
        assert ("winning", ["8s"], 0, False) in groups
        assert ("meld", ["4s", "4s", "4s"], 2, False) in groups
    else:
        assert flowers == []


def test_a_tile_read_surely_beside_a_whole_hand_is_a_stray_not_a_flower() -> None:
    """A tile of a set the classifier knows reads surely: such a group beside the hand is
    discards caught in the photo, left out, and counts no flower."""
    reads = reads_for(_hand_row() + _flower_row(y=245, x0=0))
    for k, codes in zip((14, 15), (["3p", "5m"], ["1s", "4s"]), strict=True):
        _unsure(reads[k], codes)  # tile 16 keeps its sure reading (0.9)
    layout = read_layout(reads)
    assert not [g for g in layout.groups if g.role == "flowers"]
    assert [g.tiles for g in layout.groups if g.role == "extra"] == [[14, 15, 16]]
    assert any("Left out 3" in str(w) for w in layout.warnings)


@pytest.mark.parametrize("rotation", [0, 90])
def test_a_row_of_unread_flowers_beyond_the_melds_reach_is_counted(rotation: int) -> None:
    """Flowers laid in a row of their own one row beyond where melds lie (rules seed 003,
    实战细节 五: to one side of the hand), their row running on past the hand's end: none
    read surely (unfamiliar flower art), the nearest four tile lengths from the hand row
    and the last further still, reached only through the flowers beside it. All seven are
    the hand's flowers, and the hand reads whole."""
    flowers = row(["3p", "1s", "P", "5m", "2s", "7p", "9m"], y=300 + 4 * 40, x0=400)
    reads = reads_for(_hand_row() + flowers, rotation=rotation)
    for k in range(14, 21):
        _unsure(reads[k], ["3p", "1s", "P"])
    layout = read_layout(reads)
    assert [g.tiles for g in layout.groups if g.role == "flowers"] == [list(range(14, 21))]
    assert not [g for g in layout.groups if g.role == "extra"]
    assert decode(reads, layout).hand is not None


def test_an_unread_box_far_from_the_hand_is_no_flower() -> None:
    """Something unsure far from the hand (a shoe, a cup) is not counted as a flower: flowers
    lie beside the hand, no further than its melds may."""
    reads = reads_for(_hand_row() + row(["3p"], y=300 + 5 * 40, x0=-60))
    _unsure(reads[14], ["3p", "7f"])
    layout = read_layout(reads)
    assert not [g for g in layout.groups if g.role == "flowers"]
    assert [g.tiles for g in layout.groups if g.role == "extra"] == [[14]]


@pytest.mark.parametrize("likeliest", [("back", "back"), ("back", "5m"), ("5m", "1s")])
def test_unsure_tiles_all_read_likeliest_face_down_beside_the_hand_are_no_flowers(
    likeliest: tuple[str, str],
) -> None:
    """Flowers are laid face up (rules seed 003, 实战细节 五). Unsure tiles beside a whole
    hand that all read likeliest as backs (a pond's tiles blurred or far off, a wall's end)
    are left out, not counted as flowers. One read likeliest as a face is enough to count
    the group, as unfamiliar flower art too can look most like a back."""
    reads = reads_for(_hand_row() + row(["3p", "1s"], y=300 + 2 * 40, x0=0))
    for k, code in zip((14, 15), likeliest, strict=True):
        _unsure(reads[k], [code, "7f"])
        reads[k].probs[INDEX[code]] += 0.05
    layout = read_layout(reads)
    flowers = [g.tiles for g in layout.groups if g.role == "flowers"]
    left_out = [g.tiles for g in layout.groups if g.role == "extra"]
    faces = likeliest != ("back", "back")
    assert (flowers, left_out) == (([[14, 15]], []) if faces else ([], [[14, 15]]))


@pytest.mark.parametrize("rotation", [0, 180])
def test_flowers_at_the_row_end_one_looking_sideways_are_no_meld(rotation: int) -> None:
    """Two unsure tiles set off at the hand row's end, one boxed wide (a flower seen from low
    down), make no meld beside a row whole without them: they are its flowers, not tiles
    left out as an unreadable meld."""
    tokens = ["3p", "1s/", GAP, "1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s"]
    reads = reads_for(row(tokens + ["E", "E", "E", "N", GAP, "N"], y=300), rotation=rotation)
    for k, codes in zip((0, 1), (["3p", "5m"], ["1s", "4s"]), strict=True):
        _unsure(reads[k], codes)
    layout = read_layout(reads)
    assert [g.tiles for g in layout.groups if g.role == "flowers"] == [[0, 1]]
    assert not [g for g in layout.groups if g.role in ("unknown", "extra", "meld")]
    assert len(next(g for g in layout.groups if g.role == "concealed").tiles) == 13
    assert not any("as melds" in str(w) for w in layout.warnings)


@pytest.mark.parametrize(("y", "flowers"), [(245, True), (300 - 6 * 40, False)])
def test_a_row_beside_the_hand_that_makes_no_meld_is_flowers(y: float, flowers: bool) -> None:
    """Two unsure tiles in a row of their own beside a whole hand, one boxed wide, make no
    meld: flowers. The same row as far away as the other players' tiles is not the
    player's: it is left out, with a warning."""
    reads = reads_for(_hand_row() + row(["3p", "1s/"], y=y))
    for k, codes in zip((14, 15), (["3p", "5m"], ["1s", "4s"]), strict=True):
        _unsure(reads[k], codes)
    layout = read_layout(reads)
    found = [g.tiles for g in layout.groups if g.role == "flowers"]
    assert found == ([[14, 15]] if flowers else [])
    left_out = [g.tiles for g in layout.groups if g.role == "extra"]
    assert left_out == ([] if flowers else [[14, 15]])
    assert any("Left out 2" in str(w) for w in layout.warnings) != flowers


@pytest.mark.parametrize("rotation", [0, 90])
def test_a_tile_side_boxed_in_the_gap_before_the_winning_tile_is_ignored(rotation: int) -> None:
    """Seen from low down, a tile set apart shows its side, the colour of its back, across
    the gap; a box found there, read first as a back, makes the row one tile too many and
    hides the gap. It is ignored with a warning, and the tile set apart is the winning one."""
    import numpy as np

    from scorer.tiles import INDEX

    reads = reads_for(_hand_row() + [("N", (404.0, 282.0, 436.0, 318.0))], rotation=rotation)
    side = np.full(43, 0.55 / 42)
    side[INDEX["back"]] = 0.45
    reads[14].probs = side
    reads[14].detection.score = 0.6
    layout = read_layout(reads)
    assert [g.tiles for g in layout.groups if g.role == "extra"] == [[14]]
    assert [g.tiles for g in layout.groups if g.role == "winning"] == [[13]]
    assert len(next(g for g in layout.groups if g.role == "concealed").tiles) == 13
    assert any("read as a tile's back" in str(w) for w in layout.warnings)
    assert not any(str(w).startswith("No tile is set apart") for w in layout.warnings)


def test_a_faint_back_that_hides_no_gap_is_kept() -> None:
    """A faint back reading in a row one tile over, where the winning tile already lies
    apart: no gap was hidden, so it is no tile's side (it may be a kong's misread back),
    and no box is dropped."""
    import numpy as np

    from scorer.tiles import INDEX

    tokens = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E", "N", "C"]
    reads = reads_for(row(tokens + [GAP, "N"], y=300))
    side = np.full(43, 0.55 / 42)
    side[INDEX["back"]] = 0.45
    reads[12].probs = side
    reads[12].detection.score = 0.6
    layout = read_layout(reads)
    assert not [g for g in layout.groups if g.role == "extra"]
    assert not any("read as a tile's back" in str(w) for w in layout.warnings)


def test_a_white_dragon_read_as_a_back_in_a_whole_row_is_kept() -> None:
    """A back reading in a row whose count is right is a face-up tile the classifier
    mistook (a blank white dragon), never dropped."""
    import numpy as np

    from scorer.tiles import INDEX

    reads = reads_for(_hand_row())
    blank = np.full(43, 0.55 / 42)
    blank[INDEX["back"]] = 0.45
    reads[9].probs = blank
    layout = read_layout(reads)
    assert not [g for g in layout.groups if g.role == "extra"]
    assert 9 in next(g for g in layout.groups if g.role == "concealed").tiles


def test_face_down_tiles_far_from_a_complete_hand_are_not_its_kong() -> None:
    """The wall (face-down tiles) caught in the photo far beyond a full hand row is left out:
    a hand row of 14 tiles has no room for a kong (seed 003: melds lie beside the hand)."""
    hand = row(
        ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E", "N", GAP, "N"], y=300
    )
    wall = row(["back", "back", "back", "back"], y=40, x0=120)
    layout = read_layout(reads_for(hand + wall))
    assert not [g for g in layout.groups if g.role == "concealed_kong"]
    extra = [g for g in layout.groups if g.role == "extra"]
    assert len(extra) == 1 and sorted(extra[0].tiles) == [14, 15, 16, 17]
    concealed = next(g for g in layout.groups if g.role == "concealed")
    assert len(concealed.tiles) == 13


def test_a_far_concealed_kong_the_hand_needs_is_kept() -> None:
    """With 11 tiles in the hand row the kong completes the hand, wherever it lies."""
    hand = row(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "N", GAP, "N"], y=300)
    kong = row(["back", "E", "E", "back"], y=40, x0=120)
    layout = read_layout(reads_for(hand + kong))
    kongs = [g for g in layout.groups if g.role == "concealed_kong"]
    assert len(kongs) == 1 and sorted(kongs[0].tiles) == [11, 12, 13, 14]


def _weak_back(read) -> None:
    """An unfamiliar (red) back: `back` the likeliest single reading at 0.3, the rest spread
    over the playing tiles, so that the playing tiles together weigh more."""
    import numpy as np

    from scorer.tiles import INDEX

    p = np.full(43, 0.7 / 34)
    p[34:] = 0.0
    p[INDEX["back"]] = 0.3
    read.probs = p


@pytest.mark.parametrize("faces", [True, False])
def test_a_concealed_kong_of_unfamiliar_backs_is_still_a_kong(faces: bool) -> None:
    """Rules seed 003, 实战细节 五: a concealed kong lies with face-down ends. Backs read
    weakly (their likeliest single reading a back) still make it: named by its face-up
    middle tiles, or, lying all face down, marked to be named, never read as 4 tiles more."""
    from vision.decode import decode

    middle = ["E", "E"] if faces else ["back", "back"]
    hand = row(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "N", GAP, "N"], y=300)
    kong = row(["back", *middle, "back"], y=300, x0=-170)
    reads = reads_for(kong + hand)
    for k in (0, 1, 2, 3) if not faces else (0, 3):
        _weak_back(reads[k])
    layout = read_layout(reads)
    kongs = [g for g in layout.groups if g.role == "concealed_kong"]
    assert len(kongs) == 1 and sorted(kongs[0].tiles) == [0, 1, 2, 3]
    decoded = decode(reads, layout)
    assert all(decoded.reads[k].chosen == "back" for k in ((0, 3) if faces else (0, 1, 2, 3)))
    if faces:
        assert decoded.notation == "[EEEE]123m456p789sNN"
    else:
        assert decoded.unnamed and decoded.partial == "123m456p789sNN"


def test_two_white_dragons_read_weakly_as_backs_three_apart_make_no_kong() -> None:
    """A blank white dragon may read as a back. Two of them three places apart, with unlike
    tiles between, are no concealed kong (its middle two are one tile): the row stays a
    hand of 14 (seven pairs here)."""
    import numpy as np

    from scorer.tiles import INDEX
    from vision.decode import decode

    tokens = ["6m", "6m", "7m", "7m", "2p", "P", "2p", "7p", "P", "7p", "3s", "4s", "4s", GAP, "3s"]
    reads = reads_for(row(tokens, y=300))
    for k in (5, 8):  # back likeliest (0.45), the white dragon next (0.35)
        p = np.full(43, 0.2 / 41)
        p[INDEX["back"]], p[INDEX["P"]] = 0.45, 0.35
        reads[k].probs = p
    layout = read_layout(reads)
    assert not [g for g in layout.groups if g.role == "concealed_kong"]
    assert len(next(g for g in layout.groups if g.role == "concealed").tiles) == 13
    decoded = decode(reads, layout)
    assert decoded.notation == "6677m2277p344sPP3s"


def test_backs_that_make_no_kong_in_a_run_of_eight_are_not_cut_into_kongs() -> None:
    """Eight touching tiles with face-down ones where no four have backs at both ends are
    no concealed kongs, whatever their count: one group to check, with a warning."""
    hand = row(["1m", "2m", "3m", "4p", "5p", "6p", GAP, "N"], y=300)
    run = row(["back", "E", "E", "S", "back", "W", "W", "N"], y=200)
    layout = read_layout(reads_for(hand + run))
    assert not [g for g in layout.groups if g.role == "concealed_kong"]
    assert [sorted(g.tiles) for g in layout.groups if g.role == "unknown"] == [list(range(7, 15))]
    assert any("8 tiles with face-down ones lie together" in str(w) for w in layout.warnings)


def _faces(reads, tiles, rotation: int = 0, degrees: float = 0.0, flip: bool = False) -> None:
    """Give each read the direction its face's top points in the photo: away from the
    player for an upright tile, towards the player's left for a sideways one (seed 003
    实战细节 五: the claimed tile is laid across); turned like the photo."""
    import math

    for read, (code, box) in zip(reads, tiles, strict=True):
        if code == "back":
            continue
        sideways = (box[2] - box[0]) > (box[3] - box[1])
        dx, dy = (-1.0, 0.0) if sideways else (0.0, -1.0)
        if flip:
            dx, dy = -dx, -dy
        a = math.radians(degrees + rotation)
        read.up = (dx * math.cos(a) - dy * math.sin(a), dx * math.sin(a) + dy * math.cos(a))


def _four_melds_and_a_pair() -> list:
    """`[345s,2][999m,3][111p,1][222p,2]CC`: the hand row is the pair alone, nothing set
    apart, so only the tile faces tell which side the player sits on."""
    melds = row(
        ["3s", "4s/", "5s", GAP, "9m", "9m", "9m/", GAP, "1p/", "1p", "1p", GAP]
        + ["2p", "2p/", "2p"],
        y=100,
    )
    return melds + row(["C", "C"], y=300, x0=150)


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_tile_faces_tell_the_givers(rotation: int) -> None:
    tiles = _four_melds_and_a_pair()
    reads = reads_for(tiles, rotation=rotation)
    _faces(reads, tiles, rotation)
    layout = read_layout(reads)
    assert layout.rotation == rotation
    groups = _groups(reads, layout)
    assert ("meld", ["9m", "9m", "9m"], 3, False) in groups  # sideways on the right: 下家
    assert ("meld", ["1p", "1p", "1p"], 1, False) in groups  # on the left: 上家
    assert not any("which way" in str(w) for w in layout.warnings)


def test_tile_faces_pointing_the_other_way_turn_the_reading() -> None:
    """The same photo with every face turned round: the player sits across the table,
    so left and right, and the givers, swap."""
    tiles = _four_melds_and_a_pair()
    reads = reads_for(tiles)
    _faces(reads, tiles, flip=True)
    layout = read_layout(reads)
    assert layout.rotation == 180
    groups = _groups(reads, layout)
    assert ("meld", ["9m", "9m", "9m"], 1, False) in groups
    assert ("meld", ["1p", "1p", "1p"], 3, False) in groups


def test_faces_alike_either_way_round_have_no_say() -> None:
    """Seen from across the table, the orientation model still reads faces that look the
    same turned round (2p, 1p, 5s, 白) "top up the photo", a prior rather than what it
    sees. Here those seven outvote the three faces that tell (3s, 9m, 9m); the telling
    ones alone decide that the player sits across, so left and right swap."""
    from vision.config import SYMMETRIC_FACES as SYMMETRIC

    tiles = _four_melds_and_a_pair()
    reads = reads_for(tiles)
    _faces(reads, tiles, flip=True)
    alike = [
        r for r, (code, box) in zip(reads, tiles, strict=True)
        if code in SYMMETRIC and box[2] - box[0] < box[3] - box[1]
    ]  # fmt: skip
    assert len(alike) == 7
    for read in alike:
        read.up = (0.0, -1.0)
    layout = read_layout(reads)
    assert layout.rotation == 180
    groups = _groups(reads, layout)
    assert ("meld", ["9m", "9m", "9m"], 1, False) in groups
    assert ("meld", ["1p", "1p", "1p"], 3, False) in groups


def test_sideways_tile_told_by_its_face_on_the_diagonal() -> None:
    """A hand photographed at 45°: every box is about square, and the claimed tile of a
    meld lies on the row's centre line, so only its face, pointing along the row, shows
    it lies across."""
    tiles = row(["5m/", "6m", "7m", GAP, "2p", "2p/", "2p"], y=100) + row(
        ["3s", "4s", "5s", "6p", "7p", "9s", "9s", GAP, "8p"], y=300
    )
    reads = reads_for(tiles, degrees=45)
    _faces(reads, tiles, degrees=45)
    groups = _groups(reads, read_layout(reads))
    assert ("meld", ["5m", "6m", "7m"], 1, False) in groups
    assert ("meld", ["2p", "2p", "2p"], 2, False) in groups
    assert ("winning", ["8p"], 0, False) in groups


def test_a_wrong_sideways_mark_in_touching_melds_is_taken_back() -> None:
    """Touching melds `[345s,2][999m,3]` where one 9m, seen at an angle, was marked
    sideways too: no cut gives melds with every mark, so the mark that leaves melds
    (seed 003 实战细节 五: one claimed tile per meld) is taken back."""
    from vision.layout.melds import Slot, _split_forgiving

    codes = ["3s", "4s", "5s", "9m", "9m", "9m"]
    marks = [False, True, False, True, False, True]
    tiles = row([c + ("/" if m else "") for c, m in zip(codes, marks, strict=True)], y=100)
    reads = reads_for(tiles)
    slots = []
    for i, ((_, box), side) in enumerate(zip(tiles, marks, strict=True)):
        reads[i].detection.sideways = side
        slots.append(Slot([i], box[0], box[2], side, 30.0))
    parts, marked = _split_forgiving(slots, reads)
    assert parts is not None
    assert [
        ([reads[i].chosen or _top(reads[i]) for s in seg for i in s.tiles], giver)
        for seg, giver, _ in parts
    ] == [(["3s", "4s", "5s"], 2), (["9m", "9m", "9m"], 3)]
    assert [r.detection.sideways for r in marked] == [False, True, False, False, False, True]
    assert [r.detection.sideways for r in reads] == marks  # the reads given are left as they are


def _wide_box_in_a_concealed_row() -> list:
    """A concealed hand `123m456p789s234sE` + `E` set apart, where the detector's box of
    the 3m came out wider than the tile (as boxes on a tilted row do): by its shape
    alone it lies across the row, and 1m 2m 3m would read as a claimed chow."""
    tiles = row(
        ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2s", "3s", "4s", "E"] + [GAP, "E"],
        y=100,
    )
    code, (x1, y1, x2, y2) = tiles[2]
    tiles[2] = (code, (x1 - 0.25 * (x2 - x1), y1 + 0.2 * (y2 - y1), x2 + 0.25 * (x2 - x1), y2))
    return tiles


def test_a_face_pointing_across_the_row_keeps_a_wide_box_upright() -> None:
    """Every face of a concealed row points its top away from the player (seed 003
    实战细节 五: only a claimed tile is laid across), so a face read surely that way
    outweighs a box that looks wide."""
    tiles = _wide_box_in_a_concealed_row()
    reads = reads_for(tiles)
    for read in reads:
        read.up = (0.0, -1.0)
    layout = read_layout(reads)
    groups = _groups(reads, layout)
    assert not any(role == "meld" for role, *_ in groups)
    assert ("winning", ["E"], 0, False) in groups


def test_without_faces_the_wide_box_reads_as_claimed() -> None:
    """The same row with no face directions: the box shape is all there is, and the
    layout takes the wide box for a claimed tile (so the face cue above is what helps)."""
    tiles = _wide_box_in_a_concealed_row()
    reads = reads_for(tiles)
    groups = _groups(reads, read_layout(reads))
    assert ("meld", ["1m", "2m", "3m"], 3, False) in groups


def test_a_flower_reading_inside_the_hand_row_is_a_playing_tile() -> None:
    """Flowers lie to one side (seed 003, 实战细节 五), never between touching tiles of the
    concealed row: a tile there read as a flower (an unfamiliar set's bamboo 1, a bird, taken
    for a flower) stays in the hand as its most probable playing tile. A flower lying apart
    at the row's end is still a flower."""
    from vision.decode import decode

    tiles = _hand_row() + row(["3f"], y=300, x0=600)
    reads = reads_for(tiles, seconds={1: ("4f", "2m")})
    layout = read_layout(reads)
    flowers = [g.tiles for g in layout.groups if g.role == "flowers"]
    assert flowers == [[len(tiles) - 1]]
    concealed = next(g for g in layout.groups if g.role == "concealed")
    assert 1 in concealed.tiles and len(concealed.tiles) == 13
    assert decode(reads, layout).notation == "123m456p789sEEENN"


def test_a_back_reading_in_no_kong_that_could_be_face_up_is_a_playing_tile() -> None:
    """A concealed kong shows backs at its ends (seed 003, 实战细节 五). A tile in the
    concealed row read as a back (a blank white dragon of an unfamiliar set) that makes no
    such kong, and whose face-up readings hold a fair share of its probability, counts as
    its most probable face-up tile. A back as sure as real backs are stays a back, and the
    row is reported as unreadable, not guessed."""
    import numpy as np

    from scorer.tiles import INDEX
    from vision.decode import decode

    hand = row(
        ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "P", "P", "P", "N", GAP, "N"], y=300
    )
    for p_face, readable in ((0.35, True), (0.08, False)):
        reads = reads_for(hand)
        p = np.full(43, 0.0)
        p[INDEX["back"]] = 1 - p_face
        p[INDEX["P"]] = p_face
        reads[10].probs = p
        layout = read_layout(reads)
        assert any(g.role == "concealed" and 10 in g.tiles for g in layout.groups) == readable
        assert (decode(reads, layout).notation == "123m456p789sNPPPN") == readable


def test_a_hand_row_short_of_tiles_takes_back_a_doubtful_flower_reading() -> None:
    """A hand holds 14 tiles besides its melds: a row one short, whose end tile is read as a
    flower with a fair share of its probability on a playing tile, takes that tile back
    into the hand. A tile read surely as a flower stays a flower: the row then stays short."""
    import numpy as np

    from scorer.tiles import INDEX
    from vision.decode import decode

    for p_face, taken in ((0.35, True), (0.05, False)):
        reads = reads_for(_hand_row())
        p = np.full(43, 0.0)
        p[INDEX["4f"]] = 1 - p_face
        p[INDEX["1m"]] = p_face
        reads[0].probs = p
        layout = read_layout(reads)
        assert any(g.role == "flowers" for g in layout.groups) != taken
        assert (decode(reads, layout).notation == "123m456p789sEEENN") == taken


def test_upright_tiles_apart_from_a_whole_hand_row_are_a_meld() -> None:
    """What lies before the hand row is exposed (seed 003, 实战细节 五): three upright
    tiles there making a chow, with a whole hand row without them, are a meld whose
    claimed tile did not look sideways. The tile whose face points along the row is taken
    for the claimed one (the right tile: `[567s,3]`), with a warning to check the giver.
    Three tiles that make no meld are left to the old reading (counted as concealed)."""
    from vision.decode import decode

    hand = row(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", GAP, "E"], y=300)
    reads = reads_for(hand + row(["5s", "6s", "7s"], y=200))
    for k in range(len(reads)):
        reads[k].up = (1.0, 0.0) if k == len(reads) - 1 else (0.0, -1.0)
    layout = read_layout(reads)
    assert decode(reads, layout).notation == "[567s,3]123m456p789sEE"
    assert any("check who gave them" in str(w) for w in layout.warnings)

    reads = reads_for(hand + row(["5s", "6s", "8s"], y=200))
    layout = read_layout(reads)
    assert not any(g.role == "meld" for g in layout.groups)
    assert any(str(w).startswith("Counted 3 upright tile(s)") for w in layout.warnings)


def test_two_tiles_read_as_the_same_flower_in_a_short_hand_row_are_taken_back() -> None:
    """Each flower exists once: two tiles of a hand row one pair short read as the same
    flower, however surely, are misread playing tiles (an unfamiliar set's pair of bamboo
    1 birds) and go back into the hand. One such tile alone stays a flower."""
    import numpy as np

    from scorer.tiles import INDEX
    from vision.decode import decode

    for doubled in (True, False):
        reads = reads_for(_hand_row())
        for k in (12, 13) if doubled else (13,):
            p = np.full(43, 0.0)
            p[INDEX["4f"]], p[INDEX["N"]] = 0.9, 0.1
            reads[k].probs = p
        layout = read_layout(reads)
        assert any(g.role == "flowers" for g in layout.groups) != doubled
        assert (decode(reads, layout).notation == "123m456p789sEEENN") == doubled


@pytest.mark.parametrize(
    "tokens, notation",
    [(["3s", "4s/", "5s"], "[345s,2]123m456p789sNN"), (["2m", "E/", "9p"], None)],
    ids=["chow", "mixed kinds"],
)
def test_a_pair_is_believed_only_where_the_meld_reads_as_one_kind(
    tokens: list[str], notation: str | None
) -> None:
    """Only a pung is promoted (seed 003: 加杠 adds the fourth tile to an exposed pung): a
    tile read as carrying another stays one tile in a chow, or among tiles of different
    kinds (a heap's tile lying on others, read as a meld)."""
    reads = reads_for(_meld_and_hand(tokens))
    reads[1].stacked = 0.95
    layout = read_layout(reads)
    meld = next(g for g in layout.groups if g.role == "meld")
    assert (meld.tiles, meld.promoted) == ([0, 1, 2], False)
    if notation:
        assert decode(reads, layout).notation == notation


@pytest.mark.parametrize(
    "sure, again, flowers_left", [(0.3, False, 3), (0.3, True, 0), (0.9, True, 3)]
)
def test_tiles_read_unsurely_as_flowers_in_a_meld_row_are_playing_tiles_when_read_again(
    sure: float, again: bool, flowers_left: int
) -> None:
    """Flowers lie to one side of the hand (seed 003, 实战细节 五), not in a meld row. Three
    tiles read as flowers, each barely (an unfamiliar set's bamboo 1, a bird), touching a
    claimed meld are flowers at the first reading (they lie at the run's end); the reading
    tried again with `Reading.melds_hold_no_flower` takes them for their likeliest playing
    tiles. Tiles read surely as flowers stay flowers in either reading."""
    from dataclasses import replace

    from scorer.tiles import INDEX
    from vision.config import DEFAULT, Reading
    from vision.layout.flowers import flowers_aside
    from vision.rows import frame_for

    reads = reads_for(row(["1s", "1s", "1s", "2m", "2m/", "2m"], y=100))
    for k in (0, 1, 2):
        p = np.full(len(INDEX), 0.0)
        p[INDEX["8f"]], p[INDEX["F"]], p[INDEX["1s"]] = sure, 0.1, 0.12
        p[p == 0] = (1 - p.sum()) / np.count_nonzero(p == 0)
        reads[k].probs = p
    reads[4].detection = replace(reads[4].detection, sideways=True)  # as the layout marks it
    frame = frame_for(np.array([r.detection.box for r in reads]), 0.0)
    top = [int(r.probs.argmax()) for r in reads]
    config = replace(DEFAULT.layout, reading=Reading(melds_hold_no_flower=again))
    flowers, kinds = flowers_aside(reads, frame, [list(range(6))], top, config)
    assert len(flowers) == flowers_left
    assert [kinds[k] == INDEX["1s"] for k in (0, 1, 2)] == [flowers_left == 0] * 3


@pytest.mark.parametrize(("along", "sideways"), [(0.55, True), (0.3, False)])
def test_a_face_read_half_surely_along_the_row_marks_a_box_a_little_wide(
    along: float, sideways: bool
) -> None:
    """Seen from a low seat, a claimed tile's box may come out only a little wider than its
    neighbours', and unfamiliar art leaves the orienter half sure of its face: a face
    pointing along the row at 0.55 with a box a quarter wider makes the tile sideways
    (`RowsConfig.face_along_sure`), where the box alone does not; a face read along the
    row less surely leaves it upright."""
    from vision.rows import frame_for, mark_sideways

    tiles = row(["2p", "2p", "2p", "3s", "4s", "5s"], y=100)
    code, (x1, y1, x2, y2) = tiles[1]
    extra = 0.25 * (x2 - x1)
    tiles[1] = (code, (x1, y1, x2 + extra, y2))
    tiles[2:] = [(c, (a + extra, b, d + extra, e)) for c, (a, b, d, e) in tiles[2:]]
    reads = reads_for(tiles)
    _faces(reads, tiles)
    reads[1].up = (-along, 0.0)
    frame = frame_for(np.array([r.detection.box for r in reads]), 0.0)
    marked = mark_sideways(reads, frame, [list(range(len(reads)))])
    assert [r.detection.sideways for r in marked] == [False, sideways, False, False, False, False]


@pytest.mark.parametrize(("across", "sideways"), [(0.65, True), (0.75, False)])
def test_a_face_read_across_the_row_keeps_a_clearly_wide_box_upright_only_when_sure(
    across: float, sideways: bool
) -> None:
    """A rendered table's hand (D3 8_000128, its boxes as found): the claimed 3m of
    [123m,3] lies sideways, its box a third wider for its length than its neighbours'
    and shifted off their line, but the orienter reads its face pointing across the row
    at 0.65. Only a face read across more surely than `RowsConfig.face_across_sure`
    (0.7) keeps such a box upright; at 0.6 this meld read as concealed tiles."""
    from scorer.tiles import INDEX
    from vision.rows import frame_for, mark_sideways
    from vision.types import Detection, TileRead

    boxes = [(377, 1057, 458, 1166), (448, 1051, 525, 1154), (553, 1065, 634, 1147),
             (635, 1038, 699, 1135), (695, 1031, 763, 1134), (785, 1021, 849, 1123),
             (844, 1017, 912, 1126)]  # fmt: skip
    codes = ["4s", "4s", "3m", "1m", "2m", "2m", "3m"]
    reads = [
        TileRead(Detection(b, 0.9), np.eye(43)[INDEX[c]], up=(0.0, -0.9))
        for c, b in zip(codes, boxes, strict=True)
    ]
    reads[2].up = (0.0, -across)
    frame = frame_for(np.array(boxes, float), 0.0)
    marked = mark_sideways(reads, frame, [list(range(len(reads)))])
    assert [r.detection.sideways for r in marked] == [False, False, sideways] + [False] * 4


#: a concealed hand seen low and from one side (elevation 35°, the row 21° off the photo's
#: axis): the boxes of a rendered table's hand as the detector found them, the tiles
#: named as they are, each with its face's direction as the orienter read it
SLANTED_ROW = [
    ("2m", (52, 452, 183, 533), (0.43, -0.52)), ("2m", (83, 464, 222, 550), (0.54, -0.39)),
    ("2m", (138, 482, 268, 563), (0.47, -0.3)), ("6m", (192, 497, 322, 579), (0.42, -0.34)),
    ("7m", (250, 514, 365, 600), (0.54, -0.41)), ("8m", (304, 532, 420, 623), (0.42, -0.5)),
    ("8m", (359, 549, 475, 646), (0.37, -0.34)), ("4p", (416, 562, 539, 672), (0.16, 0.07)),
    ("5p", (479, 578, 595, 687), (0.0, 0.01)), ("6p", (541, 596, 664, 719), (0.31, -0.68)),
    ("S", (610, 613, 726, 751), (0.22, -0.58)), ("S", (676, 643, 799, 781), (0.17, -0.55)),
    ("S", (754, 668, 870, 807), (0.22, -0.4)), ("8m", (920, 713, 1023, 860), (0.05, -0.9)),
]  # fmt: skip


def _slanted_reads(extra: list[tuple[str, tuple, tuple]] = ()) -> list:
    from scorer.tiles import INDEX
    from vision.types import Detection, TileRead

    return [
        TileRead(Detection(box, 0.9), np.eye(43)[INDEX[code]], up=up)
        for code, box, up in [*SLANTED_ROW, *extra]
    ]


def test_neighbours_in_a_slanted_row_are_not_one_tile_found_twice() -> None:
    """In a row 21° off the axis, seen low, the first two tiles' boxes share 0.65 of the
    smaller (one tile found twice shares more than `duplicate_cover` 0.55), yet their
    centres lie 0.7 of the row's step apart along it: neighbours. The hand keeps its
    three 2m and reads complete."""
    layout = read_layout(_slanted_reads())
    assert not [g for g in layout.groups if g.role == "extra"]
    decoded = decode(_slanted_reads(), layout)
    assert decoded.notation == "2226788m456pSSS8m"


def test_a_tile_found_twice_in_a_slanted_row_is_still_one() -> None:
    """A second box on the 6m, a tenth of its box's width along: the same tile found twice,
    left out of the hand, which reads as before."""
    from vision.readhand import read_hand

    box = SLANTED_ROW[3][1]
    again = ("6m", (box[0] + 12, box[1] + 3, box[2] + 12, box[3] + 3), (0.42, -0.34))
    _, layout, decoded = read_hand(_slanted_reads([again]))
    assert [g.tiles for g in layout.groups if g.role == "extra"] == [[len(SLANTED_ROW)]]
    assert decoded.notation == "2226788m456pSSS8m"
