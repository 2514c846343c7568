"""Tile codes of CONTRACTS.md and the integer indices the engine works with.

The 34 playing tiles are indexed 0-33 so a hand can be counted in a plain
list: characters 0-8, dots 9-17, bamboo 18-26, winds E S W N 27-30,
dragons C F P 31-33. Flowers/seasons (34-41) and the face-down back (42)
are not playing tiles but the recognizer reports them with the same codes.
"""

from __future__ import annotations

SUITS = "mps"
WINDS = "ESWN"
DRAGONS = "CFP"

NUM_KINDS = 34
FLOWER_CODES = tuple(f"{i}f" for i in range(1, 9))
BACK = "back"

#: every code in index order: 0-33 playing tiles, 34-41 flowers, 42 back
CODES: tuple[str, ...] = (
    tuple(f"{n}{s}" for s in SUITS for n in range(1, 10))
    + tuple(WINDS)
    + tuple(DRAGONS)
    + FLOWER_CODES
    + (BACK,)
)
INDEX: dict[str, int] = {code: i for i, code in enumerate(CODES)}

FLOWER_FIRST = 34
BACK_INDEX = 42

ZH_NAMES: tuple[str, ...] = (
    tuple(f"{n}万" for n in "一二三四五六七八九")
    + tuple(f"{n}饼" for n in "一二三四五六七八九")
    + tuple(f"{n}条" for n in "一二三四五六七八九")
    + ("东", "南", "西", "北", "中", "发", "白")
    + ("梅", "兰", "菊", "竹", "春", "夏", "秋", "冬")
    + ("牌背",)
)


def code(tile: int) -> str:
    """The contract code of a tile index."""
    return CODES[tile]


def index(tile_code: str) -> int:
    """The index of a contract code; raises KeyError for an unknown code."""
    return INDEX[tile_code]


def is_playing(tile: int) -> bool:
    """One of the 34 tiles a hand is made of (no flower, no back)."""
    return 0 <= tile < NUM_KINDS


def is_suited(tile: int) -> bool:
    return 0 <= tile < 27


def suit(tile: int) -> int:
    """0 characters, 1 dots, 2 bamboo; only for suited tiles."""
    return tile // 9


def rank(tile: int) -> int:
    """1-9 for suited tiles."""
    return tile % 9 + 1


def is_honor(tile: int) -> bool:
    return 27 <= tile < 34


def is_wind(tile: int) -> bool:
    return 27 <= tile < 31


def is_dragon(tile: int) -> bool:
    return 31 <= tile < 34


def is_terminal(tile: int) -> bool:
    return is_suited(tile) and rank(tile) in (1, 9)


def is_terminal_or_honor(tile: int) -> bool:
    return is_terminal(tile) or is_honor(tile)


def is_simple(tile: int) -> bool:
    """A suited tile of rank 2-8 (断幺's tiles)."""
    return is_suited(tile) and 2 <= rank(tile) <= 8


def is_flower(tile: int) -> bool:
    return FLOWER_FIRST <= tile < BACK_INDEX


def suited(suit_index: int, rank_1_to_9: int) -> int:
    """Index of the suited tile of a suit (0 m, 1 p, 2 s) and rank 1-9."""
    return suit_index * 9 + rank_1_to_9 - 1


def tiles_of(text: str) -> frozenset[int]:
    """The tiles of space-separated codes, e.g. `tiles_of("2s 3s F")`."""
    return frozenset(INDEX[c] for c in text.split())


def wind(letter: str) -> int:
    """Index of a wind tile from its letter E/S/W/N."""
    return INDEX[letter]


#: the seven honor tiles, winds then dragons
HONOR_TILES: tuple[int, ...] = tuple(t for t in range(NUM_KINDS) if is_honor(t))
