"""Hand notation of CONTRACTS.md: text <-> `Hand`.

The notation is the one of the most used MCR calculator so hands can be
pasted between tools: `[123p,1][345s,2][999s,3]6m6pEW1m`. Every problem
is reported as a `ScoreError` whose message names the character position
(1-based) or the tile at fault, because people type these by hand.

Chow numbers name the claimed tile by its place in the chow in ascending
order (`[576m,2]` is read as `[567m,2]`: the 6m was claimed). Kong numbers:
none or 0 concealed, 1-3 melded from that seat, 5-7 promoted (加杠) from a
pung claimed from seat 1-3.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import NoReturn

from scorer.errors import ScoreError
from scorer.hand import Hand, Meld, MeldKind
from scorer.tiles import (
    CODES,
    DRAGONS,
    INDEX,
    NUM_KINDS,
    SUITS,
    WINDS,
    is_suited,
    rank,
    suit,
    suited,
)

HONOR_LETTERS = WINDS + DRAGONS  # E S W N C F P -> 27..33
MAX_LENGTH = 300  # a full hand needs < 60 characters; refuse pasted junk early
MAX_MELDS = 4


def tile_name(tile: int) -> str:
    """The contract code of a playing tile, for messages."""
    return CODES[tile] if 0 <= tile < len(CODES) else f"#{tile}"


class _Reader:
    """One left-to-right pass over the text, collecting melds and tiles."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.melds: list[Meld] = []
        self.tiles: list[int] = []  # concealed tiles in written order
        self.digits: list[tuple[str, int]] = []  # pending digits and their positions
        self.meld_tiles: list[int] | None = None  # inside brackets
        self.meld_start = 0
        self.meld_number: str | None = None  # digits written after the meld's tiles
        self.after_comma = False
        self.comma_pos = 0

    # -- helpers -----------------------------------------------------------
    def _fail(self, message_id: str, **params: object) -> NoReturn:
        raise ScoreError(message_id, **params)

    def _flush_missing_suit(self, char: str = "", at: int = 0) -> None:
        """Digits still waiting for their suit letter when `char` at `at` (or the end) comes."""
        if self.digits:
            first = self.digits[0][1]
            digits = "".join(d for d, _ in self.digits)
            if char:
                self._fail("missing_suit.before", digits=digits, pos=first, char=char, at=at)
            self._fail("missing_suit.end", digits=digits, pos=first)

    def _emit(self, tiles: Iterable[int]) -> None:
        target = self.tiles if self.meld_tiles is None else self.meld_tiles
        target.extend(tiles)

    # -- the pass ----------------------------------------------------------
    def read(self) -> None:
        for i, ch in enumerate(self.text):
            if not ch.isspace():
                self._char(ch, i + 1)
        if self.meld_tiles is not None:
            self._fail("unclosed_bracket", pos=self.meld_start)
        self._flush_missing_suit()

    def _char(self, ch: str, pos: int) -> None:
        """Read one character, at 1-based position `pos`."""
        if self.after_comma and ch not in "0123456789]":
            self._fail("bad_meld_number.after_comma", comma=self.comma_pos, char=ch, pos=pos)
        if ch in "123456789" or (ch == "0" and (self.after_comma or self.meld_tiles)):
            self._digit(ch, pos)
        elif ch == "0":
            self._fail("bad_tile.zero", pos=pos)
        elif ch in SUITS:
            self._suit_letter(ch, pos)
        elif ch in HONOR_LETTERS:
            if self.digits:
                self._flush_missing_suit(ch, pos)
            self._emit([INDEX[ch]])
        elif ch in "[,]":
            {"[": self._open, ",": self._comma, "]": self._close}[ch](pos)
        elif ch == "f" and self.digits:
            self._fail("flower_in_hand", digit=self.digits[-1][0], pos=pos - 1)
        elif not ch.isprintable():  # named by its code point, never printed as it is
            self._fail("bad_character.unprintable", char=f"U+{ord(ch):04X}", pos=pos)
        else:
            self._fail("bad_character", char=ch, pos=pos)

    def _digit(self, ch: str, pos: int) -> None:
        if self.after_comma:
            self.meld_number = (self.meld_number or "") + ch
        else:
            self.digits.append((ch, pos))

    def _suit_letter(self, ch: str, pos: int) -> None:
        """A suit letter: the digits before it become tiles of that suit."""
        if not self.digits:
            self._fail("missing_digits", char=ch, pos=pos)
        for d, at in self.digits:
            if d == "0":
                self._fail("bad_tile.zero", pos=at)
        one = suited(SUITS.index(ch), 1)  # the suit's 1, the digits count from it
        self._emit(one + int(d) - 1 for d, _ in self.digits)
        self.digits.clear()

    def _open(self, pos: int) -> None:
        if self.meld_tiles is not None:
            self._fail("unclosed_bracket.nested", pos=pos, start=self.meld_start)
        self._flush_missing_suit("[", pos)
        if self.tiles:
            self._fail("meld_after_tiles", pos=pos)
        if len(self.melds) >= MAX_MELDS:
            self._fail("too_many_melds", pos=pos, number=len(self.melds) + 1, max=MAX_MELDS)
        self.meld_tiles = []
        self.meld_start = pos
        self.meld_number = None

    def _comma(self, pos: int) -> None:
        if self.meld_tiles is None:
            self._fail("bad_character.comma", pos=pos)
        if self.after_comma:
            self._fail("bad_meld_number.second_comma", pos=pos)
        self._flush_missing_suit(",", pos)
        self.after_comma = True
        self.comma_pos = pos

    def _close(self, pos: int) -> None:
        if self.meld_tiles is None:
            self._fail("unmatched_bracket", pos=pos)
        number = self.meld_number
        if not self.after_comma and self.digits:
            # `[567m2]`: digits after the last suit letter are the meld number
            if not self.meld_tiles:
                self._flush_missing_suit("]", pos)
            number = "".join(d for d, _ in self.digits)
            self.digits.clear()
        elif self.after_comma and number is None:
            self._fail("bad_meld_number.missing", pos=self.meld_start)
        self.melds.append(self._meld(self.meld_tiles, number))
        self.meld_tiles = None
        self.after_comma = False

    def _meld(self, tiles: list[int], number: str | None) -> Meld:
        written = self.text[self.meld_start - 1 :].split("]", 1)[0] + "]"
        return _classify(tiles, number, {"meld": written.replace(" ", ""), "pos": self.meld_start})


