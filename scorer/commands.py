"""`mcr score`, `mcr check` and `mcr waits`: the scorer on the command line.

All three build a score request (CONTRACTS.md) from the arguments and go
through `scorer.request`, so the command line, the batch mode and the web
API accept and reject exactly the same hands. A ScoreError ends the command
with exit status 1 and a one-line message, never a traceback.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO

from scorer.columns import display_width, pad
from scorer.errors import McrError, ScoreError
from scorer.request import error_response, score_request
from scorer.textinput import loads_strict, stdin_lines

EXIT_ERROR = 1
EXIT_INTERNAL = 2


def _dump(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _add_situation_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--self-drawn", action="store_true", help="won by self-draw 自摸")
    p.add_argument(
        "--fourth-tile", action="store_true", help="the winning tile is the last of its kind 和绝张"
    )
    p.add_argument(
        "--kong",
        action="store_true",
        help="self-drawn: out on a kong replacement 杠上开花; discard: robbing the kong 抢杠和",
    )
    p.add_argument(
        "--last-tile",
        action="store_true",
        help="self-drawn: last tile of the wall 妙手回春; discard: the last discard 海底捞月",
    )
    p.add_argument("--seat-wind", default="E", help="the winner's seat wind 门风: E/S/W/N (E)")
    p.add_argument("--round-wind", default="E", help="the prevalent wind 圈风: E/S/W/N (E)")
    p.add_argument("--flowers", default="0", help="number of flowers 花牌 0-8 (0)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument(
        "--lang",
        default="both",
        choices=("zh", "zh-Hant", "en", "both"),
        help="fan names and messages (both: fan names in both, messages in English)",
    )


def request_from_args(args: argparse.Namespace, hand: str) -> dict[str, Any]:
    """The score request of the command-line flags (validated later, like any request)."""
    try:
        flowers: Any = int(args.flowers)
    except ValueError:
        flowers = args.flowers  # let the request validation word the error
    return {
        "hand": hand,
        "flowers": flowers,
        "self_drawn": args.self_drawn,
        "fourth_tile": args.fourth_tile,
        "kong": args.kong,
        "last_tile": args.last_tile,
        "seat_wind": args.seat_wind.upper(),
        "round_wind": args.round_wind.upper(),
        "lang": args.lang,
    }


def _guarded(func: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Turn ScoreError (and any unexpected error) into a message and an exit status."""

    def run(args: argparse.Namespace) -> int:
        _tolerant(sys.stdout, "backslashreplace")
        try:
            return func(args)
        except McrError as exc:
            lang = getattr(args, "lang", "en")
            if getattr(args, "json", False):
                print(_dump(error_response(exc, lang=lang)))
            else:
                print(f"mcr {args.command}: {exc.message_in(lang)} [{exc.code}]", file=sys.stderr)
            return EXIT_ERROR
        except BrokenPipeError:
            raise  # the output's reader went away: `webui.cli.main` ends quietly
        except Exception as exc:  # noqa: BLE001 - the command line never shows a traceback
            print(f"mcr {args.command}: internal error: {exc!r}", file=sys.stderr)
            return EXIT_INTERNAL

    return run


# -- score ---------------------------------------------------------------------


#: the captions of the readable output in traditional characters
CAPTIONS_ZH_HANT = {
    "和者": "和者",
    "点炮者": "點炮者",
    "其他每家": "其他每家",
    "手牌": "手牌",
    "支付": "支付",
    "正确": "正確",
    "总番": "總番",
    "错误": "錯誤",
    "申报": "申報",
    "正确总番": "正確總番",
    "漏计": "漏計",
    "多计": "多計",
    "次数不对": "次數不對",
    "应为": "應為",
    "正确番种": "正確番種",
    "不够起和8番（花牌不计）。": "不夠起和8番（花牌不計）。",
    "未听牌：没有能和的牌。": "未聽牌：沒有能和的牌。",
    "点和": "點和",
    "自摸": "自摸",
    "和张": "和張",
    "<8：不够起和8番（花牌不计）": "<8：不夠起和8番（花牌不計）",
    "n/a：该张与该和法不可能有这些条件": "n/a：該張與該和法不可能有這些條件",
}


def label(lang: str, en: str, zh: str) -> str:
    """A caption in the chosen language(s); `zh` is the simplified one."""
    if lang == "zh-Hant":
        return CAPTIONS_ZH_HANT[zh]
    return {"en": en, "zh": zh}.get(lang, f"{en} {zh}")


