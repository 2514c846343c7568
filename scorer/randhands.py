"""Random valid winning hands for the differential test and the benchmark.

Uniformly random tiles almost never make the hands that matter (flushes,
dragon pungs, 九莲宝灯, 组合龙 ...), so each hand is built from a *theme*:
a family of fans or a special winning form, then its sets are randomly
declared (chow/pung claimed from a seat, kongs concealed, melded or
promoted) and its flags drawn among those the hand allows. Every hand
returned passes `scorer.request.check_situation` and has at most 4 copies
of any tile; the hands are winning by construction.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from scorer.hand import Hand, Meld, MeldKind, Situation
from scorer.request import check_situation

# A "set" while building: ("chow", lowest tile) / ("pung", tile); pair is a tile.
Set = tuple[str, int]

WINDS = [27, 28, 29, 30]
DRAGONS = [31, 32, 33]
HONORS = WINDS + DRAGONS
TERMINALS = [0, 8, 9, 17, 18, 26]
GREEN = [19, 20, 21, 23, 25, 32]  # 2 3 4 6 8 s, 发
REVERSIBLE = [9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33]  # 推不倒


def _t(suit: int, rank: int) -> int:
    return suit * 9 + rank - 1


@dataclass
class Draft:
    """A winning hand before declaring melds: sets, pair, or a special form."""

    sets: list[Set]
    pair: int | None = None
    special: list[int] | None = None  # 14 tiles of a special form (no melds)
    knitted: list[int] | None = None  # the 9 tiles of a 组合龙 (with 1 set + pair)


# -- sets from tile pools -----------------------------------------------------------


def _chows_in(pool: set[int]) -> list[int]:
    return [t for t in range(27) if t % 9 <= 6 and {t, t + 1, t + 2} <= pool]


def _pool_sets(rng: random.Random, pool: list[int], chow_bias: float = 0.5) -> Draft:
    pset = set(pool)
    chows = _chows_in(pset)
    sets: list[Set] = []
    for _ in range(4):
        if chows and rng.random() < chow_bias:
            sets.append(("chow", rng.choice(chows)))
        else:
            sets.append(("pung", rng.choice(pool)))
    return Draft(sets, rng.choice(pool))


def _suit_pool(suits: list[int], ranks: range | list[int] = range(1, 10)) -> list[int]:
    return [_t(s, r) for s in suits for r in ranks]


def theme_random(rng: random.Random) -> Draft:
    return _pool_sets(rng, list(range(34)), rng.choice([0.3, 0.6, 0.8]))


def theme_pools(rng: random.Random) -> Draft:
    """Flushes, honors, terminals, simples, 全大/中/小, 大于五/小于五, green, reversible."""
    s = rng.randrange(3)
    pools: list[tuple[list[int], float]] = [
        (_suit_pool([s]), 0.6),  # 清一色
        (_suit_pool([s]) + HONORS, 0.5),  # 混一色
        (HONORS, 0.0),  # 字一色
        (TERMINALS + HONORS, 0.0),  # 混幺九
        (TERMINALS, 0.0),  # 清幺九
        (_suit_pool([0, 1, 2], range(2, 9)), 0.6),  # 断幺
        (_suit_pool([0, 1, 2], [2, 4, 6, 8]), 0.0),  # 全双刻
        (_suit_pool([0, 1, 2], [7, 8, 9]), 0.5),  # 全大
        (_suit_pool([0, 1, 2], [4, 5, 6]), 0.5),  # 全中
        (_suit_pool([0, 1, 2], [1, 2, 3]), 0.5),  # 全小
        (_suit_pool([0, 1, 2], range(6, 10)), 0.5),  # 大于五
        (_suit_pool([0, 1, 2], range(1, 5)), 0.5),  # 小于五
        (GREEN, 0.5),  # 绿一色
        (REVERSIBLE, 0.5),  # 推不倒
        (_suit_pool([s, (s + 1) % 3]) + WINDS, 0.5),  # 缺一门
        (_suit_pool([0, 1, 2]), 0.9),  # 无字, 平和
    ]
    pool, bias = rng.choice(pools)
    return _pool_sets(rng, pool, bias)


def theme_chow_shapes(rng: random.Random) -> Draft:
    """一般高 三同顺 四同顺 步高 清龙 花龙 三色三同顺 三色三步高 老少副 双龙会."""
    s = rng.randrange(3)
    a, b, c = rng.sample(range(3), 3)
    r = rng.randint(1, 7)
    step = rng.choice([1, 2])
    kind = rng.randrange(9)
    if kind == 0:  # same chow 2-4 times
        n = rng.randint(2, 4)
        sets = [("chow", _t(s, r))] * n
    elif kind == 1:  # shifted chows, one suit
        n = rng.randint(3, 4)
        start = rng.randint(1, 7 - step * (n - 1))
        sets = [("chow", _t(s, start + step * i)) for i in range(n)]
    elif kind == 2:  # pure straight
        sets = [("chow", _t(s, 1)), ("chow", _t(s, 4)), ("chow", _t(s, 7))]
    elif kind == 3:  # mixed straight
        sets = [("chow", _t(a, 1)), ("chow", _t(b, 4)), ("chow", _t(c, 7))]
    elif kind == 4:  # mixed triple chow
        sets = [("chow", _t(a, r)), ("chow", _t(b, r)), ("chow", _t(c, r))]
    elif kind == 5:  # mixed shifted chows
        r = rng.randint(1, 5)
        sets = [("chow", _t(a, r)), ("chow", _t(b, r + 1)), ("chow", _t(c, r + 2))]
    elif kind == 6:  # two terminal chows, pure or mixed
        sets = [("chow", _t(s, 1)), ("chow", _t(s, 7))]
        if rng.random() < 0.5:
            sets += [("chow", _t(s, 1)), ("chow", _t(s, 7))]
            return Draft(sets, _t(s, 5))  # 一色双龙会
        sets += [("chow", _t(b if b != s else a, 1)), ("chow", _t(b if b != s else a, 7))]
        other = ({0, 1, 2} - {s, b if b != s else a}).pop()
        return Draft(sets, _t(other, 5))  # 三色双龙会
    elif kind == 7:  # short straight / 喜相逢 pieces
        sets = [("chow", _t(s, r)), ("chow", _t(s, min(r + 3, 7))), ("chow", _t(b, r))]
    else:  # four chows, random
        sets = [("chow", _t(rng.randrange(3), rng.randint(1, 7))) for _ in range(4)]
    fill = _pool_sets(rng, list(range(34)), 0.5)
    sets = (sets + fill.sets)[:4]
    return Draft(sets, fill.pair)


def theme_pung_shapes(rng: random.Random) -> Draft:
    """节高 三同刻 双同刻 风/箭 pungs: 大四喜 小四喜 大三元 小三元 三风刻 双箭刻 ..."""
    s = rng.randrange(3)
    kind = rng.randrange(7)
    r = rng.randint(1, 6)
    pair: int | None = None
    if kind == 0:  # shifted pungs
        n = rng.randint(3, 4)
        r = rng.randint(1, 10 - n)
        sets = [("pung", _t(s, r + i)) for i in range(n)]
    elif kind == 1:  # same rank pungs in 2-3 suits
        n = rng.randint(2, 3)
        sets = [("pung", _t(x, r)) for x in rng.sample(range(3), n)]
    elif kind == 2:  # mixed shifted pungs
        a, b, c = rng.sample(range(3), 3)
        sets = [("pung", _t(a, r)), ("pung", _t(b, r + 1)), ("pung", _t(c, r + 2))]
    elif kind == 3:  # winds
        n = rng.randint(3, 4)
        ws = rng.sample(WINDS, 4)
        sets = [("pung", w) for w in ws[:n]]
        if n == 3 and rng.random() < 0.6:
            pair = ws[3]  # 小四喜
    elif kind == 4:  # dragons
        n = rng.randint(2, 3)
        ds = rng.sample(DRAGONS, 3)
        sets = [("pung", d) for d in ds[:n]]
        if n == 2 and rng.random() < 0.6:
            pair = ds[2]  # 小三元
    elif kind == 5:  # all pungs
        sets = [("pung", x) for x in rng.sample(range(34), 4)]
    else:  # seat/round wind pungs with anything
        sets = [("pung", rng.choice(WINDS))]
    fill = _pool_sets(rng, list(range(34)), 0.4)
    sets = (sets + fill.sets)[:4]
    return Draft(sets, fill.pair if pair is None else pair)


def theme_plain(rng: random.Random) -> Draft:
    """Scattered chows of all three suits and an honor pair: the hands that score
    almost nothing (无番和 among them)."""
    sets: list[Set] = []
    for suit in rng.sample(range(3), 3) + [rng.randrange(3)]:
        if rng.random() < 0.8:
            sets.append(("chow", _t(suit, rng.randint(2, 6))))
        else:
            sets.append(("pung", _t(suit, rng.randint(2, 8))))
    return Draft(sets, rng.choice(HONORS))


def theme_nine_gates(rng: random.Random) -> Draft:
    s = rng.randrange(3)
    tiles = [_t(s, r) for r in (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9)]
    return Draft([], special=tiles + [_t(s, rng.randint(1, 9))])


def theme_seven_pairs(rng: random.Random) -> Draft:
    kind = rng.randrange(4)
    if kind == 0:  # 连七对
        s = rng.randrange(3)
        start = rng.randint(1, 3)
        pairs = [_t(s, start + i) for i in range(7)]
    elif kind == 1:  # one suit (清一色 七对)
        s = rng.randrange(3)
        pairs = rng.sample(_suit_pool([s]), 7)
    elif kind == 2:  # honors and terminals
        pairs = rng.sample(TERMINALS + HONORS, 7)
    else:
        pairs = rng.sample(range(34), 7)
        if rng.random() < 0.2:
            pairs[1] = pairs[0]  # four alike as two pairs
    return Draft([], special=[p for p in pairs for _ in range(2)])


def theme_thirteen_orphans(rng: random.Random) -> Draft:
    tiles = TERMINALS + HONORS
    return Draft([], special=tiles + [rng.choice(tiles)])


def _knitted(rng: random.Random) -> list[int]:
    """147/258/369 each in a different suit."""
    suits = rng.sample(range(3), 3)
    return [
        _t(s, r) for s, rs in zip(suits, ((1, 4, 7), (2, 5, 8), (3, 6, 9)), strict=True) for r in rs
    ]


def theme_honors_knitted(rng: random.Random) -> Draft:
    """全不靠 (14 of the 16 knitted+honor tiles) or 七星不靠 (all 7 honors)."""
    knit = _knitted(rng)
    seven_stars = rng.random() < 0.4
    tiles = HONORS + rng.sample(knit, 7) if seven_stars else rng.sample(knit + HONORS, 14)
    return Draft([], special=tiles)


def theme_knitted_straight(rng: random.Random) -> Draft:
    fill = _pool_sets(rng, list(range(34)), 0.5)
    return Draft(fill.sets[:1], fill.pair, knitted=_knitted(rng))


THEMES: tuple[tuple[Callable[[random.Random], Draft], float], ...] = (
    (theme_random, 3.0),
    (theme_pools, 4.0),
    (theme_chow_shapes, 3.0),
    (theme_pung_shapes, 3.0),
    (theme_plain, 1.0),
    (theme_nine_gates, 0.3),
    (theme_seven_pairs, 1.0),
    (theme_thirteen_orphans, 0.3),
    (theme_honors_knitted, 0.6),
    (theme_knitted_straight, 0.8),
)


# -- declaring melds and drawing flags -------------------------------------------------


def _declare(rng: random.Random, draft: Draft) -> tuple[list[Meld], list[int]]:
    """Split a draft into declared melds and the concealed tiles (winning tile included)."""
    if draft.special is not None:
        return [], list(draft.special)
    p_show = rng.choice([0.0, 0.0, 0.3, 0.6, 1.0])
    p_kong = rng.choice([0.0, 0.0, 0.15, 0.5, 1.0])
    melds: list[Meld] = []
    hidden: list[int] = list(draft.knitted or [])
    for kind, tile in draft.sets:
        if kind == "chow":
            if rng.random() < p_show:
                melds.append(Meld(MeldKind.CHOW, tile, rng.randint(1, 3)))
            else:
                hidden += [tile, tile + 1, tile + 2]
        elif rng.random() < p_kong:
            how = rng.randrange(3)
            if how == 0:
                melds.append(Meld(MeldKind.KONG, tile, 0))
            else:
                melds.append(Meld(MeldKind.KONG, tile, rng.randint(1, 3), promoted=how == 2))
        elif rng.random() < p_show:
            melds.append(Meld(MeldKind.PUNG, tile, rng.randint(1, 3)))
        else:
            hidden += [tile] * 3
    assert draft.pair is not None
    hidden += [draft.pair] * 2
    return melds, hidden


def _flags(rng: random.Random, hand: Hand) -> Situation:
    win = hand.winning_tile
    self_drawn = rng.random() < 0.5
    copies = sum(t == win for t in hand.all_tiles)
    hidden = hand.concealed.count(win)
    has_kong = any(m.kind is MeldKind.KONG for m in hand.melds)
    kong = rng.random() < 0.35 and (has_kong if self_drawn else copies == 1)
    last = not kong and rng.random() < 0.15
    fourth = hidden == 0 and rng.random() < 0.25
    return Situation(
        flowers=rng.choice([0, 0, 0, 0, 1, 2, 3, 8]),
        self_drawn=self_drawn,
        fourth_tile=fourth,
        kong=kong,
        last_tile=last,
        seat_wind=rng.choice(WINDS),
        round_wind=rng.choice(WINDS),
    )


def random_hand(rng: random.Random) -> tuple[Hand, Situation]:
    """One random valid winning hand and a situation consistent with it."""
    themes, weights = zip(*THEMES, strict=True)
    while True:
        draft = rng.choices(themes, weights)[0](rng)
        melds, hidden = _declare(rng, draft)
        counts = Counter(t for m in melds for t in m.tiles) + Counter(hidden)
        if max(counts.values()) > 4:
            continue
        rng.shuffle(hidden)
        hand = Hand(tuple(melds), tuple(sorted(hidden[:-1])), hidden[-1])
        return hand, check_situation(hand, _flags(rng, hand))


def random_hands(n: int, seed: int = 0) -> Iterator[tuple[Hand, Situation]]:
    rng = random.Random(seed)
    for _ in range(n):
        yield random_hand(rng)


def random_waiting_hands(n: int, seed: int = 0) -> Iterator[Hand]:
    """13-tile hands made by taking a concealed tile out of random winning hands."""
    rng = random.Random(seed)
    for _ in range(n):
        hand, _ = random_hand(rng)
        tiles = list(hand.concealed) + [hand.winning_tile]
        tiles.pop(rng.randrange(len(tiles)))
        yield Hand(hand.melds, tuple(sorted(tiles)), None)


def to_request(hand: Hand, sit: Situation) -> dict:
    """The score request (CONTRACTS.md) of a hand and situation."""
    from scorer.notation import format_hand

    letters = "ESWN"
    return {
        "hand": format_hand(hand),
        "flowers": sit.flowers,
        "self_drawn": sit.self_drawn,
        "fourth_tile": sit.fourth_tile,
        "kong": sit.kong,
        "last_tile": sit.last_tile,
        "seat_wind": letters[sit.seat_wind - 27],
        "round_wind": letters[sit.round_wind - 27],
    }
