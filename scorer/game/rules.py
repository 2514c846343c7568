"""The rules of a game (局) as plain functions: seating, payments, penalties.

Everything here follows the 1998 competition rules (seed 000: 第五条 terms,
第十条 scoring, 第十一条 ranking, 第十三/十四条 penalties) and the table
practice of seed 001 (16 hands, no dealer repeat, seat rotation). Keeping
them free of storage and I/O lets the sheet, the database and the web page
share one tested implementation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from scorer.game.errors import GameError

#: the four winds in seat order: dealer, 下家, 对家, 上家 (第五条 六、门风)
WINDS: tuple[str, ...] = ("E", "S", "W", "N")
HANDS_PER_ROUND = 4
ROUNDS = 4
#: seed 001 item 1: four rounds of four hands, the dealer never repeats
HANDS_PER_GAME = HANDS_PER_ROUND * ROUNDS
#: 底分: every player who did not win pays it to the winner (第十条 一(二)1)
BASE_POINTS = 8
#: 起和分: a win needs at least 8 fans, flowers not counted (第五条 三十四(二))
MIN_FANS = 8
#: the most fans a win may be recorded with (the highest real hands score a few hundred)
#: and the most points one penalty may take: past them a sheet is mistyped, not played
MAX_FANS = 1000
MAX_PENALTY_POINTS = 1000
#: the most penalties in one hand, and on a whole game
MAX_PENALTIES = 16
#: 基础比赛分 each player starts a game with (第五条 三十四(一))
START_SCORE = 500

#: 错和 pays 10 and 诈和 20 to each other player (第十四条 六)
WRONG_WIN_PAYMENT = 10
FALSE_WIN_PAYMENT = 20
PENALTY_KINDS: tuple[str, ...] = ("wrong_win", "false_win", "deduction")
#: the seven deductions a referee may give for a violation (第十三条 二(二))
VIOLATION_DEDUCTIONS: tuple[int, ...] = (5, 10, 20, 30, 40, 50, 60)

#: Seat moves before rounds 2, 3 and 4 (seed 001 item 3), as
#: "new position <- old position". Before round 2 East and South swap and
#: West and North swap; before round 3 the East and South players go to the
#: opposite seats (East -> West, South -> North), West goes to South and
#: North to East; before round 4 East/South and West/North swap again.
_SWAP_PAIRS = {"E": "S", "S": "E", "W": "N", "N": "W"}
_ROUND3_MOVES = {"E": "W", "S": "N", "W": "S", "N": "E"}  # old -> new
SEAT_MOVES: tuple[dict[str, str], ...] = (
    {new: old for old, new in _SWAP_PAIRS.items()},
    {new: old for old, new in _ROUND3_MOVES.items()},
    {new: old for old, new in _SWAP_PAIRS.items()},
)


@dataclass(frozen=True)
class Seating:
    """Who sits where for one hand and the winds that score it."""

    hand_index: int  # 0-based
    round_wind: str
    dealer: str
    #: player -> 门风 of this hand
    seat_winds: dict[str, str]
    #: seat position (E/S/W/N chairs of the round) -> player
    positions: dict[str, str]


def round_positions(players: list[str] | tuple[str, ...]) -> list[dict[str, str]]:
    """Chair of each player for each of the four rounds (position -> player).

    The first round uses the players in the given order as East, South,
    West, North; each later round applies the seed's seat moves.
    """
    current = dict(zip(WINDS, players, strict=True))
    rounds = [dict(current)]
    for moves in SEAT_MOVES:
        current = {new: current[old] for new, old in moves.items()}
        rounds.append(dict(current))
    return rounds


def seating(players: list[str] | tuple[str, ...], hand_index: int) -> Seating:
    """Seating of hand `hand_index` (0-15) of a game.

    The round starts with the East chair as dealer and passes the deal to
    the 下家 (the South chair, then West, then North) after every hand,
    won or drawn (第五条 八: 莊家不連莊).
    """
    if not 0 <= hand_index < HANDS_PER_GAME:
        raise GameError("bad_hand_index", max=HANDS_PER_GAME)
    rnd, k = divmod(hand_index, HANDS_PER_ROUND)
    positions = round_positions(players)[rnd]
    seat_winds = {positions[chair]: WINDS[(i - k) % 4] for i, chair in enumerate(WINDS)}
    return Seating(
        hand_index=hand_index,
        round_wind=WINDS[rnd],
        dealer=positions[WINDS[k]],
        seat_winds={p: seat_winds[p] for p in players},
        positions=positions,
    )


def check_fans(fans: Any, flowers: Any = 0) -> int:
    """Validate a win's fan total (flowers included) against 起和分."""
    if isinstance(fans, bool) or not isinstance(fans, int):
        raise GameError("bad_fans", got=repr(fans))
    if isinstance(flowers, bool) or not isinstance(flowers, int) or not 0 <= flowers <= 8:
        raise GameError("bad_flowers", got=repr(flowers))
    if fans - flowers < MIN_FANS:
        raise GameError("below_minimum", min=MIN_FANS, got=fans - flowers)
    if fans > MAX_FANS:
        raise GameError("out_of_range", field="fans", low=MIN_FANS, high=MAX_FANS, got=fans)
    return fans