def format_response(resp: dict[str, Any], lang: str = "both") -> str:
    """Readable score: the hand, the engine's fan table (with the fans not counted), payments."""
    pay = resp["payments"]
    parts = [f"{label(lang, 'winner', '和者')} {pay['winner']:+d}"]
    if "discarder" in pay:
        parts.append(f"{label(lang, 'discarder', '点炮者')} {pay['discarder']:+d}")
    parts.append(f"{label(lang, 'each other player', '其他每家')} {pay['other']:+d}")
    return "\n".join(
        [
            f"{label(lang, 'Hand', '手牌')}: {resp['hand']}",
            resp["explanation"].rstrip(),
            f"{label(lang, 'Payments', '支付')}: " + ", ".join(parts),
        ]
    )


def answer_line(line: str) -> dict[str, Any]:
    """One batch line to one response object; never raises."""
    request: Any = None
    try:
        try:
            request = loads_strict(line)
        except ValueError as exc:
            raise ScoreError("bad_json.line", detail=str(exc)) from None
        return score_request(request)
    except McrError as exc:
        return error_response(exc, request)
    except Exception as exc:  # noqa: BLE001 - one bad line must not stop the batch
        return error_response(ScoreError("internal_error", detail=repr(exc)), request)


def score_lines(lines: Iterable[str]) -> Iterator[str]:
    """The batch mode: one JSON response line per input line, in order."""
    for line in lines:
        yield _dump(answer_line(line.rstrip("\r\n")))


