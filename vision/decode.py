"""Rule-aware decoding: the most probable hand that the rules allow.

The classifier reads each tile alone, so its first guesses can break the
rules (a fifth copy, a "chow" 3-5-6, a hand that is not complete). Here
every tile keeps its few most probable classes and whole assignments are
enumerated from the most probable down (summed log-probability); the first
one that is a legal winning hand wins. Tiles whose class changed are
marked `overridden` (in new reads: the reads given are left as they are)
so the page can ask the person to check them. If the best legal hand
costs too much probability, the first guesses stay and no hand is claimed.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field, replace
from itertools import permutations

import numpy as np

from scorer.forms import is_complete
from scorer.hand import Hand, Meld, MeldKind
from scorer.notation import format_hand
from scorer.tiles import BACK, BACK_INDEX, CODES, FLOWER_FIRST, NUM_KINDS
from vision.config import DEFAULT, DecodeConfig, VisionConfig
from vision.layout.kinds import likely_back, top_class
from vision.notes import Note, note
from vision.types import Group, Layout, TileRead


@dataclass
class Decoded:
    """Decoding result; `melds` maps a group's index in `layout.groups` to its meld."""

    hand: Hand | None
    notation: str | None
    melds: dict[int, Meld] = field(default_factory=dict)
    warnings: list[Note] = field(default_factory=list)
    drop: float = 0.0  # log-probability given up to satisfy the rules
    waits: list[int] | None = None  # for a waiting hand (one tile short): what completes it
    #: groups of concealed kongs lying all face down, which the person must name
    unnamed: list[int] = field(default_factory=list)
    #: with unnamed kongs: the rest of the hand in the notation (those kongs left out)
    partial: str | None = None
    #: the winning tile of a hand, or of the rest of one (index into CODES)
    winning: int | None = None
    steps: int = 0  # how many steps the search took (`DecodeConfig.max_steps` at most)
    #: the reads with the code chosen for each (`chosen`, `overridden`)
    reads: list[TileRead] = field(default_factory=list)


@dataclass
class _Option:
    score: float
    kinds: tuple[int, ...]  # one class per tile of the variable, same order
    meld: Meld | None = None


@dataclass
class _Var:
    tiles: list[int]
    options: list[_Option]
    group: int = -1  # index of the meld / kong group, -1 for a concealed tile


# -- variables ------------------------------------------------------------------


def _logp(read: TileRead) -> np.ndarray:
    """Log-probabilities over the 34 playing tiles (flowers and backs renormalised away)."""
    p = np.asarray(read.probs, dtype=float)[:NUM_KINDS]
    p = np.maximum(p, 1e-9)
    return np.log(p / p.sum())


def _tile_var(read: TileRead, i: int, config: DecodeConfig) -> _Var:
    lp = _logp(read)
    order = np.argsort(-lp)[: config.top_k_tile]
    best = lp[order[0]]
    near = [k for k in order if lp[k] >= best - config.max_tile_drop]
    options = [_Option(float(lp[k]), (int(k),)) for k in near]
    return _Var([i], options)


def _meld_var(
    reads: list[TileRead], group: Group, gi: int, config: DecodeConfig, sideways: tuple[bool, ...]
) -> _Var:
    lps = [_logp(reads[i]) for i in group.tiles]
    options: list[_Option] = []
    n = len(group.tiles)
    kind = MeldKind.KONG if n == 4 else MeldKind.PUNG
    for t in range(NUM_KINDS):
        score = float(sum(lp[t] for lp in lps))
        options.append(_Option(score, (t,) * n, Meld(kind, t, group.claimed, group.promoted)))
    if n == 3:
        side = next((k for k, i in enumerate(group.tiles) if sideways[i]), 0)
        for base in range(27):
            if base % 9 > 6:
                continue
            best = max(
                permutations((base, base + 1, base + 2)),
                key=lambda perm: sum(lp[t] for lp, t in zip(lps, perm, strict=True)),
            )
            score = float(sum(lp[t] for lp, t in zip(lps, best, strict=True)))
            claimed = best[side] - base + 1
            options.append(_Option(score, best, Meld(MeldKind.CHOW, base, claimed)))
    return _Var(list(group.tiles), _keep(options, lps, config), gi)


def _kong_var(reads: list[TileRead], group: Group, gi: int, config: DecodeConfig) -> _Var | None:
    """A concealed kong: its face-up tiles vote for the kind; None when all lie face down."""
    up = [i for i in group.tiles if not likely_back(reads[i])]
    if not up:
        return None
    lps = [_logp(reads[i]) for i in up]
    options = [
        _Option(float(sum(lp[t] for lp in lps)), (t,) * len(up), Meld(MeldKind.KONG, t, 0))
        for t in range(NUM_KINDS)
    ]
    return _Var(up, _keep(options, lps, config), gi)


