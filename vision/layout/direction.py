"""Which way the rows read: the tile faces, the tile set apart, the hand row nearest the player."""

from __future__ import annotations

import numpy as np

from scorer.tiles import CODES, FLOWER_FIRST
from vision.config import DEFAULT, LayoutConfig
from vision.layout.hand import hand_row
from vision.layout.kinds import top_class
from vision.layout.slots import Cluster
from vision.types import TileRead


def facing(
    reads: list[TileRead],
    clusters: list[Cluster],
    angle: float,
    config: LayoutConfig = DEFAULT.layout,
) -> float:
    """How much the tiles' faces agree that their tops point along the frame's v axis
    (-1..1; v runs towards the player of an unturned photo, so below 0 is as expected).

    Every tile of a laid-down hand faces its player: the top of each upright
    face points away from them. Flowers (often unfamiliar art, read
    backwards) and face-down tiles have no say; sideways tiles point along
    the row; faces alike either way round (`LayoutConfig.symmetric`) only
    when no other face is there.
    """
    axis = np.array([-np.sin(angle), np.cos(angle)])
    faces = [
        (reads[i].up, CODES[top_class(reads[i])] in config.symmetric)
        for c in clusters
        for s in c.slots
        if not s.sideways
        for i in s.tiles
        if reads[i].up is not None and top_class(reads[i]) < FLOWER_FIRST
    ]
    telling = [up for up, symmetric in faces if not symmetric]
    ups = telling or [up for up, _ in faces]
    if not ups:
        return 0.0
    vectors = np.array(ups, dtype=float)
    total = float(np.linalg.norm(vectors, axis=1).sum())
    return float((vectors @ axis).sum()) / max(total, 1e-9)


def rows_reversed(
    clusters: list[Cluster], faces: float = 0.0, config: LayoutConfig = DEFAULT.layout
) -> bool | None:
    """Whether the rows read against the frame's u axis (the photo is turned a further 180°).

    Cues: the tile faces (`facing`), weighed by how much they agree; the
    winning tile is set apart at the right end of the hand row; the hand row
    lies nearer the player than rows of melds (melds are shown "在立牌前",
    beyond the standing hand). None: no cue either way.
    """
    main = hand_row(clusters, config)
    if main < 0:
        return None if abs(faces) < config.facing else faces > 0
    plain = [c for c in clusters if c.kind == "plain" and c.row == main]
    score = config.faces_weight * faces if abs(faces) >= config.facing else 0.0
    if len(plain) >= 2:
        first, last = len(plain[0].tiles) == 1, len(plain[-1].tiles) == 1
        score += 2 if first and not last else -2 if last and not first else 0
    meld_rows = {c.row for c in clusters if c.kind != "plain" and c.row != main}
    if meld_rows:
        score += 1 if main < min(meld_rows) else -1 if main > max(meld_rows) else 0
    return None if score == 0 else score > 0