def _tolerant(stream: TextIO, errors: str) -> None:
    """Undecodable input becomes a bad line, unencodable output an escape: never a crash."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors=errors)


def run_batch(stdin: TextIO, stdout: TextIO) -> int:
    _tolerant(stdin, "replace")
    _tolerant(stdout, "backslashreplace")
    # The modules and tables loaded so far live as long as the process: keep the
    # cyclic garbage collector from scanning them again for every hand.
    gc.freeze()
    for out in score_lines(stdin_lines(stdin)):
        stdout.write(out + "\n")
        stdout.flush()
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    if args.batch:
        if args.hand:
            raise ScoreError("bad_arguments.batch")
        return run_batch(sys.stdin, sys.stdout)
    if not args.hand:
        raise ScoreError("bad_arguments.no_hand")
    resp = score_request(request_from_args(args, args.hand))
    print(_dump(resp) if args.json else format_response(resp, args.lang))
    return 0


# -- check and waits ------------------------------------------------------------


def _fan_label(f: dict[str, Any], lang: str) -> str:
    from scorer.fans import FANS

    names = {"zh": f["name_zh"], "zh-Hant": FANS[f["id"]].name_zh_hant, "en": f["name_en"]}
    name = names.get(lang, f"{f['name_zh']} {f['name_en']}")
    times = f" ×{f['count']}" if f.get("count", 1) != 1 else ""
    return f"{name} ({f['points']}){times}"


def format_check(rep: dict[str, Any], lang: str) -> str:
    """Readable referee verdict: right/wrong, then what differs and the right total."""
    lines = [f"{label(lang, 'Hand', '手牌')}: {rep['hand']}"]
    if rep["correct"]:
        lines.append(
            f"{label(lang, 'CORRECT', '正确')}: {label(lang, 'total', '总番')} {rep['total']}"
        )
    else:
        lines.append(
            f"{label(lang, 'WRONG', '错误')}: {label(lang, 'claimed', '申报')} "
            f"{rep['claimed_total']}, {label(lang, 'correct total', '正确总番')} {rep['total']}"
        )
    for key, en, zh in (("missing", "Missing", "漏计"), ("extra", "Not scored", "多计")):
        for f in rep.get(key, []):
            why = f": {f['reason']}" if f.get("reason") else ""
            lines.append(f"  {label(lang, en, zh)}: {_fan_label(f, lang)}{why}")
    for f in rep.get("miscounted", []):
        lines.append(
            f"  {label(lang, 'Wrong count', '次数不对')}: {_fan_label({**f, 'count': 1}, lang)} "
            f"{label(lang, 'claimed', '申报')} ×{f['claimed']}, "
            f"{label(lang, 'correct', '应为')} ×{f['count']}"
        )
    if not rep["correct"]:
        fans = ", ".join(_fan_label(f, lang) for f in rep["fans"])
        lines.append(f"{label(lang, 'Correct fans', '正确番种')}: {fans}")
    if not rep["meets_minimum"]:
        lines.append(
            label(
                lang, "Below the 8-fan minimum (flowers do not count).", "不够起和8番（花牌不计）。"
            )
        )
    return "\n".join(lines)


def cmd_check(args: argparse.Namespace) -> int:
    from scorer.request import check_claim

    rep = check_claim(request_from_args(args, args.hand), claim=args.claim, total=args.total)
    print(_dump(rep) if args.json else format_check(rep, args.lang))
    return 0


def format_waits(rep: dict[str, Any], lang: str) -> str:
    """Readable waits: one line per winning tile, discard and self-draw totals."""
    head = f"{label(lang, 'Hand', '手牌')}: {rep['hand']}"
    if not rep["waiting"]:
        return (
            head
            + "\n"
            + label(lang, "Not waiting: no tile completes this hand.", "未听牌：没有能和的牌。")
        )
    captions = [label(lang, "discard", "点和"), label(lang, "self-draw", "自摸")]
    widths = [max(6, display_width(c)) for c in captions]
    tile_caption = label(lang, "tile", "和张")
    first = max(5, display_width(tile_caption))
    lines = [
        head,
        tile_caption
        + " " * (first - display_width(tile_caption))
        + "".join(
            "  " + pad(c, w, right=True) + "    " for c, w in zip(captions, widths, strict=True)
        ).rstrip(),
    ]
    notes = set()
    for w in rep["waits"]:
        row = f"{w['tile']:<{first}}"
        for key, width in zip(("discard", "self_drawn"), widths, strict=True):
            entry = w[key]
            if "error" in entry:
                cell, mark = "n/a", ""
                notes.add("n/a")
            else:
                cell, mark = str(entry["total"]), "" if entry["meets_minimum"] else " <8"
                if mark:
                    notes.add("<8")
            row += "  " + pad(cell, width, right=True) + f"{mark:<4}"
        lines.append(row.rstrip())
    if "<8" in notes:
        lines.append(
            label(
                lang,
                "<8: below the 8-fan minimum (flowers do not count)",
                "<8：不够起和8番（花牌不计）",
            )
        )
    if "n/a" in notes:
        lines.append(
            label(
                lang,
                "n/a: the flags are impossible for that tile and way of winning",
                "n/a：该张与该和法不可能有这些条件",
            )
        )
    return "\n".join(lines)


def cmd_waits(args: argparse.Namespace) -> int:
    from scorer.request import waits_report

    req = request_from_args(args, args.hand)
    req.pop("lang")
    rep = waits_report(req)
    print(_dump(rep) if args.json else format_waits(rep, args.lang))
    return 0


# -- registration --------------------------------------------------------------


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "score",
        help="score a hand (fan breakdown, total, payments)",
        description="Score a winning hand written in the hand notation, e.g. "
        "'[123p,1][345s,2][999s,3]66mEEE'; --batch reads JSON requests, one per line.",
    )
    p.add_argument("hand", nargs="?", help="the hand, the winning tile last")
    p.add_argument("--batch", action="store_true", help="JSON lines on stdin -> JSON lines")
    _add_situation_flags(p)
    p.set_defaults(func=_guarded(cmd_score))

    p = subparsers.add_parser(
        "check",
        help="referee check: is a claimed fan list or total right?",
        description="Compare a claimed fan list (names or numbers) or total with the correct score.",
    )
    p.add_argument("hand", help="the hand, the winning tile last")
    claim = p.add_mutually_exclusive_group(required=True)
    claim.add_argument(
        "--claim",
        help="claimed fans, comma separated: names (zh/en) or numbers 1-81, "
        "'name*2' or a repeated name for a fan counted twice",
    )
    claim.add_argument("--total", type=int, help="claimed total, flowers included")
    _add_situation_flags(p)
    p.set_defaults(func=_guarded(cmd_check))

    p = subparsers.add_parser(
        "waits",
        help="winning tiles of a 13-tile hand with their scores",
        description="List every tile that completes a 13-tile hand, with the fan total on a "
        "discard and on a self-draw (both are always shown; --self-drawn changes nothing). "
        "--fourth-tile applies to each tile the hand conceals no copy of; a tile of which "
        "three copies are in the melds is the last one anyway.",
    )
    p.add_argument("hand", help="13 tiles (melds included), no winning tile")
    _add_situation_flags(p)
    p.set_defaults(func=_guarded(cmd_waits))