def _keep(options: list[_Option], lps: list[np.ndarray], config: DecodeConfig) -> list[_Option]:
    """The most probable options in which no single tile is read against its evidence.

    Empty when the tiles cannot make a meld without such a misreading.
    """
    best = [float(lp.max()) for lp in lps]
    options.sort(key=lambda o: -o.score)
    top = options[0].score
    kept = [
        o
        for o in options
        if o.score >= top - config.max_drop
        and all(
            lp[t] >= b - config.max_tile_drop for lp, t, b in zip(lps, o.kinds, best, strict=True)
        )
    ]
    return kept[: config.top_k_meld]


# -- search ---------------------------------------------------------------------


def _legal(variables: list[_Var], state: tuple[int, ...], n_melds: int) -> bool:
    counts = [0] * NUM_KINDS
    hand_counts = [0] * NUM_KINDS
    for var, k in zip(variables, state, strict=True):
        option = var.options[k]
        tiles = option.meld.tiles if option.meld else option.kinds
        for t in tiles:
            counts[t] += 1
            if counts[t] > 4:
                return False
        if option.meld is None:
            hand_counts[option.kinds[0]] += 1
    return is_complete(tuple(hand_counts), n_melds)


def _search(
    variables: list[_Var], n_melds: int, config: DecodeConfig
) -> tuple[tuple[tuple[int, ...], float] | None, int]:
    """Best-first over assignments, most probable first (each reached once: indices are
    raised left to right only); the first legal one is the answer, with its drop. Returns
    it (None when there is none within `max_drop` and `max_steps`) and the steps taken."""
    top = sum(v.options[0].score for v in variables)
    start = (0,) * len(variables)
    heap = [(-top, start, 0)]
    steps = 0
    while heap and steps < config.max_steps:
        neg, state, last = heapq.heappop(heap)
        steps += 1
        if top + neg > config.max_drop:
            return None, steps
        if _legal(variables, state, n_melds):
            return (state, top + neg), steps
        for j in range(last, len(variables)):
            options = variables[j].options
            k = state[j]
            if k + 1 < len(options):
                cost = neg + options[k].score - options[k + 1].score
                if top + cost <= config.max_drop:  # dearer assignments are never accepted
                    heapq.heappush(heap, (cost, state[:j] + (k + 1,) + state[j + 1 :], j))
    return None, steps


def distinct_flowers(probs: np.ndarray) -> list[int]:
    """For each row of flower probabilities (tiles x the 8 flowers), the flower it is
    named: the names all different and their summed log-probability highest, so that
    of two tiles read as the same flower the less sure takes its next most likely one.
    More tiles than flowers (a misread layout) keep each its own most probable. Equal
    sums (a tie) keep the later flowers, the same every time."""
    n_kinds = probs.shape[1] if probs.ndim == 2 else 0
    if len(probs) > n_kinds:
        return [int(k) for k in np.argmax(probs, axis=1)]
    logp = np.log(np.clip(probs, 1e-9, None))
    best: dict[int, tuple[float, tuple[int, ...]]] = {0: (0.0, ())}  # kinds used -> best
    for row in logp:
        after: dict[int, tuple[float, tuple[int, ...]]] = {}
        for used, (score, picks) in best.items():
            for k in range(n_kinds):
                key, total = used | 1 << k, score + float(row[k])
                if not used & 1 << k and (key not in after or total > after[key][0]):
                    after[key] = (total, (*picks, k))
        best = after
    return list(max(best.values())[1])


@dataclass
class _Names:
    """The code chosen for each tile as decoding goes, and whether it differs from the code
    first chosen: decoding's own working copy, the reads are left as they are."""

    chosen: list[str]
    overridden: list[bool]

    @classmethod
    def first_guesses(cls, reads: list[TileRead]) -> _Names:
        return cls([CODES[top_class(r)] for r in reads], [False] * len(reads))

    def name(self, i: int, code: str) -> None:
        self.overridden[i] = code != self.chosen[i]
        self.chosen[i] = code

    def flowers(self, reads: list[TileRead], tiles: list[int]) -> None:
        """Tiles the layout holds for flowers get the most probable names that are all
        different (`distinct_flowers`): a set holds each flower once."""
        probs = np.array([np.asarray(reads[i].probs)[FLOWER_FIRST:BACK_INDEX] for i in tiles])
        for i, k in zip(tiles, distinct_flowers(probs), strict=True):
            self.name(i, CODES[FLOWER_FIRST + k])

    def backs(self, reads: list[TileRead], tiles: list[int]) -> None:
        """A concealed kong's tiles that are likely backs are named `back` (`likely_back`)."""
        for i in tiles:
            if likely_back(reads[i]) and self.chosen[i] != BACK:
                self.chosen[i], self.overridden[i] = BACK, True

    def applied(self, reads: list[TileRead]) -> list[TileRead]:
        """New reads with these names."""
        return [
            replace(r, chosen=c, overridden=o)
            for r, c, o in zip(reads, self.chosen, self.overridden, strict=True)
        ]


@dataclass
class _Shape:
    """The hand's parts as the layout gives them: the melds' variables, the concealed
    tiles, the winning tile and the number of melds."""

    variables: list[_Var] = field(default_factory=list)
    hand_tiles: list[int] = field(default_factory=list)
    winning: list[int] = field(default_factory=list)
    n_melds: int = 0


