"""Count the fans of one reading of a hand.

`evaluate` counts a reading in four steps:

1. the tile fans, decided by the tiles alone (flushes, 断幺, 五门齐 ...),
   found once per hand and shared by its readings;
2. the fans of the winning form: for four sets and a pair (or a knitted
   straight) the set fans, family by family (wind and dragon pungs, kongs,
   concealed pungs, whole-hand shapes, combinations through
   `scorer.combos`, 幺九刻); for a special form its own fan (七对, 十三幺,
   全不靠 ...);
3. the situation fans (自摸, 和绝张, 门前清 ...);
4. 不重复: every fan a counted fan implies is dropped (`Fan.excludes`), then
   the one wait fan is counted, or 无番和 when nothing else is.

Fans are named by their `FanId`; their points and exclusions are the fan
table's (`scorer.fans`).
"""

from __future__ import annotations

from typing import NamedTuple

from scorer import forms
from scorer.combos import COMBO_FANS, best_combination, why_not
from scorer.fans import FANS, FanId
from scorer.reading import Block, Ctx, Sets, Tally, fmt, sets_text
from scorer.tiles import (
    HONOR_TILES,
    code,
    is_dragon,
    is_honor,
    is_suited,
    is_terminal_or_honor,
    is_wind,
    rank,
    suit,
    suited,
    tiles_of,
)

GREEN = tiles_of("2s 3s 4s 6s 8s F")  # 绿一色
REVERSIBLE = tiles_of("1p 2p 3p 4p 5p 8p 9p 2s 4s 5s 6s 8s 9s P")  # 推不倒
NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)  # 1112345678999 of one suit
WHOLE = "whole hand"

#: 全大, 全中, 全小, 大于五, 小于五: the ranks a hand without honors keeps to
RANK_FANS = (
    (FanId.UPPER_TILES, {7, 8, 9}),
    (FanId.MIDDLE_TILES, {4, 5, 6}),
    (FanId.LOWER_TILES, {1, 2, 3}),
    (FanId.UPPER_FOUR, {6, 7, 8, 9}),
    (FanId.LOWER_FOUR, {1, 2, 3, 4}),
)

#: wait fans by the set the winning tile completes, in the order they are tried
WAIT_FANS = (FanId.EDGE_WAIT, FanId.CLOSED_WAIT, FanId.SINGLE_WAIT)


class Parts(NamedTuple):
    """The sets of a four-sets-and-a-pair (or knitted straight) reading, by kind."""

    sets: list[Block]
    pungs: list[Block]  # pungs and kongs
    chows: list[Block]
    pair: Block


def evaluate(form: str, blocks: list[Block], ctx: Ctx) -> Tally:
    """All fans of one reading (`form` is the winning form it belongs to), after exclusions."""
    tally = Tally()
    if ctx.tile_hits is None:
        _tile_fans(tally, ctx)
        ctx.tile_hits = {f: list(v) for f, v in tally.hits.items()}
    else:
        tally.hits = {f: list(v) for f, v in ctx.tile_hits.items()}
    wait_candidates: list[int] = []
    if form in ("standard", "knitted_straight"):
        _set_fans(tally, form, blocks, ctx)
        wait_candidates = _wait_candidates(blocks, ctx)
    else:
        _special_form_fans(tally, form, blocks, ctx)
    _situation_fans(tally, ctx)
    _apply_exclusions(tally, wait_candidates, ctx)
    return tally


# -- 1. tile fans ------------------------------------------------------------------


