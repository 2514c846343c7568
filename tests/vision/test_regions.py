"""The winner's hand among walls, ponds and the other hands (`vision.regions`).

The scenes are whole tables from the renderer (built-in faces, no artwork
needed) read with the scene's own labels: true boxes, every tile named with
certainty and its face direction, so these tests check the grouping and the
choice of the hand alone, not the models.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from datasets import render
from datasets.scene.tablescene import OTHER_GROUPS
from scorer.notation import parse_hand
from scorer.tiles import CODES, INDEX
from tests.vision.table_fixtures import in_view, table, true_read
from vision.config import DEFAULT
from vision.pieces import Piece, boxes_of, pieces_of
from vision.regions import SHOWN, Regions, find_regions
from vision.result import NO_HAND_AMONG, assemble, fourth_tile_seen, result_json
from vision.table import pick_hand
from vision.types import Detection, TileRead


def _reads(meta: dict) -> tuple[list[TileRead], list[dict]]:
    """Each tile in view as the models would read it with no error."""
    seen = in_view(meta)
    return [true_read(box, t) for box, t in seen], [t for _, t in seen]


@pytest.fixture(scope="module")
def tables() -> list[dict]:
    return [table(i) for i in range(6)]


def _read(meta: dict):
    reads, labels = _reads(meta)
    regions = find_regions(reads)
    chosen, (hand_reads, layout, decoded) = pick_hand(reads, regions)
    return reads, labels, regions, chosen, hand_reads, layout, decoded


def test_the_hand_is_picked_and_the_rest_ignored(tables) -> None:
    """The hand nearest the camera is read as laid down; the walls and ponds are not in it."""
    exact = 0
    for meta in tables:
        reads, labels, regions, chosen, *_, decoded = _read(meta)
        exact += decoded.notation == meta["hand"]
        groups = Counter(labels[i]["group"] for i in chosen)
        assert groups["wall"] == groups["discards"] == groups["other_hand"] == 0
        ignored = regions.ignored(chosen)
        shown = {i for p in ignored if p.kind in SHOWN for i in p.tiles}
        ponds = [i for i, t in enumerate(labels) if t["group"] == "discards"]
        assert sum(i in shown for i in ponds) >= 0.9 * len(ponds)  # they count for 和绝张
    assert exact >= 5


@pytest.mark.parametrize("scale", [0.9, 1.1])
def test_boxes_a_tenth_tighter_or_looser_read_the_same_hands(tables, scale) -> None:
    """Detectors and tile sets differ in how closely a box fits its tile: the grouping
    and the layout measure gaps and rows against the tiles' own size, so every box
    scaled about its centre reads the same hands."""
    for meta in tables[:4]:
        reads = []
        for (x1, y1, x2, y2), tile in in_view(meta):
            cx, cy, hw, hh = (x1 + x2) / 2, (y1 + y2) / 2, (x2 - x1) / 2, (y2 - y1) / 2
            box = (cx - hw * scale, cy - hh * scale, cx + hw * scale, cy + hh * scale)
            reads.append(true_read(box, tile))
        _, (_, _, decoded) = pick_hand(reads, find_regions(reads))
        assert decoded.notation == meta["hand"]


def test_ignored_pieces_are_named_by_what_they_show(tables) -> None:
    hits = total = 0
    for meta in tables:
        reads, labels, regions, chosen, *_ = _read(meta)
        for piece in regions.ignored(chosen):
            truth = Counter(labels[i]["group"] for i in piece.tiles).most_common(1)[0][0]
            total += len(piece.tiles)
            hits += len(piece.tiles) * (truth == piece.kind)
    assert hits >= 0.8 * total


def test_the_fourth_tile_is_seen_when_its_three_copies_lie_in_view(tables) -> None:
    """和绝张 (seeds 003, fan 58): the discards and melds in view count towards the tiles
    shown; the flag follows the scene's own count, both ways."""
    seen = []
    for meta in tables:
        reads, labels, regions, chosen, hand_reads, layout, decoded = _read(meta)
        out = result_json(hand_reads, layout, decoded, "", (1600, 1200))
        flag = fourth_tile_seen(out, hand_reads, layout, reads, regions.ignored(chosen))
        if decoded.notation == meta["hand"]:
            assert flag is meta["fourth_tile"]
            seen.append(flag)
    assert True in seen and False in seen  # both answers are checked


def test_a_photo_of_one_hand_is_one_piece() -> None:
    """A posed hand (no more tiles than a hand lays down) is read whole."""
    meta = render.render_scene(np.random.default_rng(4), "builtin", 1280, "hand").meta
    reads, _ = _reads(meta)
    regions = find_regions(reads)
    assert regions.candidates == (tuple(range(len(reads))),)
    assert regions.ignored(regions.candidates[0]) == []


def test_only_discards_give_no_hand(tables) -> None:
    """A photo of the ponds alone makes no hand: the reading says so."""
    meta = tables[0]
    ponds = {**meta, "tiles": [t for t in meta["tiles"] if t["group"] in ("discards", "wall")]}
    reads, _ = _reads(ponds)
    regions = find_regions(reads)
    chosen, reading = pick_hand(reads, regions)
    out = assemble(reads, chosen, reading, regions.ignored(chosen), "", (1600, 1200))
    assert out["hand"] is None
    assert NO_HAND_AMONG.text() in out["warnings"]
    assert NO_HAND_AMONG.to_json() in out["notes"]


def test_pieces_link_tiles_by_gaps_relative_to_their_size() -> None:
    boxes = np.array([[0, 0, 30, 40], [32, 0, 62, 40], [200, 0, 230, 40], [0, 300, 10, 313]], float)
    assert pieces_of(boxes) == [[0, 1], [2], [3]]
    assert pieces_of(boxes, np.array([0, 4, 0, 0])) == [[0], [1], [2], [3]]


def test_a_row_of_more_backs_than_a_hand_stands_is_a_wall() -> None:
    """Seen from above, a wall's lower tiles hide under its upper ones and no stack shows:
    among the tiles not in the hand, a row of more backs than a hand holds standing (13
    and the one drawn) is still a wall; a row of 13 is another player's hand seen from
    behind."""
    boxes = np.array([[42.0 * i, 0, 42.0 * i + 40, 52] for i in range(17)])
    boxes = np.concatenate([boxes, boxes[:13] + [0, 400, 0, 400]])
    down = np.ones(len(boxes), bool)
    pieces = (Piece("other_hand", tuple(range(17))), Piece("other_hand", tuple(range(17, 30))))
    regions = Regions(pieces, (), boxes, down, np.full(len(boxes), 5), DEFAULT.regions)
    named = {p.tiles[0]: p.kind for p in regions.ignored(())}
    assert named == {0: "wall", 17: "other_hand"}


def test_a_walls_lower_strips_beside_it_are_the_wall() -> None:
    """Seen from a seat, a wall's lower tiles show strips of their sides along it, too thin
    to link with its tiles: a row of such strips touching a wall is that wall, while a
    row of strips lying apart and another hand's row stay another player's hand."""
    wall = [[42.0 * i, 100, 42.0 * i + 40, 152] for i in range(17)]
    strips = [[42.0 * i, 154, 42.0 * i + 40, 166] for i in range(12)]
    apart = [[42.0 * i, 600, 42.0 * i + 40, 612] for i in range(12)]
    hand = [[42.0 * i, -200, 42.0 * i + 40, -142] for i in range(13)]
    boxes = np.array(wall + strips + apart + hand)
    down, every = np.ones(len(boxes), bool), (Piece("stray", tuple(range(len(boxes)))),)
    regions = Regions(every, (), boxes, down, np.full(len(boxes), 5), DEFAULT.regions)
    named = {p.tiles[0]: p.kind for p in regions.ignored(())}
    assert named == {0: "wall", 17: "wall", 29: "other_hand", 41: "other_hand"}


def test_a_melds_claimed_tile_split_off_by_its_face_rejoins_the_meld() -> None:
    """Another player's meld touching other tiles is split where its faces turn: its claimed
    tile lies across it, a part of its own, and so may be a tile on its far side. Each
    tile split off alone rejoins what it touches where together they are no more than a
    kong, so the meld is named a meld, not three strays; a tile turned the other way
    beside a pond's row stays apart."""
    from vision.pieces import claimed_rejoined

    links = np.zeros((3, 3), bool)
    links[0, 1] = links[1, 0] = links[1, 2] = links[2, 1] = True  # upright, claimed, upright
    assert claimed_rejoined([[0], [1], [2]], links) == [[0, 1, 2]]
    links = np.zeros((7, 7), bool)
    links[5, 6] = links[6, 5] = True  # a pond's row of six, one tile turned beside its end
    assert claimed_rejoined([[0, 1, 2, 3, 4, 5], [6]], links) == [[0, 1, 2, 3, 4, 5], [6]]


