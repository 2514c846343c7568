"""A whole table at the moment of a win: the winner's hand among everything else.

The camera sits at seat 0, whose player has won and laid the hand down at
the table's near edge. Around the table lie the four walls (face down, two
high, partly drawn), four discard ponds (rows of six, each turned towards its
player) and the other three players' concealed hands (standing, pushed over
face up, or lying face down) with their exposed melds. Every tile belongs to
one 136-tile set (plus flowers), so the copies of a tile on the table never
exceed four and whether the winning tile was the last of its kind (和绝张)
can be counted from the scene.

World units are tile widths; seat `s` sits at angle `90 * s` degrees (1 to
the camera player's right, 2 opposite, 3 to the left).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from datasets.scene.hands import FLOWERS, hand_layout, meld_spec, random_flowers, random_hand
from datasets.scene.types import TILE_D, TILE_W, Layout, Placement
from scorer.hand import Meld, MeldKind
from scorer.tiles import CODES

#: distance from the table's centre to each line of tiles, in tile widths
WALL_V, POND_V, HAND_V, WINNER_V = -9.5, -6.6, -12.8, -11.8
#: stacks in one player's wall (4 x 18 x 2 = 144 tiles)
WALL_STACKS = 18
#: discards per row in a pond
POND_ROW = 6
#: ways another player's concealed hand lies: standing, pushed over face up, face down
HAND_POSES = {"standing": 0.6, "face_up": 0.2, "face_down": 0.2}
#: share of scenes whose winning tile's other copies are all discarded (it is then the last
#: of its kind unless the hand holds one: about a quarter of the tables)
FOURTH_TILE_P = 0.7
#: kinds of tile groups other than the winner's hand (the `ignored` kinds of the contract)
OTHER_GROUPS = ("discards", "wall", "other_hand", "other_meld")


class _Pool:
    """The tiles not yet placed: four of each kind, one of each flower."""

    def __init__(self, rng: np.random.Generator, available: set[str]) -> None:
        self.rng = rng
        self.left = Counter({c: 4 for c in CODES[:34] if c in available})

    def take(self, code: str) -> bool:
        if self.left[code] <= 0:
            return False
        self.left[code] -= 1
        return True

    def draw(self) -> str:
        codes = [c for c, n in self.left.items() if n > 0]
        if not codes:  # a style without enough faces: repeat what there is
            return str(self.rng.choice(sorted(self.left)))
        weights = np.array([self.left[c] for c in codes], float)
        code = str(self.rng.choice(codes, p=weights / weights.sum()))
        self.left[code] -= 1
        return code


def _turn(u: float, v: float, seat: int) -> tuple[float, float]:
    """Seat-local (u to the player's right, v away from the player) to table coordinates."""
    a = np.radians(90 * seat)
    return float(np.cos(a) * u - np.sin(a) * v), float(np.sin(a) * u + np.cos(a) * v)


def _place(code: str, u: float, v: float, seat: int, group: str, **kw) -> Placement:
    x, y = _turn(u, v, seat)
    angle = (90 * seat + kw.pop("turn", 0.0)) % 360
    return Placement(code, x, y, angle, group=group, seat=seat, **kw)


def _winner(rng: np.random.Generator, available: set[str], pool: _Pool, mix: str) -> Layout:
    """The winner's laid-down hand at the near edge, its tiles taken from the pool."""
    hand = random_hand(rng, available, mix)
    layout = hand_layout(rng, hand, random_flowers(rng, available))
    for t in layout.tiles:
        if t.true_code not in FLOWERS:
            pool.take(t.true_code)
    xs = [t.x for t in layout.tiles]
    shift_x = -(min(xs) + max(xs)) / 2 + float(rng.uniform(-1.5, 1.5))
    for t in layout.tiles:
        t.x += shift_x
        t.y += WINNER_V
    layout.kind = "table"
    layout.winning = hand.winning_tile
    return layout


def _winner_shown(layout: Layout, code: str) -> int:
    """Copies of `code` the winner's exposed melds show (a concealed kong's backs do not)."""
    return sum(
        1
        for t in layout.tiles
        if t.group.startswith("meld") and not t.face_down and t.true_code == code
    )


def _discard_codes(rng: np.random.Generator, pool: _Pool, forced: list[str]) -> list[list[str]]:
    """Each player's discards, the `forced` tiles among them."""
    turns = int(rng.integers(3, 19))  # the players discard in turn: their ponds differ by one
    ponds = [
        [pool.draw() for _ in range(turns - (seat > int(rng.integers(4))))] for seat in range(4)
    ]
    for code in forced:
        ponds[int(rng.integers(4))].insert(int(rng.integers(0, 6)), code)
    return ponds


def _last_copies(rng: np.random.Generator, pool: _Pool, winning: str | None) -> list[str]:
    """With FOURTH_TILE_P, the winning tile's copies left in the set, taken to be discarded
    (so it is the last of its kind when no copy is held in the hand)."""
    if winning is None or rng.random() >= FOURTH_TILE_P:
        return []
    out = []
    while pool.take(winning):
        out.append(winning)
    return out


def _pond(tiles: list[Placement], codes: list[str], seat: int, gap: float) -> None:
    for i, code in enumerate(codes):
        row, col = divmod(i, POND_ROW)
        u = (col - (POND_ROW - 1) / 2) * (TILE_W + gap)
        v = POND_V + row * (TILE_D + gap)
        tiles.append(_place(code, u, v, seat, "discards"))


def _walls(rng: np.random.Generator, tiles: list[Placement], pool: _Pool) -> None:
    """What is left of the wall: the pool's tiles as one run of two-high stacks around the
    four sides (drawn from one end), some sides askew, a few single stacks at its ends."""
    left = sum(pool.left.values())
    ring = 4 * WALL_STACKS
    start = int(rng.integers(ring))
    shove = rng.uniform(-0.6, 0.6, 4)  # each side pushed in a little askew
    k = 0
    while left > 0:
        seat, stack = divmod((start + k) % ring, WALL_STACKS)
        u = (stack - (WALL_STACKS - 1) / 2) * TILE_W
        for level in (0, 1)[: min(2, left)]:
            tiles.append(
                _place(
                    pool.draw(), u, WALL_V + shove[seat], seat, "wall", face_down=True, level=level
                )
            )
        left -= min(2, left)
        k += 1


def _other_hand(rng: np.random.Generator, tiles: list[Placement], pool: _Pool, seat: int) -> None:
    """A player's concealed tiles and exposed melds (taken from the pool)."""
    n_melds = int(rng.choice(4, p=[0.35, 0.35, 0.2, 0.1]))
    pose = str(rng.choice(list(HAND_POSES), p=list(HAND_POSES.values())))
    n = 13 - 3 * n_melds
    u = -(n * TILE_W + n_melds * (3 * TILE_W + 1.2)) / 2  # the hand and its melds centred
    for _ in range(n):
        tiles.append(
            _place(
                pool.draw(),
                u + TILE_W / 2,
                HAND_V + (0.0 if pose == "standing" else 0.3),
                seat,
                "other_hand",
                standing=pose == "standing",
                face_down=pose == "face_down",
            )
        )
        u += TILE_W + 0.02
    u += float(rng.uniform(0.6, 1.5))
    for _ in range(n_melds):
        u = _other_meld(rng, tiles, pool, seat, u) + float(rng.uniform(0.2, 0.6))


def _other_meld(
    rng: np.random.Generator, tiles: list[Placement], pool: _Pool, seat: int, u: float
) -> float:
    """A pung or chow claimed by `seat`, its claimed tile sideways; returns where it ends."""
    meld = _meld(rng, pool)
    for spec in meld_spec(rng, meld) if meld is not None else []:
        if spec["sideways"]:
            tiles.append(
                _place(spec["code"], u + TILE_D / 2, HAND_V, seat, "other_meld", turn=90.0,
                       sideways=True)
            )  # fmt: skip
            u += TILE_D + 0.02
        else:
            tiles.append(_place(spec["code"], u + TILE_W / 2, HAND_V, seat, "other_meld"))
            u += TILE_W + 0.02
    return u


def _meld(rng: np.random.Generator, pool: _Pool) -> Meld | None:
    """A chow or pung whose tiles the pool still holds, taken from it (None when no three
    tiles of the pool make one)."""
    for _ in range(30):
        kind = CODES.index(pool.draw())
        chow = rng.random() < 0.5 and kind < 27 and kind % 9 < 7
        rest = [kind + 1, kind + 2] if chow else [kind, kind]
        if all(pool.left[CODES[t]] >= rest.count(t) for t in rest):
            for t in rest:
                pool.take(CODES[t])
            claimed = int(rng.integers(1, 4))
            return Meld(MeldKind.CHOW if chow else MeldKind.PUNG, kind, claimed)
        pool.left[CODES[kind]] += 1
    left = [c for c, n in pool.left.items() if n >= 3]
    if not left:  # the set has no three of a kind left: this player claimed nothing more
        return None
    code = left[int(rng.integers(len(left)))]
    for _ in range(3):
        pool.take(code)
    return Meld(MeldKind.PUNG, CODES.index(code), 1)


def table_layout(rng: np.random.Generator, available: set[str], mix: str = "plain") -> Layout:
    """A whole table with the camera player's winning hand laid down (`mix`: its hand
    mix, `datasets.scene.hands.random_hand`)."""
    pool = _Pool(rng, available)
    layout = _winner(rng, available, pool, mix)
    winning = CODES[layout.winning] if layout.winning is not None else None
    tiles = layout.tiles
    forced = _last_copies(rng, pool, winning)
    for seat in range(1, 4):  # before the ponds, while the set still holds their melds
        _other_hand(rng, tiles, pool, seat)
    for seat, codes in enumerate(_discard_codes(rng, pool, forced)):
        _pond(tiles, codes, seat, float(rng.uniform(0.0, 0.08)))
    _walls(rng, tiles, pool)
    if winning is not None:
        shown = _winner_shown(layout, winning) + sum(
            1 for t in tiles if t.group in ("discards", "other_meld") and t.true_code == winning
        )
        layout.fourth_tile = shown >= 3
    return layout