def _tile_fans(tally: Tally, ctx: Ctx) -> None:
    """Fans decided by the tiles alone, whatever the reading."""
    kinds = set(ctx.all_tiles)
    suits = {suit(t) for t in kinds if is_suited(t)}
    honors = [t for t in kinds if is_honor(t)]
    _suit_fans(tally, ctx.all_tiles, suits, honors)
    _rank_fans(tally, ctx.all_tiles, {rank(t) for t in kinds if is_suited(t)}, bool(honors))
    if kinds <= GREEN:
        tally.add(FanId.ALL_GREEN, ctx.all_tiles, WHOLE)
    if kinds <= REVERSIBLE:
        tally.add(FanId.REVERSIBLE_TILES, ctx.all_tiles, WHOLE)
    for t in sorted(kinds):
        if ctx.counts[t] == 4 and t not in ctx.kong_tiles:
            tally.add(FanId.TILE_HOG, [t] * 4, fmt([t] * 4))


def _suit_fans(tally: Tally, tiles: list[int], suits: set[int], honors: list[int]) -> None:
    """The suits and honors a hand holds: 字一色, 清一色, 混一色, 五门齐, 缺一门, 无字."""
    if not suits:
        tally.add(FanId.ALL_HONORS, tiles, WHOLE)
    if len(suits) == 1:
        tally.add(FanId.HALF_FLUSH if honors else FanId.FULL_FLUSH, tiles, WHOLE)
    if len(suits) == 3 and any(map(is_wind, honors)) and any(map(is_dragon, honors)):
        tally.add(FanId.ALL_TYPES, tiles, WHOLE)
    if len(suits) == 2:
        tally.add(FanId.ONE_VOIDED_SUIT, tiles, WHOLE)
    if not honors:
        tally.add(FanId.NO_HONORS, tiles, WHOLE)


def _rank_fans(tally: Tally, tiles: list[int], ranks: set[int], honors: bool) -> None:
    """The ranks a hand keeps to: 清幺九, 混幺九, 全大 ... 小于五, 断幺."""
    if not honors and ranks <= {1, 9}:
        tally.add(FanId.ALL_TERMINALS, tiles, WHOLE)
    if ranks <= {1, 9}:
        tally.add(FanId.ALL_TERMINALS_AND_HONORS, tiles, WHOLE)
    if ranks and not honors:
        for fan, allowed in RANK_FANS:
            if ranks <= allowed:
                tally.add(fan, tiles, WHOLE)
    if not honors and not ranks & {1, 9}:
        tally.add(FanId.ALL_SIMPLES, tiles, WHOLE)


# -- 2. the fans of the winning form -----------------------------------------------------


def _special_form_fans(tally: Tally, form: str, blocks: list[Block], ctx: Ctx) -> None:
    """七对 (and 连七对), 十三幺, 全不靠 (and 七星不靠, 组合龙)."""
    if form == "seven_pairs":
        tally.add(FanId.SEVEN_PAIRS, ctx.all_tiles, "seven pairs")
        if _shifted_pairs(sorted(b.tile for b in blocks)):
            tally.add(FanId.SEVEN_SHIFTED_PAIRS, ctx.all_tiles, WHOLE)
    elif form == "thirteen_orphans":
        tally.add(FanId.THIRTEEN_ORPHANS, ctx.all_tiles, WHOLE)
    elif form == "honors_and_knitted":
        if all(ctx.counts[t] for t in HONOR_TILES):
            tally.add(FanId.GREATER_HONORS_AND_KNITTED_TILES, ctx.all_tiles, WHOLE)
        tally.add(FanId.LESSER_HONORS_AND_KNITTED_TILES, ctx.all_tiles, WHOLE)
        for straight in forms.KNITTED:
            if all(ctx.counts[t] for t in straight):
                tally.add(FanId.KNITTED_STRAIGHT, list(straight), fmt(list(straight)))


def _shifted_pairs(pairs: list[int]) -> bool:
    """连七对: seven different pairs in a row of one suit."""
    return (
        len(set(pairs)) == 7
        and all(is_suited(t) for t in pairs)
        and len({suit(t) for t in pairs}) == 1
        and pairs[-1] - pairs[0] == 6
    )


