"""`mcr recognize PHOTO...`: read table photos into hands from the command line;
`mcr teach PHOTO --out FILE`: learn a table's set from a photo of it laid out in order.

One photo's failure (not an image, unreadable, too large) is reported for
that photo and the others go on; the exit status is 1 when any failed.
With `--json` each photo gives one JSON line (CONTRACTS.md "Recognition
output", or `{"image", "error"}`), so the output can be piped. `--lang`
words the reader's notes and the errors in English, simplified or
traditional Chinese (CONTRACTS.md: `en`, `zh`, `zh-Hant`). `--named FILE`
reads with the tiles a table's players named, as the page keeps and sends
them (`vision.exemplars`); `mcr teach` writes such a file from a photo of the set
laid out one tile of each kind in order (`vision.tileset`).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from scorer.errors import DEFAULT_LANG, LANGS, McrError
from vision.config import DEFAULT
from vision.errors import ModelError, PhotoError, TileListError

EXIT_ERROR = 1
#: the largest file of named tiles read (the page sends at most about 110 kB)
MAX_NAMED_BYTES = 1024 * 1024


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "recognize",
        help="read table photos into hand notation",
        description="Find and read the tiles in table photos (JPEG, PNG, WebP) and give the "
        "hand in the notation of `mcr score`.",
    )
    p.add_argument("photos", nargs="+", metavar="PHOTO", help="photo files")
    p.add_argument("--json", action="store_true", help="one JSON object per photo per line")
    p.add_argument(
        "--lang",
        choices=LANGS,
        default=DEFAULT_LANG,
        help="language of the notes and errors: en, zh (简体) or zh-Hant (繁體) (en)",
    )
    p.add_argument(
        "--score", action="store_true", help="also score each recognized hand (flowers counted)"
    )
    p.add_argument(
        "--named",
        metavar="FILE",
        help='tiles the table\'s players named, JSON [{"tile", "look"}] as the page sends '
        "them (each look as a result's tile gave it): the reader leans on them",
    )
    p.add_argument("--self-drawn", action="store_true", help="with --score: won by self-draw 自摸")
    p.add_argument("--seat-wind", default="E", help="with --score: seat wind 门风 E/S/W/N (E)")
    p.add_argument("--round-wind", default="E", help="with --score: prevalent wind 圈风 (E)")
    p.set_defaults(func=run)
    register_teach(subparsers)


def register_teach(subparsers: argparse._SubParsersAction) -> None:
    """`mcr teach`: the command line's way to the set a table's page learns from a photo."""
    p = subparsers.add_parser(
        "teach",
        help="learn a table's tile set from a photo of it laid out in order",
        description="Read a photo of one tile of each kind laid out in order (characters, "
        "dots and bamboos 1-9, then East South West North Red Green White, and the flowers "
        "if the set has them; the blocks in any order, rows of any length) and write the "
        "tiles, each named by its place, for `mcr recognize --named`.",
    )
    p.add_argument("photo", metavar="PHOTO", help="the photo of the laid-out set")
    p.add_argument("--out", metavar="FILE", help="write the named tiles here (JSON)")
    p.add_argument(
        "--lang", choices=LANGS, default=DEFAULT_LANG, help="language of the errors (en)"
    )
    p.set_defaults(func=run_teach)


def run_teach(
    args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Teach the set; print what each place named (and what the reader read there)."""
    from vision.pipeline import teach_path
    from vision.tileset import exemplars

    out, err = out or sys.stdout, err or sys.stderr
    try:
        taught = teach_path(args.photo)
    except McrError as exc:
        print(f"mcr teach: {exc.message_in(args.lang)}", file=err)
        return EXIT_ERROR
    tiles = taught["set"]
    print(f"{args.photo}: {len(tiles)} tiles taught, {taught['agreed']} read so before", file=out)
    fixed = [f"{t['tile']} (read {t['read']})" for t in tiles if t["read"] != t["tile"]]
    if fixed:
        print("  named by place: " + ", ".join(fixed), file=out)
    if args.out:
        try:
            with open(args.out, "w", encoding="utf-8") as f:
                json.dump(exemplars(tiles), f)
        except OSError as exc:
            print(f"mcr teach: {args.out}: {exc.strerror or exc}", file=err)
            return EXIT_ERROR
        print(f"  written to {args.out}: use `mcr recognize --named {args.out}`", file=out)
    return 0


def _score(result: dict[str, Any], args: argparse.Namespace) -> dict[str, Any] | None:
    if not result.get("hand"):
        return None
    from scorer.request import error_response, score_request

    request = {
        "hand": result["hand"],
        "flowers": min(result["flowers"]["count"], 8),
        "self_drawn": args.self_drawn,
        # 和绝张 when the photo shows the winning tile's three other copies on the table
        "fourth_tile": bool(result.get("fourth_tile_seen")),
        "seat_wind": args.seat_wind,
        "round_wind": args.round_wind,
    }
    try:
        return score_request(request)
    except McrError as exc:
        return error_response(exc)


