"""Winning forms: every way the concealed tiles can be read as a winning hand.

Works on count arrays (34 ints as a tuple) so results can be cached: the
same concealed part recurs constantly while scoring and while computing
waits (34 candidate tiles per 13-tile hand). A reading is a tuple of
`(kind, tile)` blocks: ``("chow", lowest)``, ``("pung", t)``, ``("pair", t)``,
``("knitted", t)`` (three tiles t, t+3, t+6) or ``("single", t)``.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations

from scorer.tiles import (
    HONOR_TILES,
    NUM_KINDS,
    is_playing,
    is_suited,
    is_terminal_or_honor,
    rank,
    suited,
)

Block = tuple[str, int]
Reading = tuple[Block, ...]

#: the terminals and honors of 十三幺
ORPHANS: tuple[int, ...] = tuple(t for t in range(NUM_KINDS) if is_terminal_or_honor(t))
HONORS: tuple[int, ...] = HONOR_TILES

#: the six knitted straights: suit order for ranks (1,4,7), (2,5,8), (3,6,9)
KNITTED: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        suited(s, first + 3 * k) for s, first in zip(perm, (1, 2, 3), strict=True) for k in range(3)
    )
    for perm in permutations(range(3))
)


def check_hand(melds, concealed, winning_tile, size: int) -> None:
    """Refuse what the engine cannot read, with a ScoreError a person can act on.

    Callers normally validate requests first; this keeps library use safe
    (no IndexError deep inside on a flower code or a chow starting at 8).
    """
    from scorer.errors import ScoreError  # local: forms stays import-light
    from scorer.hand import MeldKind

    tiles = list(concealed) + ([] if winning_tile is None else [winning_tile])
    bad = [t for t in tiles if not (isinstance(t, int) and is_playing(t))]
    if bad:
        raise ScoreError("bad_tile.indices", tiles=bad)
    for m in melds:
        ok = isinstance(m.tile, int) and is_playing(m.tile)
        if m.kind is MeldKind.CHOW:
            ok = ok and is_suited(m.tile) and rank(m.tile) <= 7
        if not ok:
            raise ScoreError("bad_meld.index", kind=m.kind.value, tile=m.tile)
    if len(melds) > 4 or 3 * len(melds) + len(tiles) != size:
        raise ScoreError("wrong_tile_count.size", melds=len(melds), tiles=len(tiles), size=size)


def counts_of(tiles: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    """A 34-entry count tuple of playing tiles."""
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return tuple(c)


@lru_cache(maxsize=50_000)
def _suit_sets(counts: tuple[int, ...], base: int, chows: bool) -> tuple[Reading, ...]:
    """All ways to split one suit's counts (9 ints, or 7 for honors) into chows/pungs."""
    i = next((k for k, n in enumerate(counts) if n), None)
    if i is None:
        return ((),)
    out: list[Reading] = []
    c = list(counts)
    if c[i] >= 3:
        c[i] -= 3
        out.extend((("pung", base + i),) + rest for rest in _suit_sets(tuple(c), base, chows))
        c[i] += 3
    if chows and i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        out.extend((("chow", base + i),) + rest for rest in _suit_sets(tuple(c), base, chows))
    return tuple(out)


@lru_cache(maxsize=50_000)
def _suit_with_pair(counts: tuple[int, ...], base: int, chows: bool) -> tuple[Reading, ...]:
    """One suit split into chows/pungs plus exactly one pair."""
    out: list[Reading] = []
    c = list(counts)
    for k, n in enumerate(counts):
        if n >= 2:
            c[k] -= 2
            out.extend((("pair", base + k),) + rest for rest in _suit_sets(tuple(c), base, chows))
            c[k] += 2
    return tuple(out)


_GROUPS = ((0, 9, True), (9, 18, True), (18, 27, True), (27, 34, False))


