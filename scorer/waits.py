"""Which tiles complete a hand (听牌) and whether a hand is complete.

Both questions reduce to `forms.is_complete` on a count array, which is
cached, so the 34 trial tiles of a waiting hand cost little.
"""

from __future__ import annotations

from scorer.errors import ScoreError
from scorer.forms import KNITTED, ORPHANS, check_hand, counts_of, is_complete
from scorer.hand import Hand
from scorer.tiles import is_suited, suit, suited


def is_winning(hand: Hand) -> bool:
    """Whether the declared melds plus concealed tiles and winning tile form a winning hand.

    A hand of the wrong size is simply not winning; a hand holding something
    that is not a playing tile raises ScoreError.
    """
    try:
        check_hand(hand.melds, hand.concealed, hand.winning_tile, 14)
    except ScoreError as err:
        if err.code == "wrong_tile_count":
            return False
        raise
    tiles = list(hand.concealed)
    if hand.winning_tile is not None:
        tiles.append(hand.winning_tile)
    return is_complete(counts_of(tiles), len(hand.melds))


def winning_tiles(hand13: Hand) -> list[int]:
    """Every tile index that completes `hand13` (13 tiles, no winning tile).

    Tiles of which all four copies are already in the hand (melds included)
    are left out: they cannot be won on.
    """
    check_hand(hand13.melds, hand13.concealed, hand13.winning_tile, 13)
    concealed = list(hand13.concealed)
    if hand13.winning_tile is not None:
        concealed.append(hand13.winning_tile)
    return _waits(tuple(counts_of(concealed)), counts_of(hand13.all_tiles), len(hand13.melds))


def _candidates(concealed: tuple[int, ...], nmelds: int) -> list[int]:
    """Tiles that could possibly complete the hand, to skip hopeless trials.

    Sets and pairs need a tile equal or within two ranks of a held tile;
    only the special forms (thirteen orphans, honors and knitted, knitted
    straight) can be completed by a tile far from the others.
    """
    held = [t for t in range(34) if concealed[t]]
    if nmelds == 0 and all(concealed[t] <= 1 for t in held):
        return list(range(34))  # 全不靠 / 七星不靠 may wait on anything
    cand: set[int] = set(held)
    for t in held:
        if is_suited(t):
            lo, hi = suited(suit(t), 1), suited(suit(t), 9)
            cand.update(range(max(lo, t - 2), min(hi, t + 2) + 1))
    if nmelds == 0 and all(t in ORPHANS for t in held):
        cand.update(ORPHANS)
    if nmelds <= 1:
        for straight in KNITTED:
            if sum(1 for t in straight if concealed[t]) >= 8:
                cand.update(straight)
    return sorted(cand)


def _waits(concealed: tuple[int, ...], everything: tuple[int, ...], nmelds: int) -> list[int]:
    out = []
    c = list(concealed)
    for t in _candidates(concealed, nmelds):
        if everything[t] >= 4:
            continue
        c[t] += 1
        if is_complete(tuple(c), nmelds):
            out.append(t)
        c[t] -= 1
    return out


def only_wait(
    concealed: tuple[int, ...], everything: tuple[int, ...], nmelds: int, tile: int
) -> bool:
    """Whether `tile` is the one and only tile that completes the hand (stops early)."""
    c = list(concealed)
    for t in _candidates(concealed, nmelds):
        if t == tile or everything[t] >= 4:
            continue
        c[t] += 1
        done = is_complete(tuple(c), nmelds)
        c[t] -= 1
        if done:
            return False
    c[tile] += 1
    return everything[tile] < 4 and is_complete(tuple(c), nmelds)