def test_a_row_of_many_tiles_is_no_hand_candidate() -> None:
    """More tiles in one piece than a hand lays down are never read as a hand, and growing
    them stays quick (400 tiles in a row, each its own piece)."""
    import time

    reads = [
        TileRead(
            Detection((30.0 * i, 0.0, 30.0 * i + 24, 32.0), 0.9), np.eye(43)[0], up=(0.0, -1.0)
        )
        for i in range(400)
    ]
    started = time.perf_counter()
    regions = find_regions(reads)
    assert time.perf_counter() - started < 5
    assert regions.candidates == ()


def test_a_pushed_over_hand_at_the_side_is_not_a_pond() -> None:
    """Thirteen face-up tiles in a column, facing the player at the camera's right, are that
    player's hand pushed over, not discards (they do not count for 和绝张)."""
    reads = [
        TileRead(
            Detection((0.0, 30.0 * i, 40.0, 30.0 * i + 28), 0.9), np.eye(43)[i % 9], up=(1.0, 0.0)
        )
        for i in range(13)
    ]
    every = (Piece("stray", tuple(range(13))),)
    regions = Regions(every, (), boxes_of(reads), np.zeros(13, bool), facing_of(reads))
    assert [p.kind for p in regions.ignored(())] == ["other_hand"]


def facing_of(reads):
    from vision.pieces import facing

    return facing(reads, np.zeros(len(reads), bool))


class _Counting:
    """A classifier that glances: backs where the box is wide, else faces; it notes how many
    tiles each reading was asked for."""

    def __init__(self) -> None:
        self.full: list[int] = []
        self.again: list[list[int]] = []

    def _read(self, detections):
        return [
            TileRead(d, np.eye(43)[42 if d.box[2] - d.box[0] > 35 else 0], chosen="")
            for d in detections
        ]

    def glance(self, image, detections):
        return [replace_chosen(r) for r in self._read(detections)]

    def __call__(self, image, detections):
        self.full.append(len(detections))
        return [replace_chosen(r) for r in self._read(detections)]

    def look_again(self, image, reads, which):
        self.again.append(list(which))
        return list(reads)


def replace_chosen(read: TileRead) -> TileRead:
    from dataclasses import replace

    from scorer.tiles import CODES

    return replace(read, chosen=CODES[int(np.argmax(read.probs))])


def test_a_whole_table_is_glanced_at_first() -> None:
    """A photo of more tiles than a hand lays down is glanced at (a back is told at a glance);
    a whole table's (many backs beside one another: its walls) whole reading waits for
    where the hand may lie, a posed photo of several hands, or of a hand on a cloth whose
    spots read as backs lying apart, has its faces read whole, a hand's photo all."""
    from vision.table import read_faces

    walls = [Detection((50.0 * i, 0.0, 50.0 * i + 40, 30.0), 0.9) for i in range(20)]
    faces = [Detection((50.0 * i, 100.0, 50.0 * i + 30, 140.0), 0.9) for i in range(20)]
    image = np.zeros((8, 8, 3), np.uint8)
    reader = _Counting()
    reads = read_faces(reader, image, walls + faces)
    assert reader.full == [] and [r.chosen for r in reads[:20]] == ["back"] * 20
    reader = _Counting()
    reads = read_faces(reader, image, walls[:12] + faces)
    assert reader.full == [20] and [r.chosen for r in reads[:12]] == ["back"] * 12
    reader = _Counting()
    read_faces(reader, image, faces)
    assert reader.full == [20]
    spots = [Detection((200.0 * i, 300.0, 200.0 * i + 40, 330.0), 0.9) for i in range(20)]
    reader = _Counting()  # a cloth's printed spots read as backs, each apart: no walls
    reads = read_faces(reader, image, spots + faces)
    assert reader.full == [20] and [r.chosen for r in reads[:20]] == ["back"] * 20


def test_only_where_the_hand_may_lie_is_looked_at_again(tables) -> None:
    """A whole table's faces are read whole in the hand's candidates, up to the first that
    reads as a hand, and then where the other copies of its winning tile may lie (they
    decide 和绝张); no back, and no tile twice."""
    from vision.table import hand_looked_again

    for meta in tables[:3]:
        reads, labels = _reads(meta)
        reads = [replace_chosen(r) for r in reads]  # as glanced at
        reader = _Counting()
        hand_looked_again(reader, np.zeros((8, 8, 3), np.uint8), reads)
        first = find_regions(reads).candidates[0]
        assert len(reader.again) == 2 and reader.again[0] == sorted(first)
        winning = parse_hand(meta["hand"]).winning_tile
        copies = {i for i, t in enumerate(labels) if i not in first and t["code"] == CODES[winning]}
        assert copies <= set(reader.again[1])
        assert not set(reader.again[1]) & set(first)
        assert all(labels[i]["code"] != "back" for i in reader.again[1])


def _row(n: int, size: float, y: float = 0.0) -> list[Detection]:
    return [
        Detection((1.1 * size * i, y, 1.1 * size * i + size, y + 1.3 * size), 0.9) for i in range(n)
    ]


def _table_of(faces: list[TileRead]) -> list[TileRead]:
    """The faces with a wall of backs far behind: a whole table's count of tiles."""
    return faces + [TileRead(d, np.eye(43)[42], chosen="back") for d in WALL]


@pytest.mark.parametrize(
    ("shape", "first", "table", "taken"),
    [
        ((1600, 1600), _row(30, 60) + _row(6, 10), _row(60, 20), True),  # far tiles small
        ((1600, 1600), _row(14, 8), _row(60, 20), True),  # small tiles only: a table too
        ((1600, 1600), _row(14, 8), _row(20, 30), False),  # the table look finds a hand
        ((3000, 3000), _row(36, 200), _row(60, 20), False),  # many hands posed, parts found
        ((640, 640), _row(40, 12), _row(60, 20), None),  # too small to enlarge: not looked at
        ((3000, 4000), _row(14, 200), _row(60, 20), False),  # a posed hand's parts found
        ((1600, 1600), _row(7, 150), _row(7, 150) + _row(40, 20, 600), True),  # seated view
    ],
)
def test_a_whole_table_is_looked_at_by_the_table_detector(
    monkeypatch, shape, first, table, taken
) -> None:
    """A photo large enough is looked at 1280 px wide by the detector trained on tables too,
    and read as a table when that look finds more tiles than a hand lays down and either
    small tiles are among those found at the usual input or many tiles lie outside them;
    a posed hand, whose parts of faces that look takes for tiles, never is."""
    import vision.detect as detect

    det = detect.Detector()
    assert det.table_session is not None and detect.Detector(table_model=None).table_session is None
    calls = []

    def look(image, threshold=None, size=detect.INFER_SIZE, session=None, nms_iou=None):
        calls.append((size, session is det.table_session, nms_iou))
        return table if session is det.table_session else first

    monkeypatch.setattr(det, "_look", look)
    found = det._find(np.zeros((*shape, 3), np.uint8))
    asked = [(size, overlap) for size, by_table, overlap in calls if by_table]
    # the table look keeps neighbours a posed look would take for one tile found twice
    assert asked == ([] if taken is None else [(1280, det.config.table_nms_iou)])
    if taken:
        assert found == table
    else:
        assert all(d in first or d not in table for d in found)


def test_a_hand_row_is_one_piece_whichever_way_its_dots_read(tables) -> None:
    """Faces that look alike turned half-way round (dots) may read upside down; the row stays
    one piece and the hand is still picked."""
    picked = 0
    for meta in tables:
        reads, labels = _reads(meta)
        flipped = [
            TileRead(r.detection, r.probs, up=(-r.up[0], -r.up[1]))
            if t["group"] not in OTHER_GROUPS and t["code"].endswith("p") and r.up is not None
            else r
            for r, t in zip(reads, labels, strict=True)
        ]
        chosen, (_, _, decoded) = pick_hand(flipped, find_regions(flipped))
        picked += decoded.notation == meta["hand"]
    assert picked >= 5


def test_the_players_own_pond_in_front_of_the_hand_stays_out() -> None:
    """The camera player's discards lie upright just in front of the hand, as its tiles do:
    the hand's row takes them only along it, so rows of them in front stay out, and
    nothing that lies further off joins through them."""
    rows = [_row(14, 40, 400)] + [_row(6, 40, 318 - 55 * k) for k in range(3)]
    reads = [
        TileRead(d, np.eye(43)[(i * 5) % 27], up=(0.0, -1.0))
        for i, d in enumerate(d for row in rows for d in row)
    ]
    regions = find_regions(reads)
    assert regions.candidates[0] == tuple(range(14))


def _turned(boxes: list[tuple[float, float, float, float]], degrees: float) -> np.ndarray:
    """Boxes of tiles whose centres are turned about the origin (the tiles' boxes kept)."""
    t = np.radians(degrees)
    out = []
    for x1, y1, x2, y2 in boxes:
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        nx, ny = cx * np.cos(t) - cy * np.sin(t), cx * np.sin(t) + cy * np.cos(t)
        out.append((nx - (x2 - x1) / 2, ny - (y2 - y1) / 2, nx + (x2 - x1) / 2, ny + (y2 - y1) / 2))
    return np.array(out)