def win_payments(
    players: list[str] | tuple[str, ...],
    winner: str,
    fans: int,
    self_drawn: bool,
    discarder: str | None = None,
) -> dict[str, int]:
    """Points won and lost in a win (第十条 一(三)).

    Self-drawn: each other player pays 底分 + fans. On a discard the
    discarder pays 底分 + fans and the two others pay the 底分 only (seed 001
    item 7: everybody pays the 8 even without discarding).
    """
    check_fans(fans)
    delta = {p: 0 for p in players}
    for p in players:
        if p == winner:
            continue
        pays_fans = self_drawn or p == discarder
        pay = BASE_POINTS + (fans if pays_fans else 0)
        delta[p] -= pay
        delta[winner] += pay
    return delta


def penalty_payments(
    players: list[str] | tuple[str, ...], player: str, kind: str, points: int = 0
) -> dict[str, int]:
    """Points moved by one penalty: 错和 and 诈和 pay every other player,
    a deduction (罚分) is taken off the offender and paid to nobody."""
    delta = {p: 0 for p in players}
    if kind in ("wrong_win", "false_win"):
        pay = WRONG_WIN_PAYMENT if kind == "wrong_win" else FALSE_WIN_PAYMENT
        for p in players:
            if p != player:
                delta[p] += pay
                delta[player] -= pay
    elif kind == "deduction":
        delta[player] -= points
    else:
        raise GameError("bad_penalty.kind", kinds=", ".join(PENALTY_KINDS), got=repr(kind))
    return delta


def violation_deduction(player: str, points: int) -> dict[str, Any]:
    """A referee's deduction for a violation: only the seven amounts of
    第十三条 二(二) exist."""
    if points not in VIOLATION_DEDUCTIONS:
        raise GameError("bad_deduction", allowed=VIOLATION_DEDUCTIONS, got=repr(points))
    return {"player": player, "kind": "deduction", "points": points}


def repeat_offence_points(occurrence: int) -> int:
    """Deduction for the n-th repeat of the same offence in one hand.

    第十四条 三/四/五: first a warning (0 points), then 5, 10, 20 and
    "so on". Only the amounts of 第十三条 exist, so the ladder continues
    through them (30, 40, 50) and stays at the largest, 60.
    """
    if isinstance(occurrence, bool) or not isinstance(occurrence, int) or occurrence < 1:
        raise GameError("bad_occurrence", got=repr(occurrence))
    if occurrence == 1:
        return 0
    step = min(occurrence - 2, len(VIOLATION_DEDUCTIONS) - 1)
    return VIOLATION_DEDUCTIONS[step]


def repeat_offence_penalty(player: str, occurrence: int) -> dict[str, Any] | None:
    """The penalty entry for the n-th repeat, or None for the first (a warning)."""
    points = repeat_offence_points(occurrence)
    return violation_deduction(player, points) if points else None


@dataclass(frozen=True)
class LatenessRuling:
    """What 第十三条 二(一) gives a late player."""

    warning: bool
    points: int
    #: more than 15 minutes late: the game is forfeited, 局分 0
    forfeit: bool

    def penalty(self, player: str) -> dict[str, Any] | None:
        if self.forfeit or not self.points:
            return None
        return {"player": player, "kind": "deduction", "points": self.points}


def lateness_ruling(minutes_late: float) -> LatenessRuling:
    """Up to 10 minutes late: a warning and 10 points; up to 15: 20 points;
    later: forfeit. The points come off the 局分 at the end of the game."""
    if isinstance(minutes_late, bool) or not isinstance(minutes_late, int | float):
        raise GameError("bad_minutes", got=repr(minutes_late))
    if isinstance(minutes_late, float) and not math.isfinite(minutes_late):
        raise GameError("bad_minutes", got=repr(minutes_late))  # NaN fails every comparison
    if minutes_late < 0:
        raise GameError("bad_minutes.negative")
    if minutes_late == 0:
        return LatenessRuling(warning=False, points=0, forfeit=False)
    if minutes_late <= 10:
        return LatenessRuling(warning=True, points=10, forfeit=False)
    if minutes_late <= 15:
        return LatenessRuling(warning=False, points=20, forfeit=False)
    return LatenessRuling(warning=False, points=0, forfeit=True)


def rank_points(n_players: int, rank: int) -> int:
    """标准分 of a rank (第十条 二(二)): first gets the number of players,
    the others that number minus their rank: 4, 2, 1, 0 at a table of four."""
    return n_players if rank == 1 else n_players - rank


def table_points(scores: dict[str, int]) -> dict[str, Fraction]:
    """标准分 of each player from the 局分 of one table.

    Players with equal 局分 occupy consecutive ranks and share the points of
    those ranks equally, e.g. two tied first get (4 + 2) / 2 = 3 each.
    """
    n = len(scores)
    ordered = sorted(scores.values(), reverse=True)
    result: dict[str, Fraction] = {}
    for player, score in scores.items():
        first = ordered.index(score) + 1
        count = ordered.count(score)
        shared = sum(rank_points(n, r) for r in range(first, first + count))
        result[player] = Fraction(shared, count)
    return result


def number(value: Fraction | int) -> int | float:
    """A JSON-friendly number: whole values as int, shares as float."""
    frac = Fraction(value)
    return int(frac) if frac.denominator == 1 else float(frac)