def _classify(tiles: list[int], number: str | None, where: dict[str, object]) -> Meld:
    """The meld a bracket holds, or ScoreError naming `where` it was written (meld, pos)."""
    kinds = set(tiles)
    if len(tiles) == 4 and len(kinds) == 1:
        return _kong(tiles[0], number, where)
    if len(tiles) == 3 and len(kinds) == 1:
        claimed = _number(number, (1, 2, 3), where, "pung")
        return Meld(MeldKind.PUNG, tiles[0], claimed)
    if len(tiles) == 3:
        low = min(tiles)
        if (
            is_suited(low)
            and sorted(tiles) == [low, low + 1, low + 2]
            and suit(low + 2) == suit(low)
        ):
            claimed = _number(number, (1, 2, 3), where, "chow")
            return Meld(MeldKind.CHOW, low, claimed)
    names = " ".join(tile_name(t) for t in tiles) or "nothing"
    raise ScoreError("bad_meld", tiles=names, **where)


def _number(number: str | None, allowed: tuple[int, ...], where: dict, kind: str) -> int:
    """The meld's number, one of `allowed` (the first when none is written)."""
    if number is None:
        return allowed[0]
    if len(number) != 1 or int(number) not in allowed:
        raise ScoreError(f"bad_meld_number.{kind}", number=number, **where)
    return int(number)


def _kong(tile: int, number: str | None, where: dict[str, object]) -> Meld:
    if number is None or number == "0":
        return Meld(MeldKind.KONG, tile, 0)
    n = _number(number, (1, 2, 3, 5, 6, 7), where, "kong")
    if n >= 5:
        return Meld(MeldKind.KONG, tile, n - 4, promoted=True)
    return Meld(MeldKind.KONG, tile, n)


