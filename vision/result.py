"""The recognition result: the stages' values as the contract's JSON object.

CONTRACTS.md "Recognition output" fixes its fields: each tile with its box,
reading, sideways mark and look, the groups, the hand (or a partial hand),
the melds with their givers, the flowers, the groups ignored at a table and
和绝张 as the table shows it. Only this module writes that object, so the
pipeline's stages pass plain values and the contract has one home.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from scorer.hand import Meld, MeldKind
from scorer.notation import format_meld
from scorer.tiles import BACK, CODES, INDEX
from vision.config import DEFAULT, VisionConfig
from vision.decode import Decoded
from vision.layout.kinds import code_of, likeliest
from vision.notes import Note, note
from vision.pieces import Piece
from vision.readhand import Reading
from vision.regions import shown_as, shown_copies
from vision.types import Group, Layout, TileRead

#: a claimed tile's giver by the meld's mark (the notation's seats from the winner)
GIVERS = {1: "left", 2: "opposite", 3: "right"}
#: the warning of a photo of a table where no group of tiles makes a complete hand
NO_HAND_AMONG = note("no_hand_among")
#: the warning of a photo in which no tile was found
NO_TILES = note("no_tiles")


def _tile_json(read: TileRead, group: int, sideways: bool, partial: bool) -> dict[str, Any]:
    return {
        "tile": read.chosen,
        "box": [round(float(v), 1) for v in read.detection.box],
        "confidence": round(read.confidence, 4),
        "sideways": sideways,
        "face_down": read.chosen == BACK,
        "group": group,
        "overridden": bool(read.overridden),
        "up": _up_json(read),
        "alternatives": _alternatives(read),
        "partial": partial,
        "look": _look_json(read, read.chosen),
    }


def cut_by_edge(read: TileRead, size: tuple[int, int], config: VisionConfig = DEFAULT) -> bool:
    """Whether the tile's box reaches the photo's edge (`size`: width, height; 0 where not
    known): the photo shows only part of it, which may then be misread."""
    x1, y1, x2, y2 = read.detection.box
    edge = config.pipeline.edge_px
    if min(size) <= 0:
        return False
    return bool(min(x1, y1) <= edge or x2 >= size[0] - edge or y2 >= size[1] - edge)


def _meld_json(
    meld: Meld | None, group: Group, reads: list[TileRead], gi: int, unnamed: bool = False
) -> dict:
    codes = [reads[i].chosen for i in group.tiles]
    if meld is None:  # not decoded: no legal hand, or a kong lying all face down
        hidden = group.role == "concealed_kong"
        return {
            "needs_name": unnamed,
            "group": gi,
            "tiles": codes,
            "kind": "kong" if hidden or len(codes) == 4 else None,
            "tile": None,
            "concealed": hidden,
            "promoted": group.promoted,
            "claimed": None,
            "giver": None if hidden else GIVERS.get(group.claimed),
            "notation": None,
        }
    chow = meld.kind is MeldKind.CHOW
    return {
        "needs_name": False,
        "group": gi,
        "tiles": codes,
        "kind": meld.kind.value,
        "tile": CODES[meld.tile],
        "concealed": meld.concealed,
        "promoted": meld.promoted,
        "claimed": meld.claimed if chow else None,
        "giver": None if chow or meld.concealed else GIVERS.get(meld.claimed),
        "notation": format_meld(meld),
    }


def result_json(
    reads: list[TileRead],
    layout: Layout,
    decoded: Decoded,
    name: str,
    size: tuple[int, int],
    config: VisionConfig = DEFAULT,
) -> dict[str, Any]:
    """Assemble the contract object from the stages' outputs."""
    group_of = {i: gi for gi, g in enumerate(layout.groups) for i in g.tiles}
    melds, winning, flowers = [], None, []
    for gi, g in enumerate(layout.groups):
        if g.role in ("meld", "concealed_kong"):
            melds.append(_meld_json(decoded.melds.get(gi), g, reads, gi, gi in decoded.unnamed))
        elif g.role == "winning" and g.tiles:
            winning = reads[g.tiles[0]].chosen
        elif g.role == "flowers":
            flowers = sorted((reads[i].chosen for i in g.tiles), key=INDEX.__getitem__)
    notes = list(layout.warnings) + list(decoded.warnings)
    if len(set(flowers)) < len(flowers):
        notes.append(note("flower_twice"))
    cut = [cut_by_edge(r, size, config) for r in reads]
    if any(cut):
        notes.append(note("hand_at_edge", n=sum(cut)))
    return {
        "image": name,
        "size": {"width": size[0], "height": size[1]},
        "rotation": layout.rotation,
        "tiles": [
            _tile_json(r, group_of.get(i, -1), bool(side), cut[i])
            for i, (r, side) in enumerate(zip(reads, _sideways(reads, layout), strict=True))
        ],
        "groups": [{"role": g.role, "tiles": list(g.tiles)} for g in layout.groups],
        "hand": decoded.notation,
        "partial_hand": decoded.partial,
        "melds": melds,
        "winning_tile": winning,
        "flowers": {"count": len(flowers), "tiles": flowers},
        "waits": None if decoded.waits is None else [CODES[t] for t in decoded.waits],
        "uncertain": [i for i, r in enumerate(reads) if r.confidence < config.pipeline.uncertain],
        **_noted(notes),
    }


