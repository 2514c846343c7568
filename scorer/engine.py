"""Score a winning hand: every reading, every fan, the five principles.

The whole flow of `score`:

1. check the hand: playing tiles, four melds at most, 14 tiles (`forms`);
2. read it in every winning form: four sets and a pair in every
   decomposition, knitted straight, seven pairs, thirteen orphans, honors
   and knitted tiles (`forms`, `_readings`);
3. on a discard, a pung the winning tile completes is exposed (`_place_win`);
4. count each reading's fans: tile fans, set fans with the combinations
   under 不拆移, 不得相同 and 套算一次, situation fans, then 不重复 and the
   wait fan (`counting.evaluate`, `combos`);
5. keep the reading with the highest total (就高不就低);
6. add the flowers and check the 8-fan minimum without them (`_result`).

Wait fans (边张, 坎张, 单钓将) count only when the hand before the winning
tile waits on that one tile, and at most one of them per hand.

Readings of the rules where the reference calculator (pymahjonggb) differs:

* no 明暗杠: one concealed and one melded kong are 暗杠 + 明杠;
* 三杠 (暗杠加计): with three kongs the concealed ones also count, 暗杠 for
  one, 双暗杠 for two or more;
* a tile of which all four copies are already in the hand is not a wait, so
  a hand otherwise waiting on it alone still counts 边张/坎张/单钓将;
* 和绝张 is counted by itself when the other three copies of the winning
  tile lie in the winner's own exposed melds (the reference does the same).

Option `situation.options["knitted_wait_fans"]` (default False): by default,
as in the reference calculator, a 组合龙 hand may count 边张/坎张/单钓将 only
for the tiles outside the knitted straight (its pair or extra set). With the
option on, a single wait filled *inside* the knitted straight also counts:
as 坎张 for the middle tile of its 1-4-7 / 2-5-8 / 3-6-9 triple, as 边张 for
an end tile.
"""

from __future__ import annotations

from scorer import forms
from scorer.counting import evaluate
from scorer.errors import ScoreError
from scorer.fans import FANS, FanId
from scorer.hand import Hand, Situation
from scorer.reading import Block, Ctx, Tally
from scorer.result import Excluded, FanHit, ScoreResult
from scorer.tiles import is_suited, suit

#: 起和分: the fans a win needs, flowers not counted
MIN_FANS = 8

__all__ = ["Excluded", "FanHit", "ScoreResult", "all_readings", "score"]


def _blocks_of_melds(hand: Hand) -> list[Block]:
    out = []
    for m in hand.melds:
        kind = m.kind.value
        out.append(Block(kind, m.tile, m.concealed, True))
    return out


def _readings(ctx: Ctx) -> list[tuple[str, list[Block]]]:
    hand = ctx.hand
    cc = forms.counts_of(list(hand.concealed) + [ctx.win])
    melds = _blocks_of_melds(hand)
    out: list[tuple[str, list[Block]]] = []

    def conv(reading: forms.Reading) -> list[Block]:
        return melds + [Block(k, t, True, False) for k, t in reading]

    for r in forms.standard_readings(cc, 4 - ctx.nmelds):
        out.append(("standard", _place_win(conv(r), ctx)))
    if ctx.nmelds <= 1:
        for r in forms.knitted_straight_readings(cc, 1 - ctx.nmelds):
            out.append(("knitted_straight", _place_win(conv(r), ctx)))
    if ctx.nmelds == 0:
        r7 = forms.seven_pairs(cc)
        if r7:
            out.append(("seven_pairs", conv(r7)))
        r13 = forms.thirteen_orphans(cc)
        if r13:
            out.append(("thirteen_orphans", conv(r13)))
        rk = forms.honors_and_knitted(cc)
        if rk:
            out.append(("honors_and_knitted", conv(rk)))
    return out


def _place_win(blocks: list[Block], ctx: Ctx) -> list[Block]:
    """On a discard, a pung completed by the winning tile is exposed.

    When the reading also has a concealed chow holding the winning tile, the
    tile is read as completing the chow (就高不就低), and the pung stays
    concealed.
    """
    w = ctx.win
    if ctx.sit.self_drawn:
        return blocks
    if any(
        not b.declared
        and b.kind == "chow"
        and b.tile <= w <= b.tile + 2
        and is_suited(w)
        and suit(b.tile) == suit(w)
        for b in blocks
    ):
        return blocks
    if any(not b.declared and b.kind == "knitted" and w in b.tiles for b in blocks):
        return blocks
    out = list(blocks)
    for i, b in enumerate(out):
        if not b.declared and b.kind == "pung" and b.tile == w:
            out[i] = b._replace(concealed=False)
            break
    return out


def score(hand: Hand, situation: Situation) -> ScoreResult:
    """The best fan breakdown of a winning hand; ScoreError("not_winning") otherwise."""
    ctx, readings = _prepare(hand, situation)  # steps 1-3
    best: tuple[tuple, Tally, str, list[Block]] | None = None
    for form, blocks in readings:
        tally = evaluate(form, blocks, ctx)  # step 4
        # step 5; equal totals: prefer the reading whose fans have the lower numbers
        # (bigger fans first in the table), as the reference calculator does
        key = (tally.total, [-f for f in sorted(tally.hits)])
        if best is None or key > best[0]:
            best = (key, tally, form, blocks)
    assert best is not None
    return _result(*best[1:], situation)  # step 6


def all_readings(hand: Hand, situation: Situation) -> list[ScoreResult]:
    """Every reading of the hand scored on its own (就高不就低 keeps the highest).

    Useful to show why a reading was chosen; raises ScoreError("not_winning")
    when there is none.
    """
    ctx, readings = _prepare(hand, situation)
    return [
        _result(evaluate(form, blocks, ctx), form, blocks, situation) for form, blocks in readings
    ]


def _prepare(hand: Hand, situation: Situation) -> tuple[Ctx, list[tuple[str, list[Block]]]]:
    if hand.winning_tile is None:
        raise ScoreError("not_winning.no_tile")
    forms.check_hand(hand.melds, hand.concealed, hand.winning_tile, 14)
    ctx = Ctx(hand, situation)
    readings = _readings(ctx)
    if not readings:
        raise ScoreError("not_winning")
    return ctx, readings


def _result(tally: Tally, form: str, blocks: list[Block], situation: Situation) -> ScoreResult:
    if situation.flowers:
        tally.add(FanId.FLOWER_TILES, [], f"{situation.flowers} flower(s)", situation.flowers)
    fans = [
        FanHit(
            FANS[f],
            len(occ),
            [list(t) for t, _ in occ],
            "; ".join(dict.fromkeys(str(d) for _, d in occ)),
        )
        for f, occ in sorted(tally.hits.items())
    ]
    total = tally.total
    flowers = len(tally.hits.get(FanId.FLOWER_TILES, ()))
    excluded = list({(e.fan.id, e.reason): e for e in tally.excluded}.values())
    excluded.sort(key=lambda e: e.fan.id)
    sets = [
        {"kind": b.kind, "tiles": list(b.tiles), "concealed": b.concealed, "declared": b.declared}
        for b in blocks
    ]
    return ScoreResult(fans, excluded, total, total - flowers >= MIN_FANS, form, sets)
