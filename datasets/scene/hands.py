"""Random complete hands and the way a player lays them out when declaring.

The hands are valid as tile sets (14 tiles plus one per kong, at most four
copies of a tile, four sets and a pair or a special form) but are not
required to reach 8 fans: the recognizer must read any hand on the table.
The layout follows the rules' 鸣牌的摆放: the claimed tile of a chow is laid
sideways; a pung or kong from the left / opposite / right player has its
left / middle / right tile sideways; a promoted kong (加杠) has its fourth
tile on the sideways one; concealed kongs lie face down (all four, or the
two outer ones).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from datasets.scene.types import TILE_D, TILE_W, Layout, Placement
from scorer.hand import Hand, Meld, MeldKind
from scorer.notation import format_hand
from scorer.tiles import CODES

FLOWERS = tuple(f"{n}f" for n in range(1, 9))
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def _pick_set(
    rng: np.random.Generator, counts: Counter, allowed: set[int]
) -> tuple[str, int] | None:
    """A chow (by its lowest tile) or pung that still fits the tile counts."""
    for _ in range(50):
        if rng.random() < 0.55:
            t = int(rng.choice(27))
            if t % 9 > 6:
                continue
            tiles = (t, t + 1, t + 2)
            kind = "chow"
        else:
            t = int(rng.choice(34))
            tiles = (t, t, t)
            kind = "pung"
        need = Counter(tiles)
        if all(counts[x] + n <= 4 and x in allowed for x, n in need.items()):
            counts.update(tiles)
            return kind, t
    return None


#: (share of pungs made kongs, share of exposed kongs promoted) per hand mix
KONG_SHARES = {"plain": (0.25, 0.3), "promoted": (0.8, 0.9)}


def _standard(rng: np.random.Generator, allowed: set[int], mix: str = "plain") -> Hand | None:
    kong_p, promoted_p = KONG_SHARES[mix]
    counts: Counter = Counter()
    melds: list[Meld] = []
    concealed: list[int] = []
    n_exposed = int(rng.choice(5, p=[0.3, 0.25, 0.2, 0.15, 0.1]))
    for i in range(4):
        picked = _pick_set(rng, counts, allowed)
        if picked is None:
            return None
        kind, t = picked
        exposed = i < n_exposed
        if kind == "pung" and counts[t] == 3 and rng.random() < kong_p:
            counts[t] += 1
            if not exposed or rng.random() < 0.3:
                melds.append(Meld(MeldKind.KONG, t, 0))
            else:
                melds.append(
                    Meld(MeldKind.KONG, t, int(rng.integers(1, 4)), bool(rng.random() < promoted_p))
                )
        elif not exposed:
            concealed += [t, t + 1, t + 2] if kind == "chow" else [t] * 3
        elif kind == "chow":
            melds.append(Meld(MeldKind.CHOW, t, int(rng.integers(1, 4))))
        else:
            melds.append(Meld(MeldKind.PUNG, t, int(rng.integers(1, 4))))
    pairs = [t for t in allowed if t < 34 and counts[t] <= 2]
    if not pairs:
        return None
    p = int(rng.choice(pairs))
    concealed += [p, p]
    return _finish(rng, melds, concealed)


def _finish(rng: np.random.Generator, melds: list[Meld], concealed: list[int]) -> Hand:
    """Pick the winning tile among the concealed ones and order the rest."""
    win = concealed.pop(int(rng.integers(len(concealed))))
    if rng.random() < 0.8:
        concealed.sort()
    else:
        rng.shuffle(concealed)
    return Hand(tuple(melds), tuple(concealed), win)


def _seven_pairs(rng: np.random.Generator, allowed: set[int]) -> Hand:
    kinds = rng.choice(sorted(allowed), size=7, replace=False)
    return _finish(rng, [], [int(t) for t in kinds for _ in range(2)])


def _thirteen_orphans(rng: np.random.Generator) -> Hand:
    tiles = list(ORPHANS) + [int(rng.choice(ORPHANS))]
    return _finish(rng, [], tiles)


def random_hand(rng: np.random.Generator, available: set[str], mix: str = "plain") -> Hand:
    """A complete hand using only tiles the art style has; `mix` "promoted" makes most
    pungs kongs and most exposed kongs promoted ones (a tile laid on the claimed one),
    which plain hands show too rarely to learn from."""
    allowed = {i for i, c in enumerate(CODES[:34]) if c in available}
    while True:
        r = rng.random()
        if r < 0.05 and allowed >= set(ORPHANS):
            return _thirteen_orphans(rng)
        if r < 0.12 and len(allowed) >= 7:
            return _seven_pairs(rng, allowed)
        hand = _standard(rng, allowed, mix)
        if hand is not None:
            return hand


def meld_spec(rng: np.random.Generator, meld: Meld) -> list[dict]:
    """The tiles of a meld left to right: code, sideways, face-down, stacked."""
    codes = [CODES[t] for t in meld.tiles]
    spec = [{"code": c, "sideways": False, "face_down": False, "stacked": False} for c in codes]
    if meld.kind is MeldKind.CHOW:
        claimed = meld.claimed - 1
        spec[claimed]["sideways"] = True
        if rng.random() < 0.4:  # claimed tile put first, the rest in order
            spec.insert(0, spec.pop(claimed))
        return spec
    if meld.concealed:
        outer_only = rng.random() < 0.4
        for i, s in enumerate(spec):
            s["face_down"] = not outer_only or i in (0, 3)
        return spec
    if meld.kind is MeldKind.KONG and meld.promoted:
        spec.pop()  # laid out as the pung it was, the fourth tile goes on top
    n = len(spec)
    if meld.claimed == 1:
        side = 0
    elif meld.claimed == 3:
        side = n - 1
    else:
        side = 1 if n == 3 or rng.random() < 0.5 else 2
    spec[side]["sideways"] = True
    if meld.kind is MeldKind.KONG and meld.promoted:
        spec.insert(
            side + 1, {"code": codes[0], "sideways": True, "face_down": False, "stacked": True}
        )
    return spec


def hand_layout(rng: np.random.Generator, hand: Hand, flowers: list[str]) -> Layout:
    """Place a declared hand: concealed row, winning tile apart, melds, flowers."""
    gap = float(rng.uniform(0.0, 0.06))
    layout = Layout(kind="hand", hand=format_hand(hand), flowers=list(flowers))
    tiles = layout.tiles

    def upright(code: str, x: float, y: float, group: str) -> float:
        tiles.append(Placement(code, x + TILE_W / 2, y + TILE_D / 2, 0.0, group=group))
        return x + TILE_W + gap

    x = 0.0
    for t in hand.concealed:
        x = upright(CODES[t], x, 0.0, "concealed")
    x += float(rng.uniform(0.3, 1.5))
    if hand.winning_tile is not None:
        x = upright(CODES[hand.winning_tile], x, 0.0, "winning")

    # melds: to the right of the hand, in a row in front, or to the left
    where = rng.choice(["right", "front", "left"], p=[0.5, 0.35, 0.15])
    meld_specs = [meld_spec(rng, m) for m in hand.melds]
    meld_width = sum(
        sum(
            TILE_D if s["sideways"] and not s["stacked"] else (0 if s["stacked"] else TILE_W)
            for s in spec
        )
        + gap * len(spec)
        + 0.4
        for spec in meld_specs
    )
    if where == "right":
        mx, my = x + float(rng.uniform(0.4, 1.5)), 0.0
    elif where == "front":
        mx, my = float(rng.uniform(-1, 3)), -TILE_D - float(rng.uniform(0.2, 1.2))
    else:
        mx, my = -meld_width - float(rng.uniform(0.5, 1.5)), 0.0
    for mi, (meld, spec) in enumerate(zip(hand.melds, meld_specs, strict=True)):
        first = len(tiles)
        for s in spec:
            if s["stacked"]:
                below = tiles[-1]
                tiles.append(
                    Placement(
                        s["code"], below.x, below.y, 90.0, sideways=True, level=1, group=f"meld{mi}"
                    )
                )
                continue
            if s["sideways"]:
                angle = 90.0 if rng.random() < 0.85 else 270.0
                tiles.append(
                    Placement(
                        s["code"],
                        mx + TILE_D / 2,
                        my + TILE_W / 2,
                        angle,
                        sideways=True,
                        group=f"meld{mi}",
                    )
                )
                mx += TILE_D + gap
            else:
                tiles.append(
                    Placement(
                        s["code"],
                        mx + TILE_W / 2,
                        my + TILE_D / 2,
                        0.0,
                        s["face_down"],
                        group=f"meld{mi}",
                    )
                )
                mx += TILE_W + gap
        mx += float(rng.uniform(0.2, 0.8))
        layout.melds.append({"meld": _meld_text(meld), "tiles": list(range(first, len(tiles)))})

    if flowers:
        fy = -TILE_D - float(rng.uniform(0.3, 1.0)) if where != "front" else my - TILE_D - 0.5
        fx = float(rng.uniform(-2.0, 2.0)) if rng.random() < 0.5 else min(t.x for t in tiles) - 1
        if rng.random() < 0.5:  # flowers to the far left of the hand row instead
            fx, fy = min(t.x for t in tiles) - len(flowers) * (TILE_W + gap) - 1.5, 0.0
        for f in flowers:
            tiles.append(Placement(f, fx + TILE_W / 2, fy + TILE_D / 2, 0.0, group="flower"))
            fx += TILE_W + gap
    return layout


def _meld_text(meld: Meld) -> str:
    return format_hand(Hand((meld,), (), None))


def random_flowers(rng: np.random.Generator, available: set[str]) -> list[str]:
    have = [f for f in FLOWERS if f in available]
    if len(have) < 8 or rng.random() < 0.35:
        return []
    n = int(rng.choice([1, 1, 2, 2, 3, 4, 5, 8]))
    return sorted(rng.choice(have, size=n, replace=False).tolist())


def meld_tiles(meta: dict, pairs: bool = False) -> list[tuple[tuple[float, ...], int, bool]]:
    """(box, label, sideways) of each face-up tile of a scene's exposed melds; label 1 for a
    tile lying on another. A tile with one lying on it is left out: the pair is one box,
    the top tile's. With `pairs`, each pair's whole extent (both tiles' boxes together) is
    one more positive: a detector may box the pair so too."""
    tiles = meta["tiles"]
    out = []
    for m in meta.get("melds", []):
        idx = m["tiles"]
        if any(tiles[i]["face_down"] for i in idx):
            continue
        under = {idx[k - 1]: i for k, i in enumerate(idx) if k and tiles[i].get("stacked")}
        for i in idx:
            t = tiles[i]
            x1, y1, x2, y2 = t["box"]
            if i in under or x2 - x1 < 8 or y2 - y1 < 8:
                continue
            out.append((tuple(t["box"]), int(bool(t.get("stacked"))), bool(t["sideways"])))
        if pairs:
            for low, top in under.items():
                a, b = tiles[low]["box"], tiles[top]["box"]
                whole = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                out.append((whole, 1, bool(tiles[top]["sideways"])))
    return out