def _set_fans(tally: Tally, form: str, blocks: list[Block], ctx: Ctx) -> None:
    """Fans of the sets, family by family."""
    sets = [b for b in blocks if b.kind in ("chow", "pung", "kong")]
    parts = Parts(
        sets,
        [b for b in sets if b.kind != "chow"],
        [b for b in sets if b.kind == "chow"],
        next(b for b in blocks if b.kind == "pair"),
    )
    _wind_fans(tally, parts, ctx)
    _dragon_fans(tally, parts)
    _kong_fans(tally, parts.pungs)
    _concealed_pung_fans(tally, parts.pungs)
    if form == "standard":
        _shape_fans(tally, parts, ctx)
    else:
        _knitted_straight_fans(tally, blocks, parts, ctx)
    _chow_fans(tally, parts, ctx)
    _combination_fans(tally, "pung", parts.pungs)
    _terminal_pungs(tally, parts.pungs)


def _wind_fans(tally: Tally, parts: Parts, ctx: Ctx) -> None:
    """大四喜, 小四喜, 三风刻, 圈风刻, 门风刻."""
    winds = [b for b in parts.pungs if is_wind(b.tile)]
    tiles = [t for b in winds for t in b.tiles]
    if len(winds) == 4:
        tally.add(FanId.BIG_FOUR_WINDS, tiles, sets_text(winds))
    if len(winds) == 3:
        if is_wind(parts.pair.tile):
            tally.add(
                FanId.LITTLE_FOUR_WINDS,
                tiles + list(parts.pair.tiles),
                "three wind pungs and a wind pair",
            )
        tally.add(FanId.BIG_THREE_WINDS, tiles, sets_text(winds))
    for b in winds:
        if b.tile == ctx.sit.round_wind:
            tally.add(FanId.PREVALENT_WIND, b.tiles, fmt(b.tiles))
        if b.tile == ctx.sit.seat_wind:
            tally.add(FanId.SEAT_WIND, b.tiles, fmt(b.tiles))


def _dragon_fans(tally: Tally, parts: Parts) -> None:
    """大三元, 小三元, 双箭刻, 箭刻."""
    dragons = [b for b in parts.pungs if is_dragon(b.tile)]
    tiles = [t for b in dragons for t in b.tiles]
    if len(dragons) == 3:
        tally.add(FanId.BIG_THREE_DRAGONS, tiles, sets_text(dragons))
    if len(dragons) == 2:
        if is_dragon(parts.pair.tile):
            tally.add(
                FanId.LITTLE_THREE_DRAGONS,
                tiles + list(parts.pair.tiles),
                "two dragon pungs and a dragon pair",
            )
        tally.add(FanId.TWO_DRAGON_PUNGS, tiles, sets_text(dragons))
    for b in dragons:
        tally.add(FanId.DRAGON_PUNG, b.tiles, fmt(b.tiles))


def _kong_fans(tally: Tally, pungs: list[Block]) -> None:
    """四杠, 三杠, 双暗杠, 双明杠, 暗杠, 明杠.

    There is no 明暗杠 in these rules: one concealed and one melded kong are
    暗杠 + 明杠; and 三杠 counts its concealed kongs on top (暗杠加计).
    """
    kongs = [b for b in pungs if b.kind == "kong"]
    concealed = [b for b in kongs if b.concealed]
    melded = [b for b in kongs if not b.concealed]
    tiles = [t for b in kongs for t in b.tiles]
    concealed_tiles = [t for b in concealed for t in b.tiles]
    if len(kongs) == 4:
        tally.add(FanId.FOUR_KONGS, tiles, "four kongs")
    elif len(kongs) == 3:
        tally.add(FanId.THREE_KONGS, tiles, "three kongs")
        if len(concealed) == 1:
            tally.add(FanId.CONCEALED_KONG, concealed_tiles, fmt(concealed_tiles))
        elif len(concealed) >= 2:
            tally.add(FanId.TWO_CONCEALED_KONGS, concealed_tiles, "concealed kongs")
    elif len(kongs) == 2:
        if len(concealed) == 2:
            tally.add(FanId.TWO_CONCEALED_KONGS, concealed_tiles, "two concealed kongs")
        elif len(melded) == 2:
            tally.add(FanId.TWO_MELDED_KONGS, tiles, "two melded kongs")
        else:
            tally.add(FanId.CONCEALED_KONG, concealed[0].tiles, fmt(concealed[0].tiles))
            tally.add(FanId.MELDED_KONG, melded[0].tiles, fmt(melded[0].tiles))
    elif len(kongs) == 1:
        fan = FanId.CONCEALED_KONG if concealed else FanId.MELDED_KONG
        tally.add(fan, kongs[0].tiles, fmt(kongs[0].tiles))