def check_counts(melds: tuple[Meld, ...], tiles: list[int], waiting: bool) -> None:
    """Tile count for the meld count, and at most 4 copies of any tile."""
    copies = Counter(t for m in melds for t in m.tiles)
    copies.update(tiles)
    over = sorted(t for t, n in copies.items() if n > 4)
    if over:
        listing = ", ".join(f"{tile_name(t)} ×{copies[t]}" for t in over)
        raise ScoreError("too_many_copies", listing=listing)
    need = (13 if waiting else 14) - 3 * len(melds)
    if len(tiles) != need:
        what = "waiting" if waiting else "winning"
        raise ScoreError(f"wrong_tile_count.{what}", melds=len(melds), need=need, got=len(tiles))


def parse_tiles(text: str) -> list[int]:
    """Plain tile list (no melds), e.g. `123m55pEE` -> indices; for tools and tests."""
    reader = _parse(text)
    if reader.melds:
        raise ScoreError("bad_meld.plain")
    return reader.tiles


def _parse(text: object) -> _Reader:
    if not isinstance(text, str):
        raise ScoreError("bad_type.hand_text", type=type(text).__name__)
    if len(text) > MAX_LENGTH:
        raise ScoreError("too_long", length=len(text), max=MAX_LENGTH)
    if not text.strip():
        raise ScoreError("empty_hand")
    reader = _Reader(text)
    reader.read()
    return reader


def read_hand(text: str) -> tuple[tuple[Meld, ...], list[int]]:
    """The melds and concealed tiles as written, before any tile-count check.

    A hand being typed at the table is read with this: every tile so far,
    the winning tile not yet set apart.
    """
    reader = _parse(text)
    return tuple(reader.melds), reader.tiles


def parse_hand(text: str, waiting: bool = False) -> Hand:
    """Parse the notation; `waiting=True` reads a 13-tile hand without winning tile.

    Raises ScoreError (and nothing else) for any malformed or impossible hand.
    """
    reader = _parse(text)
    melds = tuple(reader.melds)
    check_counts(melds, reader.tiles, waiting)
    if waiting:
        return Hand(melds, tuple(reader.tiles), None)
    return Hand(melds, tuple(reader.tiles[:-1]), reader.tiles[-1])


#: tile index -> (its character in the notation, its suit letter or "" for honors)
_WRITTEN: dict[int, tuple[str, str]] = {
    t: (str(rank(t)), SUITS[suit(t)]) if is_suited(t) else (CODES[t], "") for t in range(NUM_KINDS)
}


def format_tiles(tiles: Iterable[int]) -> str:
    """Write tiles in written order, consecutive tiles of a suit sharing one letter."""
    out: list[str] = []
    pending = ""  # suit letter still to write
    for t in tiles:
        try:
            char, suit = _WRITTEN[t]
        except (KeyError, TypeError):
            raise ScoreError("bad_tile.index", tile=repr(t)) from None
        if pending and pending != suit:
            out.append(pending)
        pending = suit
        out.append(char)
    if pending:
        out.append(pending)
    return "".join(out)


def format_meld(meld: Meld) -> str:
    """One meld in canonical notation (numbers always written, except concealed kongs)."""
    body = format_tiles(meld.tiles)
    if meld.kind is MeldKind.KONG:
        if meld.claimed == 0:
            return f"[{body}]"
        return f"[{body},{meld.claimed + 4 if meld.promoted else meld.claimed}]"
    return f"[{body},{meld.claimed}]"


def format_hand(hand: Hand) -> str:
    """Canonical notation of a hand; `parse_hand(format_hand(h)) == h`.

    The winning tile keeps its own suit letter (`1112345678999m5m`) so a
    reader sees at once which tile it is.
    """
    melds = "".join(format_meld(m) for m in hand.melds)
    win = "" if hand.winning_tile is None else format_tiles([hand.winning_tile])
    return melds + format_tiles(hand.concealed) + win


def normalized(hand: Hand) -> Hand:
    """The same hand with its concealed tiles sorted (winning tile kept last)."""
    return Hand(hand.melds, tuple(sorted(hand.concealed)), hand.winning_tile)