def _noted(notes: list[Note]) -> dict[str, Any]:
    """The result's notes (CONTRACTS.md: `notes`, and their English texts as `warnings`)."""
    return {"warnings": [n.text() for n in notes], "notes": [n.to_json() for n in notes]}


def assemble(
    every: list[TileRead],
    chosen: tuple[int, ...],
    reading: Reading,
    ignored: list[Piece],
    name: str,
    size: tuple[int, int],
    config: VisionConfig = DEFAULT,
) -> dict[str, Any]:
    """The recognition result: the hand's reading, the groups ignored, 和绝张 from the table."""
    reads, layout, decoded = reading
    out = result_json(reads, layout, decoded, name, (int(size[0]), int(size[1])), config)
    every = as_shown(every, ignored)
    out["ignored"] = [
        {"kind": p.kind, "tiles": [_ignored_json(every[i], size, config) for i in p.tiles]}
        for p in ignored
    ]
    out["fourth_tile_seen"] = fourth_tile_seen(out, reads, layout, every, ignored)
    if not every:  # the layout's and decoder's counts of nothing say nothing more
        out.update(_noted([NO_TILES]))
    elif ignored and out["hand"] is None and out["partial_hand"] is None:
        out["warnings"].append(NO_HAND_AMONG.text())
        out["notes"].append(NO_HAND_AMONG.to_json())
    return out


def fourth_tile_seen(
    out: dict[str, Any],
    reads: list[TileRead],
    layout: Layout,
    every: list[TileRead],
    ignored: list[Piece],
) -> bool | None:
    """和绝张 from the table: whether the three other copies of the winning tile lie face up
    in view (the ponds, the other players' melds, tiles apart, the hand's own exposed
    melds). A hand that also holds a copy concealed cannot win on the last one: some tile
    was misread, and the flag stays off."""
    winning = out.get("winning_tile")
    if not winning or winning == BACK:
        return None
    in_melds = [reads[i].chosen for g in layout.groups if g.role == "meld" for i in g.tiles]
    held = [reads[i].chosen for g in layout.groups if g.role == "concealed" for i in g.tiles]
    shown = shown_copies(winning, [code_of(r) for r in every], ignored) + in_melds.count(winning)
    return shown >= 3 and winning not in held


def as_shown(every: list[TileRead], ignored: list[Piece]) -> list[TileRead]:
    """The reads with each tile of the pieces not the hand named as its piece allows
    (`shown_as`: a pond's tiles lie face up and are never flowers); new reads for those."""
    out = list(every)
    for piece in ignored:
        for i in piece.tiles:
            out[i] = replace(every[i], chosen=shown_as(every[i], piece.kind))
    return out


def _ignored_json(
    read: TileRead, size: tuple[int, int], config: VisionConfig = DEFAULT
) -> dict[str, Any]:
    return {
        "tile": code_of(read),
        "box": [round(float(v), 1) for v in read.detection.box],
        "confidence": round(read.confidence, 4),
        "alternatives": _alternatives(read),
        "up": _up_json(read),
        "partial": cut_by_edge(read, size, config),
        "look": _look_json(read, code_of(read)),
    }


def _look_json(read: TileRead, code: str) -> str | None:
    """The tile's look where it may name the table's set (`vision.exemplars`): none for a
    back, which names no face (a table's walls and hands seen from behind, the most of its
    tiles, would otherwise weigh down every answer and every regroup request)."""
    return None if code == BACK else read.look


def _alternatives(read: TileRead) -> list[dict[str, Any]]:
    """The three likeliest tiles and their probabilities."""
    return [{"tile": CODES[k], "p": round(float(read.probs[k]), 4)} for k in likeliest(read, 3)]


def _up_json(read: TileRead) -> list[float] | None:
    """Where the face's top points (x right, y down), for reading the tile again later."""
    return None if read.up is None else [round(float(v), 3) for v in read.up]


def _sideways(reads: list[TileRead], layout: Layout) -> tuple[bool, ...]:
    """Each tile's sideways mark: the layout's, or the detector's where the layout has none
    (no tiles, or a layout built by hand)."""
    return layout.sideways or tuple(r.detection.sideways for r in reads)
