"""The winner's hand among everything else on the table.

A photo of a whole table shows far more tiles than any hand holds: the
four walls, the discard ponds, the other players' hands and melds. This
stage groups the tiles into pieces that lie together (each tile linked to
the tiles within a small gap of it, of about its size), names what each
piece is from what it shows (`vision.pieces`), and lists the hand's
candidates: the face-up pieces the camera's player reads upright, nearest
the camera first, with the pieces beside them that a laid-down hand spreads
over (its winning tile set apart, its melds and flowers: `vision.reach`).
The pipeline reads the candidates in that order, then two lying near each
other together (`vision.table.hand_tries`), and keeps the first that makes
a complete hand (but for a kong lying face down, which the person names);
every other tile is `ignored`, with its piece's kind.

Everything here works on boxes, the classifier's readings and the
orienter's face directions: plain values in, a new `Regions` value out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from scorer.tiles import BACK, BACK_INDEX, CODES
from vision.config import RegionsConfig
from vision.layout.kinds import code_of, face_up, flower_sum
from vision.pieces import (
    DEFAULT,
    Piece,
    along_axis,
    boxes_of,
    face_down,
    facing,
    gaps,
    kind_of,
    leaning,
    name_of,
    pieces_of,
    split_by_axis,
    stacked,
    strips_of_walls,
    telling_faces,
    walls_inside,
)
from vision.reach import hand_candidates
from vision.rows import tile_width
from vision.types import TileRead


@dataclass(frozen=True)
class Regions:
    """The pieces of a photo and the hand's candidates, nearest the camera first."""

    pieces: tuple[Piece, ...]
    candidates: tuple[tuple[int, ...], ...]
    boxes: np.ndarray | None = None  # every tile's box, for naming what is not the hand
    down: np.ndarray | None = None  # which tiles lie face down
    facing: np.ndarray | None = None  # which way each tile faces (`facing`)
    config: RegionsConfig = field(default_factory=RegionsConfig)

    def apart(self, a: tuple[int, ...], b: tuple[int, ...]) -> float:
        """How far apart two groups of tiles lie: the gap between their nearest tiles, in
        tile sizes (the median short side of their boxes); 0 where no boxes are known."""
        if self.boxes is None or not a or not b:
            return 0.0
        sides = self.boxes[list(a) + list(b)]
        gx, gy = gaps(sides)  # the two groups' own tiles only, not the whole table's
        gap = float(np.maximum(gx, gy)[: len(a), len(a) :].min())
        return gap / max(tile_width(sides), 1.0)

    def ignored(self, hand: tuple[int, ...]) -> list[Piece]:
        """The tiles not in `hand`, grouped again without regard to which way they face (a
        meld's claimed tile lies across it) and named by what each group shows."""
        taken = set(hand)
        rest = [i for p in self.pieces for i in p.tiles if i not in taken]
        if not rest or self.boxes is None or self.down is None:
            return [Piece("stray", tuple(rest))] if rest else []
        boxes, down = self.boxes[rest], self.down[rest]
        faces = self.facing[rest] if self.facing is not None else np.full(len(rest), 5)
        stacks, out = stacked(boxes, down, self.config), []
        groups = [
            part
            for group in pieces_of(boxes, down.astype(int), self.config)
            for part in split_by_axis(group, boxes, faces, self.config)
        ]
        for group in groups:
            tiles = tuple(sorted(rest[k] for k in group))
            out.append(Piece(name_of(group, boxes, down, self.config, stacks), tiles))
        out = walls_inside(out, groups, boxes, down, self.config)
        return strips_of_walls(list(zip(out, groups, strict=True)), boxes, down, self.config)


def find_regions(reads: list[TileRead], config: RegionsConfig = DEFAULT) -> Regions:
    """The photo's pieces and the hand's candidates (a photo of one hand: one candidate)."""
    if len(reads) <= config.hand_most:
        every = tuple(range(len(reads)))
        return Regions((Piece("hand", every),) if every else (), (every,) if every else ())
    boxes = boxes_of(reads)
    down = face_down(reads, config)
    faces, stacks = facing(reads, down), stacked(boxes, down, config)
    telling, lean = telling_faces(reads, config), leaning(reads)
    pieces = [
        Piece(kind_of(p, boxes, down, config, stacks, telling, lean), tuple(p))
        for p in pieces_of(boxes, along_axis(faces), config)
    ]
    flowers = np.array([flower_sum(r) for r in reads])
    candidates = hand_candidates(pieces, boxes, flowers, (down, stacks), config)
    return Regions(tuple(pieces), candidates, boxes, down, faces, config)


#: groups whose face-up tiles were shown on the table before the win (牌池 and 桌面)
SHOWN = ("discards", "other_meld", "stray")


def shown_as(read: TileRead, kind: str) -> str:
    """The tile a read names in a piece of `kind`: a pond holds only playing tiles lying face
    up (a flower is set aside at once, never discarded), another player's meld playing
    tiles or a concealed kong's backs; elsewhere the read as it is. On unfamiliar art a
    pond's small tiles read as a back or a flower often have their tile next."""
    if kind == "discards":
        return CODES[face_up(read)]
    if kind == "other_meld":
        playing = face_up(read)
        return BACK if read.probs[BACK_INDEX] > read.probs[playing] else CODES[playing]
    return code_of(read)


def shown_copies(code: str, codes: list[str], ignored: list[Piece]) -> int:
    """Copies of `code` shown face up on the table before the win (和绝张): in the ponds, the
    other players' melds and any tile lying apart; a hand pushed over or standing was not
    shown. The hand's own exposed melds are counted by the caller."""
    return sum(1 for p in ignored if p.kind in SHOWN for i in p.tiles if codes[i] == code)