@pytest.mark.parametrize("degrees", [0.0, 8.0, -12.0, 90.0])
def test_a_pond_is_told_from_a_hand_pushed_over_however_the_photo_is_turned(degrees) -> None:
    """A pond of six and four (rows overlapping as lying tiles show their sides) is a pond, a
    row of thirteen a hand pushed over, whichever way the camera was rolled."""
    from vision.config import RegionsConfig
    from vision.pieces import face_up_kind

    pond = [(50.0 * x, 61.0 * y, 50.0 * x + 49, 61.0 * y + 68) for y in range(2) for x in range(6)]
    pond = pond[:10]
    row = [(50.0 * x, 0.0, 50.0 * x + 49, 68.0) for x in range(13)]
    cfg = RegionsConfig()
    assert face_up_kind(list(range(10)), _turned(pond, degrees), cfg) == "discards"
    assert face_up_kind(list(range(13)), _turned(row, degrees), cfg) == "other_hand"


@pytest.mark.parametrize("degrees", [0.0, 10.0, -90.0])
def test_a_pond_seen_from_a_seat_is_a_pond_and_a_ragged_hand_row_a_hand(degrees) -> None:
    """A pond's row of six and the first tile of its next row, as the detector found them
    on a rendered table seen from a seat (the rows slant a little in the photo): still a
    pond, whose tiles count for 和绝张, not a row of seven read as a hand pushed over. A
    hand pushed over, its tiles a little out of line, is still one row."""
    from vision.config import RegionsConfig
    from vision.pieces import face_up_kind

    pond = [(0, 0, 30, 38), (26, 2, 54, 37), (50, 2, 79, 38), (74, 4, 102, 42),
            (102, 6, 128, 34), (127, 7, 153, 39), (127, 30, 153, 65)]  # fmt: skip
    jitter = [0.0, 3.0, -2.0, 4.0, -3.0, 1.0, -4.0, 2.0, 0.0, 3.0, -1.0, -3.0, 2.0]
    row = [(50.0 * x, dy, 50.0 * x + 49, dy + 40) for x, dy in enumerate(jitter)]
    cfg = RegionsConfig()
    assert face_up_kind(list(range(7)), _turned(pond, degrees), cfg) == "discards"
    assert face_up_kind(list(range(13)), _turned(row, degrees), cfg) == "other_hand"


def test_ponds_touching_at_the_centre_are_each_a_pond() -> None:
    """Two ponds that touch, each facing its own player, are two ponds (their tiles count for
    和绝张), not one long row read as a hand pushed over."""
    mine = [
        (60.0 + 42 * x, 300.0 + 56 * y, 100.0 + 42 * x, 354.0 + 56 * y)
        for y in range(2)
        for x in range(6)
    ]
    right = [
        (314.0 + 56 * y, 40.0 + 42 * x, 368.0 + 56 * y, 80.0 + 42 * x)
        for y in range(2)
        for x in range(6)
    ]
    reads = [
        TileRead(Detection(b, 0.9), np.eye(43)[k % 27], up=(0.0, -1.0)) for k, b in enumerate(mine)
    ]
    reads += [
        TileRead(Detection(b, 0.9), np.eye(43)[k % 27], up=(-1.0, 0.0)) for k, b in enumerate(right)
    ]
    every = (Piece("stray", tuple(range(24))),)
    regions = Regions(every, (), boxes_of(reads), np.zeros(24, bool), facing_of(reads))
    assert sorted(p.kind for p in regions.ignored(())) == ["discards", "discards"]


def test_among_a_tables_tiles_only_the_faces_are_oriented() -> None:
    """A back points nowhere: among a whole table's tiles only the faces are given to the
    orienter; every tile of a hand's photo still is."""
    from vision.pipeline import look_closer

    asked = []

    def orienter(image, detections):
        asked.append(len(detections))
        return np.tile([0.0, -1.0], (len(detections), 1))

    backs = [TileRead(d, np.eye(43)[42], chosen="back") for d in _row(12, 30)]
    faces = [TileRead(d, np.eye(43)[0], chosen="1m") for d in _row(18, 30, 100)]
    reads = look_closer(np.zeros((8, 8, 3), np.uint8), backs + faces, orienter)
    assert asked == [18] and all(r.up is None for r in reads[:12])
    assert all(r.up == (0.0, -1.0) for r in reads[12:])
    look_closer(np.zeros((8, 8, 3), np.uint8), backs[:4] + faces[:10], orienter)
    assert asked == [18, 14]


def test_the_hand_picked_is_read_once_on_a_whole_table(tables, monkeypatch) -> None:
    """The candidates read while the table is looked at again are not read again when the
    hand is picked (`HandReadings`), unless a tile of them was read anew; the pick is the
    same as reading afresh."""
    import vision.readhand as readhand

    reads, _ = _reads(tables[0])
    regions = find_regions(reads)
    fresh = pick_hand(reads, regions)
    calls = []
    real = readhand.read_hand
    monkeypatch.setattr(readhand, "read_hand", lambda r, c: calls.append(r) or real(r, c))
    readings = readhand.HandReadings()
    first = [reads[i] for i in regions.candidates[0]]
    readings(first)
    chosen, reading = pick_hand(reads, regions, readings=readings)
    assert len(calls) == 1 and chosen == fresh[0] == regions.candidates[0]
    assert reading[2].hand == fresh[1][2].hand
    readings([TileRead(first[0].detection, first[0].probs, up=first[0].up)] + first[1:])
    assert len(calls) == 2  # a tile read anew: the group is read again


def test_a_hand_seen_from_the_seat_is_one_candidate_whole() -> None:
    """Photographed from the player's seat (25-45 degrees up, the camera turned a little) the
    hand's row climbs across the photo, its melds and flowers may lie in front of it, the
    wall lies just behind and the neighbours' melds past its ends: a candidate still holds
    exactly the hand's tiles, none of the others', in most such scenes (16 rendered; the
    grouping by the photo's axes held 5)."""
    held = 0
    for i in range(16):
        rng = np.random.default_rng([11, i])
        cam = {"elevation": float(rng.uniform(25, 45)), "azimuth": float(rng.uniform(-8, 8)),
               "roll": float(rng.uniform(-5, 5)), "tile_px": 36.0, "fov": 55.0}  # fmt: skip
        scene = render.render_scene(np.random.default_rng([12, i]), "builtin", 1600, "table",
                                    camera=cam)  # fmt: skip
        reads, labels = _reads(scene.meta)
        others = {"wall", "discards", "other_hand", "other_meld"}
        mine = {k for k, t in enumerate(labels) if t["group"] not in others}
        held += any(set(c) == mine for c in find_regions(reads).candidates)
    assert held >= 10


def test_a_short_row_with_its_pond_just_behind_is_still_a_candidate() -> None:
    """A hand of melds laid apart leaves a short concealed row; the player's pond just
    behind it, upright too and longer, may be taken for the row the short one lies in
    front of, but the short row grown alone stays a candidate, so the hand can be read."""
    hand, pond = _row(5, 40, 700), _row(6, 40, 700 - 75) + _row(6, 40, 700 - 130)
    backs = [Detection((900 + 44 * i, 100, 940 + 44 * i, 152), 0.9) for i in range(30)]
    faces = [
        TileRead(d, np.eye(43)[(i * 5) % 27], up=(0.0, -1.0)) for i, d in enumerate(hand + pond)
    ]
    reads = faces + [TileRead(d, np.eye(43)[42], chosen="back") for d in backs]
    assert tuple(range(5)) in find_regions(reads).candidates


def test_a_concealed_kong_just_past_the_rows_end_is_in_the_hand() -> None:
    """A concealed kong lying face down at the row's end, past the winning tile set apart
    (seed 003's layout), joins the hand though its backs touch the wall just behind and
    look a little wider than the faces: the first back need only begin within a tile and
    a half of the row's end, the next ones then chain along it (a rendered table's boxes)."""
    row = [Detection((142 + 33.0 * i, 1127 - i, 176 + 33.0 * i, 1178 - i), 0.9) for i in range(10)]
    winning = [Detection((494, 1114, 529, 1165), 0.9)]
    kong = [Detection((545 + 32.5 * i, 1112 - i, 582 + 32.5 * i, 1163 - i), 0.9) for i in range(4)]
    wall = [Detection((354 + 32.2 * i, 1064 - i, 389 + 32.2 * i, 1114 - i), 0.9) for i in range(22)]
    faces = [
        TileRead(d, np.eye(43)[(i * 5) % 27], up=(0.0, -1.0)) for i, d in enumerate(row + winning)
    ]
    backs = [TileRead(d, np.eye(43)[42], chosen="back") for d in kong + wall]
    regions = find_regions(faces + backs)
    assert regions.candidates[0] == tuple(range(15))


