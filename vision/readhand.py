"""A group of tiles read as a hand: its layout, then the most probable hand the rules allow.

`read_hand` takes the layout's first reading where it stands without doubt,
else reads the layout again under `LayoutConfig.other_readings` and keeps
the reading that does best (`standing` ranks readings the same way for the
stages that pick among a table's groups). `HandReadings` reads each group
once per photo.
"""

from __future__ import annotations

from vision.config import DEFAULT, VisionConfig
from vision.decode import Decoded, decode
from vision.layout import NOTHING_SET_APART, read_layout
from vision.notes import Note
from vision.types import Layout, TileRead

#: a group of tiles read as a hand: the reads as decoded, their layout, the hand decoded
Reading = tuple[list[TileRead], Layout, Decoded]


def read_hand(reads: list[TileRead], config: VisionConfig = DEFAULT) -> Reading:
    """Layout and decoding of the read tiles: (reads as decoded, layout, decoded hand).
    The reads given are left as they are.

    The first reading is kept when it gives a hand (or the rest of one,
    besides unnamed kongs) with nothing in doubt (`_settled`: no warning,
    and no `Layout.doubts`, such as a sideways-looking tile counted
    upright). Else the layout is read again with each of
    `LayoutConfig.other_readings` (a gap, a tile set apart or a sideways box
    judged the other way), and the reading that does best wins: a hand
    first, then the fewest warnings (`UNRANKED` notes, which say only how
    the rows were taken to read, not counted), then the least probability
    given up to the rules. So a meld whose sideways tile looked upright, first counted
    into the concealed hand with a warning, is read again as a meld; and a reading that
    counts upright a tile whose box shows it sideways plainly has that doubt against it
    (`_unmarked`). A hand
    laid out with nothing set apart is read as it lies, with its warning,
    rather than by thresholds loosened until some tile looks set apart.
    Every try starts from the same reads, which no stage changes. A layout
    read before is not decoded again, and the other readings stop once
    their decoding took `PipelineConfig.read_again_steps`: a photo that is
    no hand at all costs every decoding its full search.
    """
    seen: set[tuple] = set()
    marks: tuple[bool, ...] = ()  # the tiles whose boxes show them sideways plainly

    def attempt(tried_config: VisionConfig) -> tuple | None:
        layout = read_layout(reads, tried_config)
        key = _layout_key(layout)
        if key in seen:
            return None  # the same grouping decodes the same
        seen.add(key)
        decoded = decode(reads, layout, tried_config)
        found = gives_hand(decoded)
        doubts = _doubting(layout.warnings + decoded.warnings) + _unmarked(marks, layout)
        return (not found, doubts, decoded.drop), decoded.reads, layout, decoded

    first = attempt(config)
    assert first is not None
    if _settled(first[2], first[3]):
        return first[1], first[2], first[3]
    marks = read_layout(reads, config.reading(config.layout.sideways_plain)).sideways
    (missing, doubts, drop), *rest = first  # the first reading's doubts, now with these
    tries = [((missing, doubts + _unmarked(marks, first[2]), drop), *rest)]
    spent = 0
    for reading in config.layout.other_readings:
        if spent >= config.pipeline.read_again_steps:
            break
        if (found := attempt(config.reading(reading))) is not None:
            tries.append(found)
            spent += found[3].steps
    best = min(tries, key=lambda a: a[0])  # ties keep the first reading
    return best[1], best[2], best[3]


class HandReadings:
    """`read_hand` of a photo's groups of tiles, each group read once: a whole table's
    candidates are read while its tiles are looked at again (`hand_looked_again`) and
    asked for again when the hand is picked (`pick_hand`). A group counts as read when
    it holds the very same reads (stages make new reads, never edit them)."""

    def __init__(self, config: VisionConfig = DEFAULT) -> None:
        self.config = config
        self._kept: dict[tuple[int, ...], tuple[list[TileRead], tuple]] = {}

    def __call__(self, reads: list[TileRead]) -> Reading:
        key = tuple(id(r) for r in reads)  # unique: the reads kept below stay alive
        if key not in self._kept:
            self._kept[key] = (list(reads), read_hand(reads, self.config))
        return self._kept[key][1]


def _unmarked(marks: tuple[bool, ...], layout: Layout) -> int:
    """How many of the tiles whose boxes show them sideways plainly (`marks`, read with
    `LayoutConfig.sideways_plain`) a layout counts upright: each is a doubt of that
    reading (a hand's melds all read as concealed tiles can make a legal hand too)."""
    if len(marks) != len(layout.sideways):
        return 0
    return sum(1 for was, now in zip(marks, layout.sideways, strict=True) if was and not now)


def _settled(layout: Layout, decoded: Decoded) -> bool:
    """Whether a reading stands without a second look: it gives a hand (or the rest of one)
    and nothing in it was in doubt, besides a hand laid out with no tile set apart."""
    if not gives_hand(decoded) or layout.doubts:
        return False
    return all(w.id == NOTHING_SET_APART.id for w in layout.warnings + decoded.warnings)


#: notes that say how a reading was read, not that it doubts its tiles: a reading that
#: drops every meld must not win over one that keeps them by having no rows to turn
UNRANKED = frozenset({"direction_assumed.across", "direction_assumed.down"})


def _doubting(notes: list[Note]) -> int:
    """How many of a reading's notes count against it when readings are compared."""
    return sum(n.id not in UNRANKED for n in notes)


def gives_hand(decoded: Decoded) -> bool:
    """A hand, or the rest of one besides kongs lying all face down."""
    return decoded.hand is not None or decoded.partial is not None


def better_partial(
    reading: Reading,
    kept: Reading | None,
) -> bool:
    """Whether a try that reads as no complete hand is the one to keep over `kept`: it
    gives a hand but for kongs lying face down, with fewer warnings (`standing`; of
    equals, the first kept stays)."""
    return gives_hand(reading[2]) and (kept is None or standing(reading) < standing(kept))


def _layout_key(layout: Layout) -> tuple:
    """What a reading's worth depends on from a layout: its groups and the sideways marks,
    and its warnings (the same groups read with less doubt do better)."""
    groups = tuple((g.role, tuple(g.tiles), g.claimed, g.promoted) for g in layout.groups)
    return groups, layout.sideways, tuple(layout.warnings)


def standing(reading: Reading) -> tuple[bool, bool, int]:
    """What a reading of the hand is worth, least first: a hand (or the rest of one), a
    complete hand, then the fewest warnings."""
    _, layout, decoded = reading
    warnings = len(layout.warnings) + len(decoded.warnings)
    return not gives_hand(decoded), decoded.hand is None, warnings
