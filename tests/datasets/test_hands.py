"""Random hands are complete and legal, and laid out as the rules describe."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from datasets.scene.hands import hand_layout, random_flowers, random_hand
from datasets.scene.layouts import LAYOUTS
from scorer.hand import MeldKind
from scorer.notation import format_hand, parse_hand
from scorer.tiles import CODES

ALL = set(CODES) - {"back"}


@pytest.mark.parametrize("seed", range(6))
def test_random_hands_are_complete_and_legal(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(100):
        hand = random_hand(rng, ALL)
        assert parse_hand(format_hand(hand)) == hand
        kongs = sum(m.kind is MeldKind.KONG for m in hand.melds)
        assert len(hand.all_tiles) == 14 + kongs
        assert max(Counter(hand.all_tiles).values()) <= 4


def test_hands_only_use_tiles_the_style_has() -> None:
    rng = np.random.default_rng(3)
    no_dragons = ALL - {"C", "F", "P"}
    for _ in range(100):
        assert not {CODES[t] for t in random_hand(rng, no_dragons).all_tiles} & {"C", "F", "P"}
    assert random_flowers(rng, no_dragons - {"1f"}) == []


def test_promoted_mix_gives_legal_hands_rich_in_promoted_kongs() -> None:
    """`--kind promoted` trains the stacked-tile model: its hands stay complete and legal,
    and hold many times the promoted kongs (加杠) of plain hands."""
    counts = {}
    for mix in ("plain", "promoted"):
        rng = np.random.default_rng(5)
        n = 0
        for _ in range(300):
            hand = random_hand(rng, ALL, mix)
            kongs = sum(m.kind is MeldKind.KONG for m in hand.melds)
            assert len(hand.all_tiles) == 14 + kongs
            assert max(Counter(hand.all_tiles).values()) <= 4
            n += sum(m.promoted for m in hand.melds)
        counts[mix] = n
    assert counts["promoted"] > 5 * max(counts["plain"], 1)
    assert counts["promoted"] >= 60


@pytest.mark.parametrize("seed", range(40))
def test_claimed_tile_lies_where_the_rules_say(seed: int) -> None:
    rng = np.random.default_rng(seed)
    hand = random_hand(rng, ALL)
    layout = hand_layout(rng, hand, random_flowers(rng, ALL))
    for m, meld in zip(layout.melds, hand.melds, strict=True):
        tiles = sorted((layout.tiles[i] for i in m["tiles"]), key=lambda t: (t.x, t.level))
        flat = [t for t in tiles if t.level == 0]
        side = [k for k, t in enumerate(flat) if t.sideways]
        if meld.kind is MeldKind.CHOW:
            (k,) = side
            claimed = CODES[meld.tile + meld.claimed - 1]
            assert flat[k].true_code == claimed
        elif meld.concealed:
            assert side == [] and flat[0].face_down and flat[-1].face_down
        else:
            (k,) = side
            if meld.claimed == 1:
                assert k == 0
            elif meld.claimed == 3:
                assert k == len(flat) - 1
            else:
                assert 0 < k < len(flat) - 1
            stacked = [t for t in tiles if t.level == 1]
            assert len(stacked) == int(meld.promoted)
            if stacked:
                assert (stacked[0].x, stacked[0].y) == (flat[k].x, flat[k].y)


@pytest.mark.parametrize("kind", sorted(LAYOUTS))
def test_other_layouts_keep_tile_counts(kind: str) -> None:
    rng = np.random.default_rng(7)
    for _ in range(20):
        layout = LAYOUTS[kind](rng, sorted(ALL))
        assert layout.tiles
        assert max(Counter(t.true_code for t in layout.tiles).values()) <= 4


def test_a_set_laid_out_to_teach_it_reads_block_by_block() -> None:
    """`--kind set` lays one tile of each kind out as `vision.tileset` reads it: in reading
    order (rows from the far one, each from the left) a sequence of whole blocks, the
    flowers only where the style has them."""
    from scorer.tiles import CODES as ALL_CODES
    from vision.tileset import layouts

    rng = np.random.default_rng(3)
    sizes = Counter()
    for style in (ALL, ALL - {f"{n}f" for n in range(1, 9)}):
        for _ in range(20):
            layout = LAYOUTS["set"](rng, sorted(style))
            rows: list[list] = []
            for t in sorted(layout.tiles, key=lambda t: -t.y):  # rows lie a tile length apart
                if rows and rows[-1][-1].y - t.y < 0.5:
                    rows[-1].append(t)
                else:
                    rows.append([t])
            codes = tuple(t.true_code for row in rows for t in sorted(row, key=lambda t: t.x))
            allowed = {tuple(ALL_CODES[i] for i in row) for row in layouts(len(codes))}
            assert codes in allowed
            assert all(not t.face_down for t in layout.tiles)
            sizes[len(codes)] += 1
            if len(style) < len(ALL):
                assert len(codes) == 34
    assert set(sizes) == {34, 42}


def test_a_style_without_a_face_for_every_playing_tile_lays_out_no_set() -> None:
    """A set photo shows every playing tile: a style without a 白 (one training style)
    cannot render one, and says so rather than drawing a face it lacks."""
    with pytest.raises(ValueError, match="'P'"):
        LAYOUTS["set"](np.random.default_rng(0), sorted(ALL - {"P"}))
