"""One reading of a hand and the scratch state used while counting its fans.

A reading is a list of `Block`s (declared melds first, then the concealed
sets, pair, knitted straight or single tiles). `Ctx` holds what all
readings of a hand share; `Tally` collects one reading's fans and the fans
left out, with the reason.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from scorer import forms
from scorer.fans import FANS
from scorer.hand import Hand, MeldKind, Situation
from scorer.notation import format_tiles
from scorer.result import Excluded
from scorer.waits import only_wait


class Block(NamedTuple):
    """One part of a reading: chow/pung/kong/pair/knitted/single."""

    kind: str
    tile: int
    concealed: bool
    declared: bool

    @property
    def tiles(self) -> tuple[int, ...]:
        return _block_tiles(self.kind, self.tile)


@cache
def _block_tiles(kind: str, tile: int) -> tuple[int, ...]:
    if kind == "chow":
        return (tile, tile + 1, tile + 2)
    if kind == "knitted":
        return (tile, tile + 3, tile + 6)
    return (tile,) * {"pung": 3, "kong": 4, "pair": 2}.get(kind, 1)


class Sets:
    """Tile groups written out only when the chosen reading is reported."""

    __slots__ = ("groups",)

    def __init__(self, *groups) -> None:
        self.groups = groups

    def __str__(self) -> str:
        return " ".join(_text(tuple(g)) for g in self.groups)


@cache
def _text(tiles: tuple[int, ...]) -> str:
    return format_tiles(tiles)


def fmt(tiles) -> Sets:
    return Sets(tiles)


def sets_text(blocks: list[Block]) -> Sets:
    return Sets(*(b.tiles for b in blocks))


class Ctx:
    """Facts of the hand shared by all its readings."""

    def __init__(self, hand: Hand, sit: Situation) -> None:
        self.hand = hand
        self.sit = sit
        self.win = hand.winning_tile
        self.all_tiles = list(hand.all_tiles)
        self.counts = forms.counts_of(self.all_tiles)
        self.concealed13 = forms.counts_of(hand.concealed)
        self.nmelds = len(hand.melds)
        self.exposed = any(not m.concealed for m in hand.melds)
        self.kong_tiles = {m.tile for m in hand.melds if m.kind is MeldKind.KONG}
        self._single_wait: bool | None = None
        self.tile_hits: dict[int, list] | None = (
            None  # fans of the tiles alone, same in every reading
        )

    @property
    def single_wait(self) -> bool:
        """Whether the hand before the winning tile waits on that tile only."""
        if self._single_wait is None:
            before = list(self.counts)
            before[self.win] -= 1
            self._single_wait = only_wait(self.concealed13, tuple(before), self.nmelds, self.win)
        return self._single_wait


class Tally:
    """Fans found in one reading, before and after exclusions."""

    def __init__(self) -> None:
        self.hits: dict[int, list[tuple[list[int], str | Sets]]] = {}
        self.excluded: list[Excluded] = []

    def add(self, fid: int, tiles, detail: str | Sets, n: int = 1) -> None:
        """Count fan `fid` (a `FanId`, kept as its number) `n` times."""
        self.hits.setdefault(int(fid), []).extend([(tiles, detail)] * n)

    def drop(self, fid: int, reason: str, by: int | None) -> None:
        self.excluded.append(Excluded(FANS[fid], reason, None if by is None else int(by)))

    @property
    def total(self) -> int:
        return sum(FANS[f].points * len(v) for f, v in self.hits.items())