#: fans of concealed pungs (kongs included) by their number
CONCEALED_PUNG_FANS = {
    4: FanId.FOUR_CONCEALED_PUNGS,
    3: FanId.THREE_CONCEALED_PUNGS,
    2: FanId.TWO_CONCEALED_PUNGS,
}


def _concealed_pung_fans(tally: Tally, pungs: list[Block]) -> None:
    """四暗刻, 三暗刻, 双暗刻."""
    concealed = [b for b in pungs if b.concealed]
    if len(concealed) >= 2:
        tiles = [t for b in concealed for t in b.tiles]
        tally.add(CONCEALED_PUNG_FANS[len(concealed)], tiles, sets_text(concealed))


def _shape_fans(tally: Tally, parts: Parts, ctx: Ctx) -> None:
    """Whole-hand shapes of four sets and a pair: 碰碰和, 平和, 全双刻, 全带幺, 全带五, 九莲宝灯."""
    every = [*parts.sets, parts.pair]
    if len(parts.pungs) == 4:
        tally.add(FanId.ALL_PUNGS, ctx.all_tiles, "four pungs")
    if len(parts.chows) == 4 and is_suited(parts.pair.tile):
        tally.add(FanId.ALL_CHOWS, ctx.all_tiles, "four chows and a suited pair")
    if len(parts.pungs) == 4 and all(is_suited(b.tile) and rank(b.tile) % 2 == 0 for b in every):
        tally.add(FanId.ALL_EVEN_PUNGS, ctx.all_tiles, "even pungs and pair")
    if all(any(map(is_terminal_or_honor, b.tiles)) for b in every):
        tally.add(FanId.OUTSIDE_HAND, ctx.all_tiles, "every set and the pair")
    if all(any(is_suited(t) and rank(t) == 5 for t in b.tiles) for b in every):
        tally.add(FanId.ALL_FIVES, ctx.all_tiles, "every set and the pair")
    if ctx.nmelds == 0 and _nine_gates(ctx):
        tally.add(FanId.NINE_GATES, ctx.all_tiles, "1112345678999 + " + code(ctx.win))


def _knitted_straight_fans(tally: Tally, blocks: list[Block], parts: Parts, ctx: Ctx) -> None:
    """组合龙, and 平和 with its chow and a suited pair."""
    knit = [t for b in blocks if b.kind == "knitted" for t in b.tiles]
    tally.add(FanId.KNITTED_STRAIGHT, knit, fmt(knit))
    if parts.chows and is_suited(parts.pair.tile) and not parts.pungs:
        tally.add(FanId.ALL_CHOWS, ctx.all_tiles, "knitted straight, a chow and a suited pair")


def _nine_gates(ctx: Ctx) -> bool:
    """九莲宝灯: the 13 tiles before the win are exactly 1112345678999 of one suit."""
    c = ctx.concealed13
    return sum(c) == 13 and any(
        tuple(c[suited(s, 1) : suited(s, 9) + 1]) == NINE_GATES for s in range(3)
    )