def decode(reads: list[TileRead], layout: Layout, config: VisionConfig = DEFAULT) -> Decoded:
    """Choose every tile's class and the hand: `Decoded.reads` are new reads with their
    `chosen` and `overridden` set; `reads` are left as they are."""
    names = _Names.first_guesses(reads)
    result = _decode(reads, layout, config.decode, names)
    result.reads = names.applied(reads)
    return result


def _decode(reads: list[TileRead], layout: Layout, cfg: DecodeConfig, names: _Names) -> Decoded:
    result = Decoded(hand=None, notation=None)
    unplaced = sum(len(g.tiles) for g in layout.groups if g.role == "unknown")
    if unplaced:
        result.warnings.append(note("unplaced", n=unplaced))
    shape = _shape(reads, layout, cfg, names, result)
    if shape is None:
        return result
    variables, hand_tiles, winning, n_melds = (
        shape.variables,
        shape.hand_tiles,
        shape.winning,
        shape.n_melds,
    )
    if n_melds > 4:
        result.warnings.append(note("too_many_melds", n=n_melds))
        return result
    if any(not v.options for v in variables):
        result.warnings.append(note("meld_shape"))
        return result
    need = 14 - 3 * n_melds
    have = len(hand_tiles) + len(winning)
    if have == need - 1:
        if not result.unnamed:  # what completes it depends on the unnamed kong's tile
            result.waits = _waits(reads, variables, hand_tiles + winning)
        result.warnings.append(note("waiting_hand", have=have, melds=n_melds))
        return result
    if have != need:
        result.warnings.append(note("tile_count", have=have, melds=n_melds, need=need))
        return result
    variables.extend(_tile_var(reads[i], i, cfg) for i in hand_tiles + winning)
    found, result.steps = _search(variables, n_melds, cfg)
    if found is None:
        result.warnings.append(note("no_close_hand"))
        return result
    state, drop = found
    return _apply(names, variables, state, drop, result)


def _shape(
    reads: list[TileRead], layout: Layout, cfg: DecodeConfig, names: _Names, result: Decoded
) -> _Shape | None:
    """The hand's parts from the layout's groups, naming flowers and kongs' backs on the
    way; None (with a warning on `result`) when a meld has the wrong number of tiles."""
    sideways = layout.sideways or tuple(r.detection.sideways for r in reads)
    shape = _Shape()
    for gi, group in enumerate(layout.groups):
        if group.role == "meld":
            if len(group.tiles) not in (3, 4):
                result.warnings.append(note("meld_size"))
                return None
            shape.variables.append(_meld_var(reads, group, gi, cfg, sideways))
            shape.n_melds += 1
        elif group.role == "concealed_kong":
            names.backs(reads, group.tiles)
            var = _kong_var(reads, group, gi, cfg)
            if var is None:  # the layout already asked the person to name it
                result.unnamed.append(gi)  # it still counts as a set in the hand's shape
            else:
                shape.variables.append(var)
            shape.n_melds += 1
        elif group.role == "concealed":
            shape.hand_tiles.extend(group.tiles)
        elif group.role == "winning":
            shape.winning.extend(group.tiles)
        elif group.role == "flowers":
            names.flowers(reads, group.tiles)
    return shape


def _waits(reads: list[TileRead], melds: list[_Var], tiles: list[int]) -> list[int] | None:
    """Winning tiles of a 13-tile hand read with first guesses (None when that is illegal)."""
    from scorer.waits import winning_tiles

    hand = Hand(
        tuple(v.options[0].meld for v in melds if v.options[0].meld),
        tuple(sorted(int(np.argmax(_logp(reads[i]))) for i in tiles)),
    )
    if any(hand.all_tiles.count(t) > 4 for t in set(hand.all_tiles)):
        return None
    return winning_tiles(hand)


def _hand(variables: list[_Var], state: tuple[int, ...]) -> Hand:
    melds = [v.options[k].meld for v, k in zip(variables, state, strict=True) if v.group >= 0]
    tiles = [v.options[k].kinds[0] for v, k in zip(variables, state, strict=True) if v.group < 0]
    return Hand(tuple(m for m in melds if m), tuple(sorted(tiles[:-1])), tiles[-1])


def _apply(
    names: _Names,
    variables: list[_Var],
    state: tuple[int, ...],
    drop: float,
    result: Decoded,
) -> Decoded:
    for var, k in zip(variables, state, strict=True):
        option = var.options[k]
        for i, kind in zip(var.tiles, option.kinds, strict=True):
            names.name(i, CODES[kind])
        if var.group >= 0 and option.meld is not None:
            result.melds[var.group] = option.meld
    hand = _hand(variables, state)
    result.drop, result.winning = drop, hand.winning_tile
    if result.unnamed:  # complete only once the person names the face-down kongs
        result.partial = format_hand(hand)
    else:
        result.hand = hand
        result.notation = format_hand(hand)
    if any(names.overridden):
        result.warnings.append(note("read_differently"))
    return result
