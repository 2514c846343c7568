"""Count the fans of one reading of a hand.

Tile fans (flushes, 断幺, 五门齐 ...) are computed once per hand; set fans
(honor pungs, kongs, concealed pungs, shape fans), combination fans (through
`scorer.combos`), situation fans and the wait fans per reading. Then the
不重复 pass drops what counted fans imply (`Fan.excludes`), and 幺九刻 is
reduced pung by pung for the fans whose own pungs it may not count.
"""

from __future__ import annotations

from scorer import forms
from scorer.combos import COMBO_FANS, best_combination, why_not
from scorer.fans import FANS
from scorer.reading import Block, Ctx, Sets, Tally, fmt, sets_text
from scorer.tiles import code

GREEN = frozenset({19, 20, 21, 23, 25, 32})  # 2 3 4 6 8 bamboo, green dragon
REVERSIBLE = frozenset({9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33})
NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


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
    elif form == "seven_pairs":
        tally.add(19, ctx.all_tiles, "seven pairs")
        pairs = sorted(b.tile for b in blocks)
        if (
            len(set(pairs)) == 7
            and len({t // 9 for t in pairs}) == 1
            and pairs[0] < 27
            and pairs[-1] - pairs[0] == 6
        ):
            tally.add(6, ctx.all_tiles, "whole hand")
    elif form == "thirteen_orphans":
        tally.add(7, ctx.all_tiles, "whole hand")
    elif form == "honors_and_knitted":
        honors = sum(1 for t in range(27, 34) if ctx.counts[t])
        if honors == 7:
            tally.add(20, ctx.all_tiles, "whole hand")
        tally.add(34, ctx.all_tiles, "whole hand")
        for straight in forms.KNITTED:
            if all(ctx.counts[t] for t in straight):
                tally.add(35, list(straight), fmt(list(straight)))
    _situation_fans(tally, ctx)
    _apply_exclusions(tally, wait_candidates, ctx)
    return tally


def _tile_fans(tally: Tally, ctx: Ctx) -> None:
    """Fans decided by the tiles alone, whatever the reading."""
    tiles = ctx.all_tiles
    kinds = {t for t in tiles}
    suited = [t for t in kinds if t < 27]
    honors = [t for t in kinds if t >= 27]
    suits = {t // 9 for t in suited}
    ranks = {t % 9 + 1 for t in suited}
    whole = "whole hand"
    if kinds <= GREEN:
        tally.add(3, tiles, whole)
    if not honors and ranks <= {1, 9}:
        tally.add(8, tiles, whole)
    if not suited:
        tally.add(11, tiles, whole)
    if ranks <= {1, 9}:
        tally.add(18, tiles, whole)
    if len(suits) == 1:
        tally.add(49 if honors else 22, tiles, whole)
    if suited and not honors:
        for fid, allowed in (
            (25, {7, 8, 9}),
            (26, {4, 5, 6}),
            (27, {1, 2, 3}),
            (36, {6, 7, 8, 9}),
            (37, {1, 2, 3, 4}),
        ):
            if ranks <= allowed:
                tally.add(fid, tiles, whole)
    if kinds <= REVERSIBLE:
        tally.add(40, tiles, whole)
    if len(suits) == 3 and any(t < 31 for t in honors) and any(t >= 31 for t in honors):
        tally.add(51, tiles, whole)
    if len(suits) == 2:
        tally.add(75, tiles, whole)
    if not honors:
        tally.add(76, tiles, whole)
    if not honors and not ranks & {1, 9}:
        tally.add(68, tiles, whole)
    for t in sorted(kinds):
        if ctx.counts[t] == 4 and t not in ctx.kong_tiles:
            tally.add(64, [t] * 4, fmt([t] * 4))


def _set_fans(tally: Tally, form: str, blocks: list[Block], ctx: Ctx) -> None:
    """Fans of the sets: honors pungs, kongs, concealed pungs, combinations, shape."""
    sets = [b for b in blocks if b.kind in ("chow", "pung", "kong")]
    pair = next(b for b in blocks if b.kind == "pair")
    pungs = [b for b in sets if b.kind != "chow"]
    chows = [b for b in sets if b.kind == "chow"]
    seat, rnd = ctx.sit.seat_wind, ctx.sit.round_wind

    winds = [b for b in pungs if 27 <= b.tile <= 30]
    dragons = [b for b in pungs if b.tile >= 31]
    wt = [t for b in winds for t in b.tiles]
    dt = [t for b in dragons for t in b.tiles]
    if len(winds) == 4:
        tally.add(1, wt, sets_text(winds))
    if len(winds) == 3:
        if 27 <= pair.tile <= 30:
            tally.add(9, wt + list(pair.tiles), "three wind pungs and a wind pair")
        tally.add(38, wt, sets_text(winds))
    if len(dragons) == 3:
        tally.add(2, dt, sets_text(dragons))
    if len(dragons) == 2:
        if pair.tile >= 31:
            tally.add(10, dt + list(pair.tiles), "two dragon pungs and a dragon pair")
        tally.add(54, dt, sets_text(dragons))
    for b in dragons:
        tally.add(59, b.tiles, fmt(b.tiles))
    for b in winds:
        if b.tile == rnd:
            tally.add(60, b.tiles, fmt(b.tiles))
        if b.tile == seat:
            tally.add(61, b.tiles, fmt(b.tiles))

    # kongs (no 明暗杠 in these rules: one concealed and one melded kong are 暗杠 + 明杠)
    kongs = [b for b in pungs if b.kind == "kong"]
    ck = [b for b in kongs if b.concealed]
    mk = [b for b in kongs if not b.concealed]
    kt = [t for b in kongs for t in b.tiles]
    ckt = [t for b in ck for t in b.tiles]
    if len(kongs) == 4:
        tally.add(5, kt, "four kongs")
    elif len(kongs) == 3:
        tally.add(17, kt, "three kongs")
        # 三杠: 暗杠加计 — its concealed kongs are counted on top
        if len(ck) == 1:
            tally.add(67, ckt, fmt(ckt))
        elif len(ck) >= 2:
            tally.add(53, ckt, "concealed kongs")
    elif len(kongs) == 2:
        if len(ck) == 2:
            tally.add(53, ckt, "two concealed kongs")
        elif len(mk) == 2:
            tally.add(57, kt, "two melded kongs")
        else:
            tally.add(67, ck[0].tiles, fmt(ck[0].tiles))
            tally.add(74, mk[0].tiles, fmt(mk[0].tiles))
    elif len(kongs) == 1:
        tally.add(67 if ck else 74, kongs[0].tiles, fmt(kongs[0].tiles))

    concealed_pungs = [b for b in pungs if b.concealed]
    cpt = [t for b in concealed_pungs for t in b.tiles]
    n_cp = len(concealed_pungs)
    if n_cp >= 2:
        tally.add({4: 12, 3: 33, 2: 66}[n_cp], cpt, sets_text(concealed_pungs))

    # whole-hand shape fans of the basic form
    all_sets = sets + [pair]
    if form == "standard":
        if len(pungs) == 4:
            tally.add(48, ctx.all_tiles, "four pungs")
        if len(chows) == 4 and pair.tile < 27:
            tally.add(63, ctx.all_tiles, "four chows and a suited pair")
        # ranks 2 4 6 8 have odd indices within a suit (index = rank - 1)
        if len(pungs) == 4 and all(b.tile < 27 and (b.tile % 9) % 2 == 1 for b in all_sets):
            tally.add(21, ctx.all_tiles, "even pungs and pair")
        if all(any(t >= 27 or t % 9 in (0, 8) for t in b.tiles) for b in all_sets):
            tally.add(55, ctx.all_tiles, "every set and the pair")
        if all(any(t < 27 and t % 9 == 4 for t in b.tiles) for b in all_sets):
            tally.add(31, ctx.all_tiles, "every set and the pair")
        if ctx.nmelds == 0 and _nine_gates(ctx):
            tally.add(4, ctx.all_tiles, "1112345678999 + " + code(ctx.win))
    else:
        knit = [t for b in blocks if b.kind == "knitted" for t in b.tiles]
        tally.add(35, knit, fmt(knit))
        if chows and pair.tile < 27 and not pungs:
            tally.add(63, ctx.all_tiles, "knitted straight, a chow and a suited pair")

    dragon_chows = _terminal_chows(chows, pair)
    if dragon_chows:
        tally.add(dragon_chows, ctx.all_tiles, "123 789 123 789 + 5 pair")
    else:
        _combination_fans(tally, "chow", chows)
    _combination_fans(tally, "pung", pungs)
    _terminal_pungs(tally, pungs, pair, ctx)


def _nine_gates(ctx: Ctx) -> bool:
    """九莲宝灯: the 13 tiles before the win are exactly 1112345678999 of one suit."""
    c = ctx.concealed13
    return sum(c) == 13 and any(tuple(c[s * 9 : s * 9 + 9]) == NINE_GATES for s in range(3))


def _terminal_chows(chows: list[Block], pair: Block) -> int | None:
    """13 一色双龙会 / 29 三色双龙会, or None."""
    if len(chows) != 4 or pair.tile >= 27 or pair.tile % 9 != 4:
        return None
    by_suit: dict[int, list[int]] = {}
    for b in chows:
        if b.tile % 9 not in (0, 6):
            return None
        by_suit.setdefault(b.tile // 9, []).append(b.tile % 9)
    shapes = {s: sorted(r) for s, r in by_suit.items()}
    ps = pair.tile // 9
    if list(shapes) == [ps] and shapes[ps] == [0, 0, 6, 6]:
        return 13
    if len(shapes) == 2 and ps not in shapes and all(r == [0, 6] for r in shapes.values()):
        return 29
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


def _terminal_pungs(tally: Tally, pungs: list[Block], pair: Block, ctx: Ctx) -> None:
    """幺九刻, less the pungs other fans already account for (partial 不重复)."""
    seat, rnd = ctx.sit.seat_wind, ctx.sit.round_wind
    n_winds = sum(1 for b in pungs if 27 <= b.tile <= 30)
    n_dragons = sum(1 for b in pungs if b.tile >= 31)
    skip_one = 4 in tally.hits
    for b in pungs:
        t = b.tile
        if not (t >= 27 or t % 9 in (0, 8)):
            continue
        by: int | None = None
        if t >= 31:
            by = {3: 2, 2: 10 if pair.tile >= 31 else 54}.get(n_dragons, 59)
        elif t >= 27 and n_winds >= 3:
            by = 1 if n_winds == 4 else (9 if 27 <= pair.tile <= 30 else 38)
        elif t >= 27 and t in (seat, rnd):
            by = 61 if t == seat else 60
        elif skip_one and t % 9 in (0, 8):
            skip_one = False
            by = 4
        if by is None:
            tally.add(73, b.tiles, fmt(b.tiles))
        else:
            tally.drop(73, f"{fmt(b.tiles)}: part of {FANS[by].name_zh} ({by})", by)


def _wait_candidates(blocks: list[Block], ctx: Ctx) -> list[int]:
    """Wait fans the winning tile could be read as, in order 边张, 坎张, 单钓将."""
    w = ctx.win
    found: list[int] = []
    knitted_ok = bool((ctx.sit.options or {}).get("knitted_wait_fans", False))
    for b in blocks:
        if b.declared:
            continue
        if b.kind == "pair" and b.tile == w:
            found.append(79)
        elif b.kind == "chow" and w < 27 and w // 9 == b.tile // 9 and b.tile <= w <= b.tile + 2:
            r = b.tile % 9
            if w == b.tile + 1:
                found.append(78)
            elif (r == 0 and w == b.tile + 2) or (r == 6 and w == b.tile):
                found.append(77)
        elif b.kind == "knitted" and knitted_ok and w in b.tiles:
            found.append(78 if w == b.tile + 3 else 77)
    if not found or not ctx.single_wait:
        return []
    return sorted(set(found))


def _situation_fans(tally: Tally, ctx: Ctx) -> None:
    sit = ctx.sit
    if sit.last_tile:
        tally.add(44 if sit.self_drawn else 45, [ctx.win], code(ctx.win))
    if sit.kong:
        tally.add(46 if sit.self_drawn else 47, [ctx.win], code(ctx.win))
    shown = sum(m.tiles.count(ctx.win) for m in ctx.hand.melds if not m.concealed)
    if sit.fourth_tile or shown == 3:
        # the other three copies lie exposed in the winner's own melds: 和绝张 by itself
        tally.add(58, [ctx.win], code(ctx.win))
    if sit.self_drawn:
        tally.add(80, [ctx.win], code(ctx.win))
    if not ctx.exposed:
        tally.add(56 if sit.self_drawn else 62, ctx.all_tiles, "no claimed set")
    if (
        ctx.nmelds == 4
        and ctx.exposed
        and all(not m.concealed for m in ctx.hand.melds)
        and not sit.self_drawn
    ):
        tally.add(52, ctx.all_tiles, "four claimed sets, won on a discard")


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
        tally.add(43, ctx.all_tiles, "no other fan")