def _chow_fans(tally: Tally, parts: Parts, ctx: Ctx) -> None:
    """一色双龙会 or 三色双龙会 (the four chows and the pair together), else the chow combinations."""
    terminal_chows = _terminal_chows(parts.chows, parts.pair)
    if terminal_chows:
        tally.add(terminal_chows, ctx.all_tiles, "123 789 123 789 + 5 pair")
    else:
        _combination_fans(tally, "chow", parts.chows)


def _terminal_chows(chows: list[Block], pair: Block) -> FanId | None:
    """一色双龙会 / 三色双龙会: 123 and 789 twice and a pair of 5s, or None."""
    if len(chows) != 4 or not is_suited(pair.tile) or rank(pair.tile) != 5:
        return None
    by_suit: dict[int, list[int]] = {}
    for b in chows:
        if rank(b.tile) not in (1, 7):
            return None
        by_suit.setdefault(suit(b.tile), []).append(rank(b.tile))
    shapes = {s: sorted(r) for s, r in by_suit.items()}
    pair_suit = suit(pair.tile)
    if list(shapes) == [pair_suit] and shapes[pair_suit] == [1, 1, 7, 7]:
        return FanId.PURE_TERMINAL_CHOWS
    if len(shapes) == 2 and pair_suit not in shapes and all(r == [1, 7] for r in shapes.values()):
        return FanId.THREE_SUITED_TERMINAL_CHOWS
    return None


def _combination_fans(tally: Tally, kind: str, blocks: list[Block]) -> None:
    if len(blocks) < 2:
        return
    order = sorted(range(len(blocks)), key=lambda i: blocks[i].tile)
    items = tuple(blocks[i].tile for i in order)
    chosen, others = best_combination(kind, items)
    for fid, idx in chosen:
        tiles = [t for i in idx for t in blocks[order[i]].tiles[:3]]
        tally.add(fid, tiles, Sets(*(blocks[order[i]].tiles[:3] for i in idx)))
    for inst in others:
        reason, by = why_not(inst, chosen)
        tally.drop(inst[0], reason, by)


def _terminal_pungs(tally: Tally, pungs: list[Block]) -> None:
    """幺九刻 for each pung of terminals or honors, unless a counted fan made of it excludes it.

    A fan with 幺九刻 in `partly_excludes` takes it away from its own pungs
    (those among its tiles), from at most `partly_sets` of them where that is
    set; when several do, the pung is reported as part of the biggest fan
    (the later-numbered one between equals).
    """
    terminal_pung = FanId.PUNG_OF_TERMINALS_OR_HONORS
    owners = sorted(
        (f for f in tally.hits if terminal_pung in FANS[f].partly_excludes),
        key=lambda f: (FANS[f].points, f),
        reverse=True,
    )
    left = {f: FANS[f].partly_sets or len(pungs) for f in owners}
    for b in pungs:
        if not is_terminal_or_honor(b.tile):
            continue
        by = next((f for f in owners if left[f] and _made_of(tally, f, b)), None)
        if by is None:
            tally.add(terminal_pung, b.tiles, fmt(b.tiles))
        else:
            left[by] -= 1
            tally.drop(terminal_pung, f"{fmt(b.tiles)}: part of {FANS[by].name_zh} ({by})", by)


def _made_of(tally: Tally, fan: int, block: Block) -> bool:
    """Whether a counted fan's tiles include this set's."""
    return any(block.tile in tiles for tiles, _ in tally.hits[fan])


def _wait_candidates(blocks: list[Block], ctx: Ctx) -> list[int]:
    """Wait fans the winning tile could be read as, in order 边张, 坎张, 单钓将."""
    w = ctx.win
    found: list[int] = []
    knitted_ok = bool((ctx.sit.options or {}).get("knitted_wait_fans", False))
    for b in blocks:
        if b.declared:
            continue
        if b.kind == "pair" and b.tile == w:
            found.append(FanId.SINGLE_WAIT)
        elif b.kind == "chow" and _in_chow(w, b):
            if w == b.tile + 1:
                found.append(FanId.CLOSED_WAIT)
            elif (rank(b.tile) == 1 and w == b.tile + 2) or (rank(b.tile) == 7 and w == b.tile):
                found.append(FanId.EDGE_WAIT)
        elif b.kind == "knitted" and knitted_ok and w in b.tiles:
            found.append(FanId.CLOSED_WAIT if w == b.tile + 3 else FanId.EDGE_WAIT)
    if not found or not ctx.single_wait:
        return []
    return sorted(set(found))