def test_a_concealed_kong_in_front_of_the_wall_is_no_wall_tile() -> None:
    """Seen from a seat, the wall stands just behind the hand's row, two high: under each
    upper tile shows the strip of the lower one's side. A concealed kong lying face down
    at the row's end touches those strips from in front; it lies flat in the hand's row,
    not on the wall, and joins the hand (a rendered table's boxes)."""
    row = [(259, 1040, 300, 1096), (297, 1037, 336, 1093), (335, 1034, 373, 1089),
           (372, 1030, 410, 1086), (409, 1027, 447, 1082), (445, 1024, 484, 1079),
           (481, 1021, 521, 1075), (517, 1017, 559, 1072), (552, 1014, 595, 1068),
           (587, 1011, 632, 1065), (637, 1007, 684, 1060)]  # fmt: skip
    kong = [(710, 1000, 760, 1053), (744, 997, 796, 1050), (779, 994, 832, 1047),
            (813, 991, 868, 1043)]  # fmt: skip
    uppers = [(168 + 34.2 * i, 980 - 3 * i, 212 + 34.2 * i, 1032 - 3 * i) for i in range(17)]
    strips = [(174 + 34.2 * i, 1028 - 3 * i, 212 + 34.2 * i, 1048 - 3 * i) for i in range(17)]
    faces = [
        TileRead(Detection(b, 0.9), np.eye(43)[(i * 5) % 27], up=(0.0, -1.0))
        for i, b in enumerate(row)
    ]
    backs = [
        TileRead(Detection(b, 0.9), np.eye(43)[42], chosen="back") for b in kong + uppers + strips
    ]
    first = find_regions(faces + backs).candidates[0]
    assert first == tuple(range(15))


def test_flowers_beyond_a_kong_at_the_rows_end_join_the_hand() -> None:
    """Seed 003's layout seen from a seat: the flowers at the far left, then a concealed
    kong lying face down (its backs touch the wall behind), the melds, the concealed row
    and the winning tile. The kong joins the hand as a kong in its row does
    (`_row_backs`), and what lies beyond it, the flowers, joins past it in turn (a
    rendered table's boxes)."""
    from scorer.tiles import INDEX

    flowers = [("5f", (27, 1003, 74, 1056)), ("8f", (62, 1005, 113, 1057))]
    melds = [("7p", (291, 1015, 333, 1068)), ("7p", (326, 1028, 376, 1070)),
             ("7p", (373, 1019, 411, 1072)), ("4s", (416, 1021, 452, 1074)),
             ("4s", (451, 1023, 486, 1076)), ("4s", (486, 1035, 532, 1078))]  # fmt: skip
    row = [("2p", (571, 1028, 609, 1082)), ("5s", (605, 1030, 644, 1083)),
           ("5s", (639, 1032, 680, 1085)), ("5s", (673, 1033, 716, 1087)),
           ("2p", (718, 1036, 763, 1089))]  # fmt: skip
    kong = [(130 + 35 * i, 1008 + 2 * i, 178 + 35 * i, 1060 + 2 * i) for i in range(4)]
    wall = [(142 + 33.3 * i, 960 + 1.5 * i, 189 + 33.3 * i, 1011 + 1.5 * i) for i in range(18)]
    faces = [
        TileRead(Detection(b, 0.9), np.eye(43)[INDEX[code]], up=(0.0, -1.0))
        for code, b in flowers + melds + row
    ]
    backs = [TileRead(Detection(b, 0.9), np.eye(43)[42], chosen="back") for b in kong + wall]
    first = find_regions(faces + backs).candidates[0]
    assert first == tuple(range(17))


def test_the_wall_in_front_of_a_slanted_hand_is_not_its_kong() -> None:
    """A rendered table seen at 14 degrees (D3 8_000106, its boxes): the hand's row
    climbs across the photo, its concealed kong lies in front with two faces up, and
    the wall in front of the hand reaches beyond the row's end at the height of its
    far tiles. Measured across the row, not up the photo, the wall's backs lie a
    tile deep behind it: the hand is read whole, the wall left out (`_row_backs`)."""
    flower = [("1f", (460, 661, 525, 725))]
    row = [("3m", (527, 691, 587, 751)), ("4m", (563, 703, 620, 759)),
           ("5m", (600, 711, 654, 772)), ("5p", (636, 721, 689, 781)),
           ("6p", (673, 729, 723, 793)), ("6p", (711, 742, 761, 803)),
           ("6p", (751, 753, 801, 813)), ("4s", (792, 766, 840, 826)),
           ("5s", (826, 777, 877, 838)), ("6s", (868, 786, 916, 850)),
           ("7p", (937, 809, 988, 873))]  # fmt: skip
    kong_faces = [("9m", (617, 777, 677, 849)), ("9m", (656, 790, 716, 862))]
    kong_backs = [(579, 767, 643, 839), (694, 801, 748, 873)]
    wall = [(548, 640, 605, 704), (583, 648, 640, 716), (618, 659, 668, 723),
            (656, 667, 706, 735), (689, 675, 743, 747), (727, 688, 778, 756),
            (763, 699, 813, 767), (802, 707, 850, 779), (838, 717, 886, 789),
            (877, 732, 924, 800), (913, 742, 961, 810), (951, 750, 1002, 822),
            (989, 763, 1037, 831), (1028, 771, 1076, 844)]  # fmt: skip
    faces = [
        TileRead(Detection(b, 0.9), np.eye(43)[INDEX[code]], up=(0.25, -0.9))
        for code, b in flower + row + kong_faces
    ]
    backs = [TileRead(Detection(b, 0.9), np.eye(43)[42], chosen="back") for b in kong_backs + wall]
    reads = faces + backs
    first = find_regions(reads).candidates[0]
    assert first == tuple(range(16))
    _, (_, _, decoded) = pick_hand(reads, find_regions(reads))
    assert decoded.notation == "[9999m]345m5666p456s7p"


def test_a_kong_in_front_beside_the_melds_joins_the_hand() -> None:
    """A rendered table seen from a seat (H3 3_000077, its boxes): a concealed kong lying
    face down continues the meld row in front of the concealed one. Its first back lies
    nearer two tiles of the concealed row behind it than the meld row's last tile
    beside it; a row away counts as twice as far, and the kong joins the hand's rows
    (`_row_backs`)."""
    faces = [("5f", (183, 886, 274, 1017)), ("7f", (251, 883, 342, 992)),
             ("8f", (317, 860, 408, 976)), ("4m", (218, 756, 295, 859)),
             ("5m", (277, 746, 358, 849)), ("6m", (347, 748, 439, 834)),
             ("1m", (195, 666, 262, 775)), ("1m", (253, 656, 321, 759)),
             ("1m", (312, 645, 380, 742)), ("9p", (361, 638, 442, 735)),
             ("9p", (417, 624, 498, 721)), ("5s", (470, 621, 556, 712)),
             ("5s", (527, 607, 609, 698)), ("9p", (608, 588, 705, 685))]  # fmt: skip
    kong = [(444, 710, 530, 813), (504, 699, 590, 796), (561, 688, 652, 785),
            (616, 676, 708, 779)]  # fmt: skip
    from vision.reach import _row_backs, _Table

    boxes = np.array([b for _, b in faces] + kong, float)
    down = np.arange(len(boxes)) >= len(faces)
    flowers = np.array([code.endswith("f") for code, _ in faces] + [False] * 4, float)
    table = _Table.of(boxes, flowers, down, DEFAULT.regions)
    along = np.array([0.983, -0.185])  # the concealed row's direction
    members, flat = list(range(len(faces))), np.zeros(len(boxes), bool)
    backs = _row_backs(members, down, table, flat, along=along)
    assert sorted(backs) == list(range(len(faces), len(boxes)))


def test_a_wall_in_line_with_the_hands_row_is_no_kong() -> None:
    """Backs lying on from the row's end, more than four kongs lying face down show, are
    a wall seen end on, not the hand's kongs: none joins (`kong_backs_most`); four join."""
    from vision.reach import _row_backs, _Table

    def backs_joined(n: int) -> list[int]:
        boxes = np.array([(50 * k, 500, 50 * k + 48, 570) for k in range(10 + n)], float)
        down = np.arange(len(boxes)) >= 10
        table = _Table.of(boxes, np.zeros(len(boxes)), down, DEFAULT.regions)
        return _row_backs(list(range(10)), down, table, np.zeros(len(boxes), bool))

    assert sorted(backs_joined(4)) == [10, 11, 12, 13]
    assert backs_joined(DEFAULT.regions.kong_backs_most + 1) == []