def _table_lines(result: dict[str, Any]) -> list[str]:
    """What a photo of a table showed besides the hand, and 和绝张 seen there."""
    out = []
    groups = result.get("ignored") or []
    if groups:
        counts: dict[str, int] = {}
        for g in groups:
            counts[g["kind"]] = counts.get(g["kind"], 0) + len(g["tiles"])
        kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(counts.items()))
        out.append(f"  not the hand: {sum(counts.values())} tiles ({kinds})")
    if result.get("fourth_tile_seen"):
        out.append("  last tile (和绝张): the other three copies are in view")
    return out


def _meld_line(meld: dict[str, Any]) -> str:
    """One meld as read: its notation, or why it has none (a kong lying face down asks
    for its tile; a group that is no meld shows the tiles read, to be corrected)."""
    if meld["notation"]:
        what = meld["notation"]
    elif meld["needs_name"]:
        what = "concealed kong, face down: name its tile"
    else:
        kong = "concealed kong " if meld["concealed"] else ""
        what = f"{kong}{' '.join(meld['tiles'])} (not read as a chow, pung or kong)"
    if meld["giver"]:
        promoted = "promoted kong, " if meld["promoted"] else ""
        what += f"  ({promoted}claimed from the {meld['giver']})"
    return what


def summary(result: dict[str, Any]) -> str:
    """A readable account of one recognition result."""
    lines = [
        f"{result['image']}: {len(result['tiles'])} tiles"
        + (f" (photo turned {result['rotation']}°)" if result.get("rotation") else "")
    ]
    lines.append(f"  hand: {result['hand'] or '(not a complete hand)'}")
    lines.extend(f"  meld: {_meld_line(meld)}" for meld in result["melds"])
    if result["winning_tile"]:
        lines.append(f"  winning tile: {result['winning_tile']}")
    if result["flowers"]["count"]:
        lines.append(
            f"  flowers: {result['flowers']['count']} ({' '.join(result['flowers']['tiles'])})"
        )
    if result.get("waits") is not None:
        lines.append(f"  waiting for: {' '.join(result['waits']) or '(nothing)'}")
    lines.extend(_table_lines(result))
    changed = [t for t in result["tiles"] if t["overridden"]]
    if changed:
        read = ", ".join(
            f"{t['tile']} (looked like {t['alternatives'][0]['tile']})" for t in changed
        )
        lines.append(f"  check: {read}")
    if not result["hand"]:
        first = " ".join(t["tile"] for t in result["tiles"])
        if first:
            lines.append(f"  tiles read: {first}")
    lines.extend(f"  warning: {w}" for w in result["warnings"])
    score = result.get("score")
    if score and "error" in score:
        lines.append(f"  score: {score['error']['message']}")
    elif score:
        fans = ", ".join(
            f"{f['name_en']} {f['points']}" + (f"x{f['count']}" if f["count"] > 1 else "")
            for f in score["fans"]
        )
        lines.append(f"  score: {score['total']} fan ({fans})")
    return "\n".join(lines)


def read_named(path: str | None) -> Any:
    """The JSON of a file of named tiles (checked by the reader), None without one."""
    from scorer.textinput import loads_strict
    from vision.exemplars import parse_exemplars

    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_NAMED_BYTES + 1)
    except OSError as exc:
        raise PhotoError("unreadable_file", path=path, detail=exc.strerror or exc) from exc
    if len(data) > MAX_NAMED_BYTES:
        raise TileListError("bad_exemplars.list", most=DEFAULT.exemplars.most)
    try:
        value = loads_strict(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise TileListError("bad_exemplars.list", most=DEFAULT.exemplars.most) from exc
    parse_exemplars(value, None, 0)  # its shape, once; each reading compares the looks
    return value


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    from vision.notes import in_lang
    from vision.pipeline import recognize_path

    out = out or sys.stdout
    err = err or sys.stderr
    status = 0
    try:
        named = read_named(args.named)
    except McrError as exc:
        print(f"mcr recognize: {exc.message_in(args.lang)}", file=err)
        return EXIT_ERROR
    for path in args.photos:
        try:
            result = in_lang(recognize_path(path, exemplars=named), args.lang)
        except ModelError as exc:
            print(f"mcr recognize: {exc.message_in(args.lang)}", file=err)
            return EXIT_ERROR
        except McrError as exc:
            status = EXIT_ERROR
            if args.json:
                print(
                    json.dumps({"image": path, **exc.to_json(args.lang)}, ensure_ascii=False),
                    file=out,
                )
            else:
                print(f"{path}: {exc.message_in(args.lang)}", file=err)
            continue
        if args.score:
            result["score"] = _score(result, args)
        if args.json:
            print(json.dumps(result, ensure_ascii=False, separators=(",", ":")), file=out)
        else:
            print(summary(result), file=out)
    return status