def _in_chow(tile: int, chow: Block) -> bool:
    return is_suited(tile) and suit(tile) == suit(chow.tile) and chow.tile <= tile <= chow.tile + 2


# -- 3. situation fans -----------------------------------------------------------------


def _situation_fans(tally: Tally, ctx: Ctx) -> None:
    """How the hand was won: 妙手回春/海底捞月, 杠上开花/抢杠和, 和绝张, 自摸, 不求人/门前清, 全求人."""
    sit, win = ctx.sit, [ctx.win]
    if sit.last_tile:
        fan = FanId.LAST_TILE_DRAW if sit.self_drawn else FanId.LAST_TILE_CLAIM
        tally.add(fan, win, code(ctx.win))
    if sit.kong:
        fan = FanId.OUT_WITH_REPLACEMENT_TILE if sit.self_drawn else FanId.ROBBING_THE_KONG
        tally.add(fan, win, code(ctx.win))
    shown = sum(m.tiles.count(ctx.win) for m in ctx.hand.melds if not m.concealed)
    if sit.fourth_tile or shown == 3:
        # the other three copies lie exposed in the winner's own melds: 和绝张 by itself
        tally.add(FanId.LAST_TILE, win, code(ctx.win))
    if sit.self_drawn:
        tally.add(FanId.SELF_DRAWN, win, code(ctx.win))
    if not ctx.exposed:
        fan = FanId.FULLY_CONCEALED_HAND if sit.self_drawn else FanId.CONCEALED_HAND
        tally.add(fan, ctx.all_tiles, "no claimed set")
    all_claimed = ctx.nmelds == 4 and all(not m.concealed for m in ctx.hand.melds)
    if all_claimed and not sit.self_drawn:
        tally.add(FanId.MELDED_HAND, ctx.all_tiles, "four claimed sets, won on a discard")


# -- 4. 不重复 ---------------------------------------------------------------------------


def _apply_exclusions(tally: Tally, wait_candidates: list[int], ctx: Ctx) -> None:
    """不重复: drop every fan a counted fan implies; then the wait fan and 无番和.

    Fans are taken from the highest down, and only fans still counted exclude
    others: a fan that is itself not counted implies nothing (四暗刻 drops
    不求人, but a self-drawn 四暗刻 still counts 自摸).
    """
    implied: dict[int, int] = {}
    for f in sorted(tally.hits, key=lambda f: (-FANS[f].points, f)):
        if f in implied:
            continue
        for x in FANS[f].excludes:
            if x != f and not (f in COMBO_FANS and x in COMBO_FANS):
                implied.setdefault(x, f)
    for x, f in implied.items():
        if x in tally.hits:
            del tally.hits[x]
            tally.drop(x, f"implied by {FANS[f].name_zh} ({f})", f)
    usable = [w for w in wait_candidates if w not in implied]
    for w in wait_candidates:
        if w in implied:
            tally.drop(w, f"implied by {FANS[implied[w]].name_zh} ({implied[w]})", implied[w])
    if usable:
        tally.add(usable[0], [ctx.win], code(ctx.win))
        for w in usable[1:]:
            tally.drop(
                w, f"only one wait fan per hand ({FANS[usable[0]].name_zh} counted)", usable[0]
            )
    if not tally.hits:
        tally.add(FanId.CHICKEN_HAND, ctx.all_tiles, "no other fan")