@pytest.mark.parametrize("moved", [230, 300])
def test_a_hand_laid_out_in_two_parts_apart_is_read_whole(moved) -> None:
    """A hand whose melds lie some way from its row (a rendered table, its labels as
    readings, its melds moved further along the row: some two and a half and three
    tiles from the winning tile) is read whole: grown from the melds past the winning
    tile set apart, or its two parts read together (`hand_tries`)."""
    scene = render.render_scene(np.random.default_rng([22, 59]), "builtin", 1600, "table")
    reads, labels = _reads(scene.meta)
    mine = {k for k, t in enumerate(labels) if t["group"] not in OTHER_GROUPS}
    further = (moved, 0, moved, 0)
    reads = [
        replace(r, detection=replace(r.detection, box=tuple(np.add(r.detection.box, further))))
        if t["group"].startswith("meld")
        else r
        for r, t in zip(reads, labels, strict=True)
    ]
    chosen, (_, _, decoded) = pick_hand(reads, find_regions(reads))
    assert set(chosen) == mine
    assert parse_hand(decoded.notation) == parse_hand(scene.meta["hand"])


def _faces(detections: list[Detection], codes: list[str], up: list[tuple[float, float]]):
    return [
        TileRead(d, np.eye(43)[INDEX[c]], up=u)
        for d, c, u in zip(detections, codes, up, strict=True)
    ]


WALL = [Detection((900 + 44 * i, 100, 940 + 44 * i, 152), 0.9) for i in range(30)]


def test_a_row_whose_alike_either_way_faces_read_upside_down_is_the_hand() -> None:
    """On unfamiliar art the orienter reads faces that look alike turned half-way round
    (dots, most bamboos) either way: only the faces whose direction tells (characters,
    winds) say which way the row faces, so the row is still the hand's candidate."""
    codes = ["1m", "2m", "3m", "E", "2p", "2p", "2p", "5s", "5s", "5s", "8p", "8p", "8p", "9s"]
    up = [(0.0, -1.0)] * 4 + [(0.0, 1.0)] * 10  # the ten dots and bamboos read upside down
    reads = _faces(_row(14, 40, 400), codes, up)
    reads += [TileRead(d, np.eye(43)[42], chosen="back") for d in WALL]
    assert find_regions(reads).candidates[0] == tuple(range(14))


def test_flowers_of_unfamiliar_art_in_front_of_the_row_join_the_hand() -> None:
    """Eight flowers in a row just in front of the hand, nearer the player, read as suit
    tiles upside down (art never trained on) look like a hand pushed over; nothing but
    the hand's own melds and flowers lies between the player and the row, so they join
    it."""
    row = _faces(_row(14, 40, 400), ["1m"] * 14, [(0.0, -1.0)] * 14)
    flowers = _faces(
        _row(8, 40, 400 + 1.3 * 40 + 30), ["3m", "1p", "5m", "E"] * 2, [(0.0, 1.0)] * 8
    )
    backs = [TileRead(d, np.eye(43)[42], chosen="back") for d in WALL]
    regions = find_regions(row + flowers + backs)
    assert regions.candidates[0] == tuple(range(22))


def test_flowers_laid_beyond_the_melds_row_join_the_hand() -> None:
    """A hand with no melds, its flowers laid where they go beyond the melds' row (a
    rendered overhead view: 2.8 tile sizes of empty table between them and the row):
    nothing else lies in front of the row, so they join it."""
    row = _faces(_row(14, 40, 400), ["1m"] * 14, [(0.0, -1.0)] * 14)
    flowers = _faces(_row(3, 40, 400 + 1.3 * 40 + 2.8 * 40), ["1f", "3f", "7f"], [(0.0, -1.0)] * 3)
    assert find_regions(_table_of(row + flowers)).candidates[0] == tuple(range(17))


def test_only_candidates_lying_near_each_other_are_read_together() -> None:
    """Two parts of one hand lie a few tiles apart; a group past the wall or across the
    table is another player's, so it is never read together with the hand."""
    from vision.table import hand_tries

    def boxes(x0: float) -> list[tuple[float, float, float, float]]:
        return [(x0 + 44.0 * i, 400.0, x0 + 44.0 * i + 40, 452.0) for i in range(5)]

    every = np.array(boxes(0) + boxes(216 + 2 * 40) + boxes(1000))  # 2 and 11 tiles apart
    a, b, c = tuple(range(5)), tuple(range(5, 10)), tuple(range(10, 15))
    regions = Regions((), (a, b, c), every, np.zeros(15, bool))
    assert regions.apart(a, b) == pytest.approx(2.0) and regions.apart(b, c) > 10
    assert hand_tries(regions) == [a, b, c, a + b]