@lru_cache(maxsize=200_000)
def standard_readings(counts: tuple[int, ...], nsets: int) -> tuple[Reading, ...]:
    """Readings as `nsets` sets plus one pair (the basic winning form).

    Each suit is split on its own (cached per suit), then the suits are
    combined with the pair in exactly one of them.
    """
    if sum(counts) != 3 * nsets + 2:
        return ()
    plain: list[tuple[Reading, ...]] = []
    paired: list[tuple[Reading, ...]] = []
    for lo, hi, chows in _GROUPS:
        part = counts[lo:hi]
        size = sum(part)
        plain.append(_suit_sets(part, lo, chows) if size % 3 == 0 else ())
        paired.append(_suit_with_pair(part, lo, chows) if size % 3 == 2 else ())
    out: list[Reading] = []
    for g in range(4):
        if not paired[g] or not all(plain[k] for k in range(4) if k != g):
            continue
        combos: list[Reading] = [()]
        for k in range(4):
            options = paired[k] if k == g else plain[k]
            combos = [a + b for a in combos for b in options]
        out.extend(combos)
    return tuple(out)


@lru_cache(maxsize=200_000)
def is_standard(counts: tuple[int, ...], nsets: int) -> bool:
    """Whether `counts` is `nsets` sets plus a pair, without listing the readings."""
    if sum(counts) != 3 * nsets + 2:
        return False
    pair_group = -1
    for g, (lo, hi, chows) in enumerate(_GROUPS):
        part = counts[lo:hi]
        size = sum(part)
        if size % 3 == 1:
            return False
        if size % 3 == 2:
            if pair_group >= 0 or not _suit_with_pair(part, lo, chows):
                return False
            pair_group = g
        elif not _suit_sets(part, lo, chows):
            return False
    return pair_group >= 0


def seven_pairs(counts: tuple[int, ...]) -> Reading | None:
    """Seven pairs; four identical tiles read as two pairs."""
    if sum(counts) != 14 or any(n % 2 for n in counts):
        return None
    return tuple(("pair", t) for t, n in enumerate(counts) for _ in range(n // 2))


def thirteen_orphans(counts: tuple[int, ...]) -> Reading | None:
    """One of each terminal and honor plus a pair of one of them."""
    if sum(counts) != 14 or any(counts[t] == 0 for t in ORPHANS):
        return None
    if sum(counts[t] for t in ORPHANS) != 14:
        return None
    pair = next(t for t in ORPHANS if counts[t] == 2)
    return (("pair", pair),) + tuple(("single", t) for t in ORPHANS if t != pair)


def honors_and_knitted(counts: tuple[int, ...]) -> Reading | None:
    """全不靠 / 七星不靠: 14 different tiles from one knitted straight plus honors."""
    if sum(counts) != 14 or any(n > 1 for n in counts):
        return None
    for straight in KNITTED:
        allowed = set(straight) | set(HONORS)
        if all(counts[t] == 0 or t in allowed for t in range(34)):
            return tuple(("single", t) for t in range(34) if counts[t])
    return None


def knitted_straight_readings(counts: tuple[int, ...], nsets: int) -> tuple[Reading, ...]:
    """组合龙 (form 5): a knitted straight, `nsets` more sets (0 or 1) and a pair."""
    out: list[Reading] = []
    if sum(1 for t in range(27) if counts[t]) < 9:
        return ()
    for straight in KNITTED:
        if all(counts[t] for t in straight):
            c = list(counts)
            for t in straight:
                c[t] -= 1
            knit = tuple(("knitted", straight[k]) for k in (0, 3, 6))
            out.extend(knit + rest for rest in standard_readings(tuple(c), nsets))
    return tuple(out)


@lru_cache(maxsize=200_000)
def is_complete(counts: tuple[int, ...], nmelds: int) -> bool:
    """Whether concealed `counts` plus `nmelds` declared melds form any winning hand."""
    nsets = 4 - nmelds
    if is_standard(counts, nsets):
        return True
    if nmelds == 0 and (
        seven_pairs(counts) or thirteen_orphans(counts) or honors_and_knitted(counts)
    ):
        return True
    return nsets >= 3 and bool(knitted_straight_readings(counts, nsets - 3))


def clear_caches() -> None:
    """Empty the decomposition caches (for honest cold-cache timing)."""
    for fn in (_suit_sets, _suit_with_pair, standard_readings, is_standard, is_complete):
        fn.cache_clear()
