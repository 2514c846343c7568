"""The thresholds the layout stage reads a photo with, and the other sets it may try.

They live apart from `vision.layout` because the stage's parts (gaps along
a row, the tile set apart, flowers beside the hand) each read one of them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from vision.rows import SIDEWAYS_MIN_WIDE, SIDEWAYS_SCORE

#: gap between touching tiles that still counts as "together", in tile widths
GAP_SPLIT = 0.3
#: ... and by how much more than the row's usual spacing
GAP_OVER_USUAL = 0.3
#: how much longer than its neighbours the step to a tile set apart at the row's end is
SET_APART_STEP = 1.2
#: ... and by how much more than the step at the row's other end
SET_APART_MARGIN = 0.1


@dataclass(frozen=True)
class Tuning:
    """The thresholds one reading of a layout is made with.

    A photo now and then sits right at one of them: a winning tile set apart
    by a hair, melds pushed against the hand, a tilted tile whose box looks
    wide. `OTHER_TUNINGS` are the readings tried when the first one gives no
    clean hand (see `vision.pipeline.read_hand`).
    """

    gap_split: float = GAP_SPLIT
    gap_over_usual: float = GAP_OVER_USUAL
    set_apart_step: float = SET_APART_STEP
    set_apart_margin: float = SET_APART_MARGIN
    sideways_score: float = SIDEWAYS_SCORE
    sideways_min_wide: float = SIDEWAYS_MIN_WIDE


OTHER_TUNINGS: tuple[Tuning, ...] = (
    Tuning(gap_split=0.15, gap_over_usual=0.15),  # smaller gaps: tiles lying close apart
    Tuning(gap_split=0.5, gap_over_usual=0.5),  # larger gaps: tiles pushed loosely together
    Tuning(set_apart_step=1.1, set_apart_margin=0.05),  # a winning tile barely set apart
    Tuning(sideways_score=1.6, sideways_min_wide=0.8),  # only clearly sideways boxes
    Tuning(sideways_score=0.9, sideways_min_wide=0.3),  # sideways boxes seen foreshortened
    Tuning(sideways_score=math.inf, sideways_min_wide=math.inf),  # sideways by the faces only
)