def test_a_complete_hand_is_picked_before_one_that_needs_a_kong_named() -> None:
    """The nearest group reads as a hand only with four backs taken for a concealed kong
    lying face down (a wall's end beside a row reads so); a group further off reads as a
    complete hand. The complete hand is picked: the kong is a guess, which the person
    would be asked to name, and the complete hand needs none."""
    from vision.readhand import read_hand
    from vision.synthetic import GAP, reads_for, row

    with_kong = ["back"] * 4 + [GAP, "1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "N"]
    complete = ["1s", "2s", "3s", "4m", "5m", "6m", "7p", "8p", "9p", "E", "E", "E", "W"]
    reads = reads_for(row(with_kong + [GAP, "N"], y=600) + row(complete + [GAP, "W"], y=300))
    a, b = tuple(range(15)), tuple(range(15, 29))
    regions = Regions((), (a, b), np.array([r.detection.box for r in reads]), np.zeros(29, bool))
    nearest = read_hand([reads[i] for i in a])[2]
    assert nearest.hand is None and nearest.partial is not None
    chosen, (_, _, decoded) = pick_hand(reads, regions)
    assert chosen == b
    assert decoded.hand is not None


def test_of_two_hands_needing_a_kong_named_the_one_leaving_no_tiles_out_is_picked() -> None:
    """Two tries read as all but a kong lying face down: the nearest took in three of a
    pond's tiles, which its layout leaves out with a warning; the other is the hand's tiles
    alone. The reading with fewer warnings is the hand (a rendered overhead table read
    the pond's try before)."""
    from vision.readhand import read_hand
    from vision.synthetic import GAP, reads_for, row

    with_kong = ["back"] * 4 + [GAP, "1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "N"]
    reads = reads_for(row(with_kong + [GAP, "N"], y=600) + row(["3p", "7m", "E"], y=300))
    hand, with_pond = tuple(range(15)), tuple(range(18))
    boxes = np.array([r.detection.box for r in reads])
    regions = Regions((), (with_pond, hand), boxes, np.zeros(18, bool))
    first = read_hand([reads[i] for i in with_pond])
    assert first[2].hand is None and first[2].partial is not None and first[1].warnings
    chosen, (_, _, decoded) = pick_hand(reads, regions)
    assert chosen == hand
    assert decoded.partial == read_hand([reads[i] for i in hand])[2].partial


def test_the_tiles_of_a_complete_hand_past_a_partial_one_are_looked_at_again(
    monkeypatch,
) -> None:
    """On a whole table the hand's tries are read whole in turn: past one that reads only as
    all but a kong lying face down, on to the complete hand `pick_hand` will take, so that
    its tiles are read whole too."""
    import vision.table as whole_table
    from vision.synthetic import GAP, reads_for, row

    with_kong = ["back"] * 4 + [GAP, "1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "N"]
    complete = ["1s", "2s", "3s", "4m", "5m", "6m", "7p", "8p", "9p", "E", "E", "E", "W"]
    hands = row(with_kong + [GAP, "N"], y=600) + row(complete + [GAP, "W"], y=300)
    wall = [("back", (50.0 * i, 0.0, 50.0 * i + 45, 30.0)) for i in range(20)]
    reads = [replace_chosen(r) for r in reads_for(hands + wall)]
    a, b = tuple(range(15)), tuple(range(15, 29))
    boxes = np.array([r.detection.box for r in reads])
    down = np.array([r.chosen == "back" for r in reads])
    monkeypatch.setattr(whole_table, "find_regions", lambda *_: Regions((), (a, b), boxes, down))
    reader = _Counting()
    whole_table.hand_looked_again(reader, np.zeros((8, 8, 3), np.uint8), reads)
    assert reader.again[:2] == [list(a), list(b)]


def test_flowers_of_unfamiliar_art_along_the_row_join_the_hand() -> None:
    """Eight flowers laid in line with the row, a tile and a half before its first tile,
    half of them read as flowers and all upside down (art never trained on): no pond and no
    other hand holds a flower, so they join the row as its flowers, while a pond along
    another row, read as suit tiles, would not."""
    flowers = _faces(
        [Detection((44.0 * i, 400, 44.0 * i + 40, 452), 0.9) for i in range(8)],
        ["1f", "3m", "6f", "1p", "2f", "5m", "8f", "E"],
        [(0.0, 1.0)] * 8,
    )
    row = [
        TileRead(Detection((420 + 44.0 * i, 400, 460 + 44.0 * i, 452), 0.9), np.eye(43)[0],
                 up=(0.0, -1.0))
        for i in range(14)
    ]  # fmt: skip
    backs = [TileRead(d, np.eye(43)[42], chosen="back") for d in WALL]
    assert find_regions(flowers + row + backs).candidates[0] == tuple(range(22))
    suits = _faces([f.detection for f in flowers], ["3m", "1p", "5m", "E"] * 2, [(0.0, 1.0)] * 8)
    assert find_regions(suits + row + backs).candidates[0] == tuple(range(8, 22))


def test_a_hand_with_a_kong_lying_face_down_is_the_hand_to_name() -> None:
    """A concealed kong lying all face down cannot be named from the photo (seed 003: the
    person names it): its candidate is still the hand, its other tiles read as the rest of
    the hand, and the table is not said to hold no hand."""
    import re

    cam = {"elevation": 62.0, "azimuth": 0.0, "roll": 0.0, "tile_px": 40.0, "fov": 55.0}
    for seed in (12, 13, 14):
        meta = render.render_scene(
            np.random.default_rng([7, seed]), "builtin", 1600, "table", camera=cam
        ).meta
        reads, labels = _reads(meta)
        mine = {k for k, t in enumerate(labels) if t["group"] not in OTHER_GROUPS}
        regions = find_regions(reads)
        chosen, reading = pick_hand(reads, regions)
        out = assemble(reads, chosen, reading, regions.ignored(chosen), "", (1600, 1600))
        assert set(chosen) == mine
        assert out["hand"] is None
        assert out["partial_hand"] == re.sub(r"\[[^,\]]+\]", "", meta["hand"])  # kongs out
        assert "no_hand_among" not in [n["id"] for n in out["notes"]]


def test_a_kong_lying_face_down_in_the_meld_row_in_front_is_in_the_hand() -> None:
    """The melds laid in a row in front of the concealed row: a kong all face down beside
    a kong showing its two middle tiles, the winning tile set apart just behind those
    two (a rendered standing view). The first kong's backs touch the second's first back
    and read as one piece of five, as another hand from behind would; they lie in line
    with the melds' row, not with the concealed row's tiles above them, so they are the
    hand's."""
    row = _row(7, 40, 400)  # x 0-304
    winning = [Detection((350, 400, 390, 452), 0.9)]
    kongs = [Detection((110 + 44 * i, 462, 150 + 44 * i, 514), 0.9) for i in range(8)]
    faces = [
        TileRead(d, np.eye(43)[(i * 5) % 27], up=(0.0, -1.0))
        for i, d in enumerate(row + winning + kongs[5:7])
    ]
    backs = [TileRead(d, np.eye(43)[42], chosen="back") for d in kongs[:5] + kongs[7:]]
    first = find_regions(_table_of(faces + backs)).candidates[0]
    assert first == tuple(range(16))


def test_another_hands_backs_just_behind_the_row_stay_out() -> None:
    """Three or four backs together just behind the hand's row, towards the table's middle,
    are another player's hand seen from behind (a rendered seated view: the right-hand
    player's row reaching in); a back or two there may be a concealed kong's ends in a
    meld row laid behind the row (its two middle tiles face up between them), and join."""
    row = _row(14, 40, 400)
    near_end = [Detection((540 + 44 * i, 300, 580 + 44 * i, 352), 0.9) for i in range(4)]
    kong = [Detection((80 + 44 * i, 300, 120 + 44 * i, 352), 0.9) for i in range(4)]
    wall = [Detection((900 + 44 * i, 60, 940 + 44 * i, 112), 0.9) for i in range(30)]
    faces = [
        TileRead(d, np.eye(43)[(i * 5) % 27], up=(0.0, -1.0)) for i, d in enumerate(row + kong[1:3])
    ]
    ends = [kong[0], kong[3]]
    backs = [TileRead(d, np.eye(43)[42], chosen="back") for d in near_end + ends + wall]
    first = set(find_regions(faces + backs).candidates[0])
    assert set(range(14)) <= first
    assert not first & set(range(16, 20))  # the other hand's backs
    assert {14, 15, 20, 21} <= first  # the kong, its backs at its ends


def test_backs_touching_no_tile_stay_out_of_the_hand() -> None:
    """A cloth printed with spots: the detector boxes some, read as backs, scattered round
    the hand's row. A concealed kong's backs lie beside its other tiles; a back touching
    no tile is no part of the hand, and the row stays a candidate of its own tiles."""
    row = _row(14, 40, 400)  # x 0-612, y 400-452
    spots = [(100, 320), (300, 330), (500, 500), (200, 520), (700, 380), (650, 300)]
    spots += [(60 + 110 * i, 150) for i in range(8)] + [(60 + 110 * i, 700) for i in range(8)]
    faces = [TileRead(d, np.eye(43)[(i * 5) % 27], up=(0.0, -1.0)) for i, d in enumerate(row)]
    backs = [
        TileRead(Detection((x, y, x + 40, y + 40), 0.9), np.eye(43)[42], chosen="back")
        for x, y in spots
    ]
    assert find_regions(faces + backs).candidates[0] == tuple(range(14))


def test_a_winning_tile_set_apart_grows_its_own_row_not_the_pond_behind() -> None:
    """The winning tile set apart at the row's end, a little nearer the camera than the
    row (an overhead view), is the nearest seed; it lies along the hand's row, so that row
    is the hand's, not the player's pond two tiles and a half behind it, which the lone
    tile would also lie in front of."""
    row = _row(7, 40, 400)
    winning = [Detection((360, 404, 400, 456), 0.9)]
    pond = _row(8, 40, 252)
    wall = [Detection((900 + 44 * i, 60, 940 + 44 * i, 112), 0.9) for i in range(30)]
    faces = [
        TileRead(d, np.eye(43)[(i * 5) % 27], up=(0.0, -1.0))
        for i, d in enumerate(row + winning + pond)
    ]
    backs = [TileRead(d, np.eye(43)[42], chosen="back") for d in wall]
    assert find_regions(faces + backs).candidates[0] == tuple(range(8))


def _pond_behind_the_row(config=None):
    """A hand row of 9 tiles, its player's pond just behind it (three rows of six and one
    more: 19 tiles, twice the row's count) and a wall far off: the candidates."""
    row = _row(9, 40, 400)
    pond = _row(7, 40, 300) + _row(6, 40, 245) + _row(6, 40, 190)
    wall = [Detection((900 + 44 * i, 60, 940 + 44 * i, 112), 0.9) for i in range(30)]
    faces = [
        TileRead(d, np.eye(43)[(i * 5) % 27], up=(0.0, -1.0)) for i, d in enumerate(row + pond)
    ]
    backs = [TileRead(d, np.eye(43)[42], chosen="back") for d in wall]
    regions = find_regions(faces + backs) if config is None else find_regions(faces + backs, config)
    return regions.candidates


def test_a_pond_of_rows_behind_the_hand_is_not_taken_for_its_row() -> None:
    """The hand's row is the nearest seed. A longer row just behind it may be the hand's
    own row, with the seed a meld in front of it; the player's pond is rows behind rows,
    deeper than one row (`RegionsConfig.row_deep`), and the hand's row is read first. When
    the pond came first and neither read as a hand, the pond was shown as the hand."""
    from vision.config import RegionsConfig

    assert _pond_behind_the_row()[0] == tuple(range(9))
    assert _pond_behind_the_row(RegionsConfig(row_deep=99.0))[0] != tuple(range(9))


#: a seated view's hand row seen at a slant, its melds on to the right: each tile's box
#: (px) and face direction, as the models read a rendered table (its nearest piece is the
#: last meld's two upright tiles) ...
SLANTED_HAND = [
    ((264, 524, 351, 611), (0.33, -0.55)),
    ((318, 535, 408, 619), (-0.01, -0.22)),
    ((384, 535, 469, 629), (0.22, -0.55)),
    ((443, 556, 523, 637), (-0.01, -0.1)),
    ((539, 557, 614, 647), (0.26, -0.8)),
    ((654, 603, 738, 660), (-0.46, -0.03)),
    ((732, 585, 802, 670), (0.1, -0.75)),
    ((792, 591, 862, 683), (0.03, -0.71)),
    ((876, 606, 956, 698), (0.01, -0.82)),
    ((943, 617, 1030, 707), (-0.9, -0.14)),
    ((1018, 619, 1094, 715), (-0.16, -0.74)),
    ((1101, 645, 1203, 730), (-0.8, -0.13)),
    ((1177, 643, 1268, 740), (-0.27, -0.7)),
    ((1241, 650, 1325, 753), (-0.32, -0.57)),
]
#: ... and the player's pond behind the row's middle, up and to the right of its end
SLANTED_POND = [
    ((634, 419, 691, 484), (0.16, -0.73)),
    ((680, 424, 735, 480), (0.15, -0.85)),
    ((725, 429, 779, 487), (0.11, -0.69)),
    ((772, 438, 820, 505), (0.09, -0.86)),
]


def test_a_row_seen_at_a_slant_is_grown_in_its_own_frame() -> None:
    """Grown from a seed of two tiles in the photo's axes, the slanting row climbs past the
    pond behind it (it lies just above and beside the row's end); grown again along the
    longest row taken, the pond lies behind the row and stays out."""
    faces = [
        TileRead(Detection(box, 0.9), np.eye(43)[(i * 5) % 27], up=up)
        for i, (box, up) in enumerate(SLANTED_HAND + SLANTED_POND)
    ]
    wall = [Detection((200 + 44 * i, 60, 240 + 44 * i, 112), 0.9) for i in range(30)]
    backs = [TileRead(d, np.eye(43)[42], chosen="back") for d in wall]
    assert find_regions(faces + backs).candidates[0] == tuple(range(len(SLANTED_HAND)))


def test_a_meld_of_faces_alike_either_way_joins_the_row_along_it() -> None:
    """Faces that look alike turned half-way round (dots, bamboos, `SYMMETRIC_FACES`) read
    up or down at random: a group of only such faces lying on along the hand's row is
    counted upright when its faces point up or down the photo, so it joins along the row
    (before, three of five read upside down made it a pond, which joins only in front)."""
    row = _row(8, 40, 400)
    meld = [
        Detection((8 * 44 + 80 + 44 * i, 400, 8 * 44 + 120 + 44 * i, 452), 0.9) for i in range(5)
    ]
    wall = [Detection((900 + 44 * i, 60, 940 + 44 * i, 112), 0.9) for i in range(30)]
    faces = [TileRead(d, np.eye(43)[i], up=(0.0, -1.0)) for i, d in enumerate(row)]  # 1m-8m
    alike = [INDEX[c] for c in ("5p", "5p", "5p", "8s", "8s")]
    faces += [
        TileRead(d, np.eye(43)[k], up=(0.0, -1.0 if i < 2 else 1.0))
        for i, (d, k) in enumerate(zip(meld, alike, strict=True))
    ]
    backs = [TileRead(d, np.eye(43)[42], chosen="back") for d in wall]
    regions = find_regions(faces + backs)
    assert regions.candidates[0] == tuple(range(13))


def test_another_players_meld_reaching_in_behind_the_row_stays_out() -> None:
    """The left player's meld reaching in just behind the row's end (a rendered seated
    view), two of its tiles read turned to that player and one upright: two pieces of a
    tile or two, each of which could be a tile set apart, but touching each other and
    not the row, they are another's."""
    row = _row(14, 40, 400)
    meld = [Detection((4 + 56 * i, 340, 56 + 56 * i, 380), 0.9) for i in range(3)]
    faces = [TileRead(d, np.eye(43)[(i * 5) % 27], up=(0.0, -1.0)) for i, d in enumerate(row)]
    ups = [(-1.0, 0.0), (-1.0, 0.0), (0.0, -1.0)]
    faces += [TileRead(d, np.eye(43)[8], up=up) for d, up in zip(meld, ups, strict=True)]
    assert find_regions(_table_of(faces)).candidates[0] == tuple(range(14))


def test_a_piece_of_the_pond_split_off_behind_the_row_stays_out() -> None:
    """The player's pond just behind the row, two of its tiles read upright and the rest
    turned a quarter (the orienter unsure on unfamiliar art): the two are a piece of their
    own, but they touch the pond's other tiles, so they stay out with it."""
    row = _row(14, 40, 400)
    pond = [Detection((100 + 44 * i, 320, 140 + 44 * i, 372), 0.9) for i in range(6)]
    faces = [TileRead(d, np.eye(43)[(i * 5) % 27], up=(0.0, -1.0)) for i, d in enumerate(row)]
    ups = [(0.0, -1.0)] * 2 + [(1.0, 0.0)] * 4
    faces += [
        TileRead(d, np.eye(43)[3 + i], up=up)
        for i, (d, up) in enumerate(zip(pond, ups, strict=True))
    ]
    assert find_regions(_table_of(faces)).candidates[0] == tuple(range(14))


def test_flowers_laid_behind_the_row_join_though_split_by_their_faces() -> None:
    """Four flowers laid just behind the row's end, read surely as flowers but turned two
    ways (a flower's face tells no direction): two pieces touching each other and not
    the row, yet all flowers, so they are the hand's; a tile set apart behind the row,
    touching nothing, joins too."""
    row = _row(14, 40, 400)
    flowers = [Detection((4 + 44 * i, 320, 44 + 44 * i, 372), 0.9) for i in range(4)]
    apart = [Detection((500, 320, 540, 372), 0.9)]
    faces = [TileRead(d, np.eye(43)[(i * 5) % 27], up=(0.0, -1.0)) for i, d in enumerate(row)]
    ups = [(0.0, -1.0), (0.0, -1.0), (1.0, 0.0), (1.0, 0.0)]
    faces += [
        TileRead(d, np.eye(43)[INDEX[f"{i + 1}f"]], up=up)
        for i, (d, up) in enumerate(zip(flowers, ups, strict=True))
    ]
    faces += [TileRead(d, np.eye(43)[INDEX["9s"]], up=(0.0, -1.0)) for d in apart]
    assert find_regions(_table_of(faces)).candidates[0] == tuple(range(19))


#: faces whose direction tells where their player sits (none alike turned half-way round)
TELLING = [INDEX[c] for c in ("1m", "2m", "3m", "4m", "5m", "6m", "7m", "E", "S", "W", "N")]


def test_a_hand_read_unsurely_upside_down_by_half_its_faces_is_still_the_hand() -> None:
    """Unfamiliar art: the orienter reads five of the hand's faces surely upright and nine
    barely, upside down. Counted face by face, not more than half point up and the row
    was taken for a pond, so no candidate held the hand (a held-out tile set on a table
    seen from above); weighed by sureness, the faces say the row is the camera's player's."""
    row = _row(14, 40, 400)
    faces = [
        TileRead(
            d, np.eye(43)[TELLING[i % len(TELLING)]], up=(0.0, -0.9) if i % 3 == 0 else (0.0, 0.2)
        )
        for i, d in enumerate(row)
    ]
    assert sum(f.up[1] < 0 for f in faces) == 5
    assert find_regions(_table_of(faces)).candidates[0] == tuple(range(14))


def test_a_pond_read_surely_facing_away_is_no_hand_for_a_few_unsure_faces() -> None:
    """The player across the table's pond: its faces read surely pointing away from the
    camera, two of them barely upright. It is no hand, so the table gives no candidate."""
    pond = _row(12, 40, 400)
    faces = [
        TileRead(d, np.eye(43)[TELLING[i % len(TELLING)]], up=(0.0, -0.2) if i < 2 else (0.0, 0.9))
        for i, d in enumerate(pond)
    ]
    assert find_regions(_table_of(faces)).candidates == ()


#: seen from a seat, a row of 13 tiles, boxes about 100 px wide (a rendered table's)
SEATED_ROW = [(335, 732, 450, 862), (415, 726, 530, 857), (498, 718, 607, 857),
              (584, 713, 681, 851), (664, 713, 761, 851), (751, 713, 832, 851),
              (824, 712, 910, 842), (897, 708, 988, 846), (968, 698, 1065, 836),
              (1041, 693, 1143, 831), (1119, 698, 1215, 836), (1178, 688, 1287, 835),
              (1254, 684, 1370, 831)]  # fmt: skip
#: the winning tile set apart past its end, turned about 35 degrees: a square box whose
#: short side is 1.7 times the row's
AT_AN_ANGLE = (1385, 675, 1550, 840)


#: a tile half the row's size lying there: one further off, in a pond
SMALLER = (1390, 760, 1440, 820)


@pytest.mark.parametrize(("box", "joins"), [(AT_AN_ANGLE, True), (SMALLER, False)])
def test_a_winning_tile_set_apart_at_an_angle_joins_the_hand(box, joins) -> None:
    """The winning tile set apart at an angle has a square box whose short side is far
    longer than a tile's width; its area is about a tile's, so it joins the row as the
    tile it is (H3 3_000081 was read as 13 tiles without it). A tile of half the row's
    size lying there stays out: it is further off, another player's."""
    faces = [
        TileRead(Detection(b, 0.9), np.eye(43)[(i * 5) % 27], up=(0.0, -1.0))
        for i, b in enumerate(SEATED_ROW)
    ]
    last = TileRead(Detection(box, 0.9), np.eye(43)[3], up=(-0.1, 0.03))
    first = find_regions(_table_of([*faces, last])).candidates[0]
    assert (13 in first) is joins
    assert set(range(13)) <= set(first)


#: a rendered table's hand (three flowers, then the concealed row and the winning tile set
#: apart, rows 10° off the axis) as the detector boxed it, with a faint box (0.57) it
#: found across the gap between the last flower and the row: (code, box, score, face)
FAINT_BOX_IN_THE_GAP = [
    ("1f", (96, 1146, 188, 1249), 0.94, (0.19, -0.65)), ("2f", (150, 1163, 253, 1260), 0.93, (0.15, -0.38)),
    ("5f", (213, 1170, 310, 1273), 0.95, (-0.18, 0.75)), ("7p", (285, 1181, 361, 1273), 0.57, (0.04, 0.33)),
    ("7p", (327, 1193, 419, 1290), 0.93, (0.25, -0.82)), ("6s", (391, 1210, 482, 1302), 0.95, (0.02, -0.01)),
    ("5m", (453, 1217, 534, 1314), 0.95, (0.17, -0.78)), ("6s", (518, 1232, 594, 1323), 0.96, (0.02, -0.08)),
    ("6s", (572, 1240, 654, 1337), 0.94, (0.14, -0.58)), ("7p", (636, 1253, 717, 1350), 0.96, (0.2, -0.89)),
    ("7s", (701, 1257, 773, 1366), 0.96, (0.2, -0.96)), ("5m", (760, 1274, 836, 1371), 0.96, (0.15, -0.92)),
    ("8s", (818, 1282, 899, 1384), 0.94, (0.03, -0.27)), ("6s", (883, 1296, 964, 1399), 0.96, (0.03, -0.32)),
    ("7p", (944, 1310, 1030, 1413), 0.96, (0.12, -0.85)), ("5s", (1010, 1318, 1092, 1427), 0.9, (0.03, -0.36)),
    ("5s", (1072, 1332, 1153, 1435), 0.94, (0.01, -0.32)), ("5m", (1196, 1356, 1277, 1459), 0.96, (0.02, -0.82)),
]  # fmt: skip


def _faint_box_reads(score: float = 0.57) -> list[TileRead]:
    """FAINT_BOX_IN_THE_GAP's hand read as labelled, its box across the gap at `score`."""
    return [
        TileRead(Detection(b, score if k == 3 else s), np.eye(43)[INDEX[c]], up=up)
        for k, (c, b, s, up) in enumerate(FAINT_BOX_IN_THE_GAP)
    ]


@pytest.mark.parametrize("score", [0.57, 0.85])
def test_a_faint_box_too_many_in_the_hand_is_left_out(score: float) -> None:
    """With the faint box the hand holds a tile too many and reads as no hand; the try
    without its faintest box reads complete, and the box is left with the other tiles.
    A box the detector found surely (0.85) is no such box: nothing is left out then."""
    reads = _faint_box_reads(score)
    boxes = np.array([r.detection.box for r in reads])
    every = tuple(range(len(reads)))
    regions = Regions((Piece("hand", every),), (every,), boxes, np.zeros(len(reads), bool))
    chosen, (_, layout, decoded) = pick_hand(reads, regions)
    if score < 0.7:
        assert 3 not in chosen and len(chosen) == len(reads) - 1
        assert decoded.notation == "55m777p55666678s5m"
        assert [len(g.tiles) for g in layout.groups if g.role == "flowers"] == [3]
    else:
        assert chosen == every and decoded.hand is None


#: a rendered table's hand seen from above (tiles 30 px): four melds in front, the
#: concealed pair and the winning tile behind them, the eight flowers in line with the
#: pair; the boxes as the table detector found them: (code, box, face, in the first
#: candidate `vision.regions` offered)
FLOWERS_IN_LINE_WITH_THE_PAIR = [
    ("1f", (46, 1075, 86, 1132), (0.02, -0.19), False), ("2f", (78, 1076, 118, 1130), (0.05, -0.49), False),
    ("3f", (111, 1075, 151, 1129), (0.03, -0.48), False), ("4f", (142, 1076, 180, 1129), (0.04, -0.9), False),
    ("5f", (174, 1074, 211, 1131), (-0.05, 0.25), False), ("6f", (207, 1074, 244, 1131), (0.06, -0.82), False),
    ("7f", (237, 1083, 274, 1131), (0.01, 0.68), False), ("8f", (267, 1091, 305, 1130), (-0.01, 0.79), False),
    ("9s", (333, 1088, 368, 1127), (0.0, -0.6), True), ("9s", (405, 1089, 438, 1127), (-0.01, -0.76), True),
    ("2m", (410, 1166, 455, 1211), (0.56, 0.03), True), ("3m", (450, 1155, 488, 1212), (0.02, -0.98), True),
    ("4m", (482, 1154, 520, 1211), (0.01, -0.99), True), ("6m", (524, 1152, 562, 1213), (-0.01, -0.97), True),
    ("6m", (557, 1154, 594, 1211), (-0.01, -0.97), True), ("6m", (588, 1163, 636, 1213), (-0.73, -0.16), True),
    ("6m", (645, 1161, 696, 1212), (-0.59, -0.04), True), ("7m", (686, 1154, 726, 1214), (-0.01, -0.98), True),
    ("8m", (718, 1154, 757, 1211), (-0.01, -0.97), True), ("6s", (754, 1163, 811, 1211), (0.12, 0.04), True),
    ("7s", (802, 1158, 844, 1214), (-0.03, -0.96), True), ("8s", (836, 1158, 876, 1215), (-0.03, -0.56), True),
]  # fmt: skip


@pytest.mark.parametrize("flower", ["1f", "5m"])
def test_flowers_in_line_with_the_hand_are_counted(flower: str) -> None:
    """The first candidate, the melds and the pair, reads complete without the flowers;
    the next holds it and the eight flowers and reads as the same hand: that one is
    the hand, its eight flowers counted. Where a tile of that row reads as a playing
    tile (a pond's), the wider try is no hand's flowers and the first stands."""
    tiles = [
        (flower if k == 0 else c, b, up, first)
        for k, (c, b, up, first) in enumerate(FLOWERS_IN_LINE_WITH_THE_PAIR)
    ]
    reads = [TileRead(Detection(b, 0.9), np.eye(43)[INDEX[c]], up=up) for c, b, up, _ in tiles]
    first = tuple(k for k, t in enumerate(tiles) if t[3])
    every = tuple(range(len(reads)))
    boxes = np.array([r.detection.box for r in reads])
    regions = Regions((Piece("hand", every),), (first, every), boxes, np.zeros(len(reads), bool))
    chosen, (_, layout, decoded) = pick_hand(reads, regions)
    assert decoded.notation == "[234m,1][666m,3][678m,1][678s,1]9s9s"
    flowers = sum(len(g.tiles) for g in layout.groups if g.role == "flowers")
    assert (chosen, flowers) == ((every, 8) if flower == "1f" else (first, 0))


def _faint_and_kongs(kongs: int) -> tuple[list[TileRead], tuple[int, ...], tuple[int, ...]]:
    """FAINT_BOX_IN_THE_GAP's hand (its faint box at 0.57) and, apart from it, a try that
    reads whole only with `kongs` kongs lying face down: their backs in a row, then
    faces that make the rest of a hand."""
    faint = _faint_box_reads()
    codes = ["1m", "1m", "1m", "2p", "3p", "4p", "5s", "6s", "7s", "9p", "9p"][3 * (kongs - 1) :]
    row = _row(4 * kongs + len(codes), 40, 200)
    backs = [TileRead(d, np.eye(43)[42], chosen="back") for d in row[: 4 * kongs]]
    faces = _faces(row[4 * kongs :], codes, [(0.0, -1.0)] * len(codes))
    reads = [*faint, *backs, *faces]
    return reads, tuple(range(len(faint))), tuple(range(len(faint), len(reads)))


@pytest.mark.parametrize("kongs", [1, 2])
def test_a_hand_whole_without_its_faint_box_beats_a_wall_read_as_kongs(kongs: int) -> None:
    """A try that reads complete without its faint box is taken before one that reads whole
    only with two kongs or more lying face down (3_000002-like: a wall's backs beside some
    faces read as three such kongs while the hand held one faint box too many); a try
    with one such kong is a hand as players lay it down, and it is taken first."""
    reads, hand, other = _faint_and_kongs(kongs)
    boxes = np.array([r.detection.box for r in reads])
    down = np.array([r.chosen == "back" for r in reads])
    alone = pick_hand(reads, Regions((Piece("hand", other),), (other,), boxes, down))
    assert alone[1][2].hand is None and len(alone[1][2].unnamed) == kongs
    regions = Regions((Piece("hand", hand), Piece("hand", other)), (hand, other), boxes, down)
    chosen, (_, _, decoded) = pick_hand(reads, regions)
    if kongs >= DEFAULT.pipeline.faint_over_kongs:
        assert 3 not in chosen and set(chosen) < set(hand)
        assert decoded.notation == "55m777p55666678s5m"
    else:
        assert chosen == other and decoded.partial is not None
