"""Fans made by combining sets, and the principles that limit them.

Chow fans (一般高, 喜相逢, 连六, 老少副, 清龙, 花龙, 三同顺, 三步高 ...) and pung
fans (双同刻, 三同刻, 三节高 ...) are counted by choosing *instances*: a fan
and the sets it is made of. Which instances may be counted together is
decided by three of the five principles, applied generally rather than per
fan:

* 不拆移 — two sets already counted together in one fan are never counted
  together again (two instances share at most one set);
* 不得相同 — a set counted in a fan cannot be used for another instance of
  the same fan;
* 套算一次 — a set not yet combined may join sets already combined only
  once: the instances, seen as links between sets, never close a loop. So
  four chows give at most three two-chow fans, a three-chow fan plus one
  more, etc. (this also covers 不拆移).

就高不就低 then picks the allowed selection with the most points (exhaustive;
at most a dozen instances per hand, and results are cached).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, pairwise

from scorer.fans import FANS, FanId
from scorer.tiles import is_honor, rank, suit

#: fans counted through this module; exclusions between two of them are
#: settled by the principles above, not by a whole-hand 不重复 pass
COMBO_FANS = frozenset(
    {
        FanId.QUADRUPLE_CHOW,
        FanId.FOUR_PURE_SHIFTED_PUNGS,
        FanId.FOUR_PURE_SHIFTED_CHOWS,
        FanId.PURE_TRIPLE_CHOW,
        FanId.PURE_SHIFTED_PUNGS,
        FanId.PURE_STRAIGHT,
        FanId.PURE_SHIFTED_CHOWS,
        FanId.TRIPLE_PUNG,
        FanId.MIXED_STRAIGHT,
        FanId.MIXED_TRIPLE_CHOW,
        FanId.MIXED_SHIFTED_PUNGS,
        FanId.MIXED_SHIFTED_CHOWS,
        FanId.DOUBLE_PUNG,
        FanId.PURE_DOUBLE_CHOW,
        FanId.MIXED_DOUBLE_CHOW,
        FanId.SHORT_STRAIGHT,
        FanId.TWO_TERMINAL_CHOWS,
    }
)

Instance = tuple[int, tuple[int, ...]]  # (fan id, indices of the sets)


def _suit_rank(tiles: tuple[int, ...]) -> tuple[list[int], list[int]]:
    return [suit(t) for t in tiles], [rank(t) for t in tiles]


def _steps(ranks: list[int]) -> set[int]:
    """The differences between neighbouring ranks (sorted tiles)."""
    return {b - a for a, b in pairwise(ranks)}


def chow_fan(starts: tuple[int, ...]) -> int | None:
    """The combination fan made by chows with these sorted lowest tiles, if any."""
    suits, ranks = _suit_rank(starts)
    if len(starts) == 4:
        return _four_chows(suits, ranks)
    if len(starts) == 3:
        return _three_chows(suits, ranks)
    return _two_chows(starts, suits, ranks)


def _four_chows(suits: list[int], ranks: list[int]) -> int | None:
    """一色四同顺, 一色四步高."""
    if len(set(suits)) != 1:
        return None
    if _steps(ranks) == {0}:
        return FanId.QUADRUPLE_CHOW
    if _steps(ranks) in ({1}, {2}):
        return FanId.FOUR_PURE_SHIFTED_CHOWS
    return None


def _three_chows(suits: list[int], ranks: list[int]) -> int | None:
    """一色三同顺, 一色三步高, 清龙; 三色三同顺, 三色三步高, 花龙."""
    if len(set(suits)) == 1:
        if _steps(ranks) == {0}:
            return FanId.PURE_TRIPLE_CHOW
        if _steps(ranks) in ({1}, {2}):
            return FanId.PURE_SHIFTED_CHOWS
        return FanId.PURE_STRAIGHT if ranks == [1, 4, 7] else None
    if len(set(suits)) == 3:
        r = sorted(ranks)
        if r[0] == r[2]:
            return FanId.MIXED_TRIPLE_CHOW
        if r == [r[0], r[0] + 1, r[0] + 2]:
            return FanId.MIXED_SHIFTED_CHOWS
        if r == [1, 4, 7]:
            return FanId.MIXED_STRAIGHT
    return None


def _two_chows(starts: tuple[int, ...], suits: list[int], ranks: list[int]) -> int | None:
    """一般高, 连六, 老少副; 喜相逢."""
    if starts[0] == starts[1]:
        return FanId.PURE_DOUBLE_CHOW
    if suits[0] == suits[1]:
        if ranks[1] - ranks[0] == 3:
            return FanId.SHORT_STRAIGHT
        return FanId.TWO_TERMINAL_CHOWS if (ranks[0], ranks[1]) == (1, 7) else None
    return FanId.MIXED_DOUBLE_CHOW if ranks[0] == ranks[1] else None


def pung_fan(tiles: tuple[int, ...]) -> int | None:
    """The combination fan made by pungs/kongs of these sorted tiles, if any."""
    if any(map(is_honor, tiles)):
        return None
    suits, ranks = _suit_rank(tiles)
    n = len(tiles)
    consecutive = _steps(ranks) == {1}
    if len(set(suits)) == 1:
        if n == 4 and consecutive:
            return FanId.FOUR_PURE_SHIFTED_PUNGS
        if n == 3 and consecutive:
            return FanId.PURE_SHIFTED_PUNGS
        return None
    if len(set(suits)) != n:
        return None
    r = sorted(ranks)
    if n == 3:
        if r[0] == r[2]:
            return FanId.TRIPLE_PUNG
        return FanId.MIXED_SHIFTED_PUNGS if r == [r[0], r[0] + 1, r[0] + 2] else None
    if n == 2:
        return FanId.DOUBLE_PUNG if r[0] == r[1] else None
    return None


@lru_cache(maxsize=20_000)
def best_combination(
    kind: str, items: tuple[int, ...]
) -> tuple[tuple[Instance, ...], tuple[Instance, ...]]:
    """(chosen instances, other candidate instances) for sorted chow starts or pung tiles.

    `kind` is "chow" or "pung". Indices refer to positions in `items`.
    """
    judge = chow_fan if kind == "chow" else pung_fan
    n = len(items)
    candidates: list[Instance] = []
    for size in (4, 3, 2):
        for idx in combinations(range(n), size):
            fan = judge(tuple(items[i] for i in idx))
            if fan is not None:
                candidates.append((fan, idx))
    best: tuple[int, tuple[Instance, ...]] = (0, ())
    seen: set[frozenset[int]] = set()

    def allowed(inst: Instance, chosen: list[Instance], comp: tuple[int, ...]) -> bool:
        fan, idx = inst
        if len({comp[i] for i in idx}) < len(idx):
            return False  # 套算一次 / 不拆移: these sets are already linked
        return all(not (f2 == fan and set(idx) & set(idx2)) for f2, idx2 in chosen)  # 不得相同

    def dfs(
        chosen: list[Instance], comp: tuple[int, ...], points: int, keys: frozenset[int]
    ) -> None:
        nonlocal best
        # ties: prefer the lower-numbered fans (一般高 before 喜相逢 ...), as the
        # reference calculator does, so equal readings come out the same way
        if (points, _tiebreak(chosen)) > (best[0], _tiebreak(best[1])):
            best = (points, tuple(chosen))
        for k, inst in enumerate(candidates):
            if k in keys or not allowed(inst, chosen, comp):
                continue
            key = keys | {k}
            if key in seen:
                continue
            seen.add(key)
            merged = {comp[i] for i in inst[1]}
            target = min(merged)
            new_comp = tuple(target if c in merged else c for c in comp)
            chosen.append(inst)
            dfs(chosen, new_comp, points + FANS[inst[0]].points, key)
            chosen.pop()

    dfs([], tuple(range(n)), 0, frozenset())
    chosen = best[1]
    others = tuple(c for c in candidates if c not in chosen)
    return chosen, others


def _tiebreak(chosen: list[Instance] | tuple[Instance, ...]) -> tuple[int, ...]:
    return tuple(-f for f in sorted(f for f, _ in chosen))


def why_not(inst: Instance, chosen: tuple[Instance, ...]) -> tuple[str, int | None]:
    """The principle that kept a candidate instance out, for the explanation."""
    fan, idx = inst
    for f2, idx2 in chosen:
        if len(set(idx) & set(idx2)) >= 2:
            if fan in FANS[f2].excludes:
                return f"implied by {FANS[f2].name_zh} ({f2})", f2
            return f"不拆移: those sets already make {FANS[f2].name_zh} ({f2})", f2
    for f2, idx2 in chosen:
        if f2 == fan and set(idx) & set(idx2):
            return "不得相同: a set already counted in this fan", None
    return "套算一次: these sets are already linked through other fans", None
