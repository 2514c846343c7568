"""`mcr game ...`: replay a sheet, keep games in the database, rank a tournament.

Every failure (bad input, unknown game, unreadable file, database trouble)
prints one line to stderr and exits 1; nobody at a table should have to
read a traceback.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scorer.errors import McrError
from scorer.game import csvio, rules, text
from scorer.game.checks import hand_revision
from scorer.game.errors import GameError
from scorer.game.replay import clean_name, replay, team_name
from scorer.game.store import GameStore
from scorer.game.tournament import rank_players, rank_teams, tournament_rankings
from scorer.textinput import loads_strict, stdin_lines


def _read(path: str) -> str:
    """A file's text; a pipe or device named in its place would be waited on for ever."""
    try:
        if path == "-":  # without the byte order mark a spreadsheet may write, as from a file
            return "".join(stdin_lines(sys.stdin))
        if not Path(path).is_file():
            detail = "not a regular file; give - to read standard input"
            raise GameError("bad_file.read", path=path, detail=detail)
        return Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise GameError("bad_file.read", path=path, detail=exc) from None


def _read_json(path: str) -> Any:
    """A file's JSON value, read as `mcr score --batch` reads a line: no NaN, no endless
    numbers."""
    text = _read(path)
    try:
        return loads_strict(text)
    except ValueError as exc:
        raise GameError("bad_json.file", path=path, detail=exc) from None


def _write(data: str, output: str | None) -> None:
    if not output or output == "-":
        sys.stdout.write(data)
        return
    try:
        Path(output).write_text(data, encoding="utf-8")
    except OSError as exc:
        raise GameError("bad_file.write", path=output, detail=exc) from None


def _print_json(obj: Any) -> None:
    print(text.shown_json(obj))


def _store(args: argparse.Namespace, reading: bool = False) -> GameStore:
    """The game database; only reading it, a mistyped `--db` is an error, not a new,
    empty database (the default one is made on first use either way)."""
    if reading and args.db and not Path(args.db).exists():
        raise GameError("bad_file.read", path=args.db, detail="no such database")
    return GameStore(args.db)


def parse_penalty(spec: str) -> dict[str, Any]:
    """`PLAYER:KIND` or `PLAYER:deduction:POINTS` from the command line."""
    pieces = spec.rsplit(":", 2)
    if len(pieces) == 3 and pieces[1] == "deduction":
        points = csvio.deduction_points(pieces[2])
        if points is None:
            raise GameError("bad_penalty.spec_points", spec=repr(spec))
        return {"player": pieces[0], "kind": "deduction", "points": points}
    name, _, kind = spec.rpartition(":")
    if not name:
        raise GameError("bad_penalty.spec", spec=repr(spec))
    return {"player": name, "kind": kind}


def _hand_from_args(args: argparse.Namespace) -> dict[str, Any]:
    hand: dict[str, Any]
    if args.draw:
        if args.winner or args.discarder or args.fans is not None or args.self_drawn:
            raise GameError("bad_hand.draw_args")
        hand = {"result": "draw"}
    else:
        if not args.winner:
            raise GameError("missing_field.winner_arg")
        hand = {
            "result": "win",
            "winner": args.winner,
            "self_drawn": args.self_drawn,
            "fans": args.fans,
        }
        if args.discarder:
            hand["discarder"] = args.discarder
    if args.penalty:
        hand["penalties"] = [parse_penalty(p) for p in args.penalty]
    if args.hand:
        hand["hand"] = args.hand
    return hand


# ----- subcommand bodies ----------------------------------------------------


def cmd_replay(args: argparse.Namespace) -> None:
    sheet = replay(_read_json(args.game))
    if args.json:
        _print_json(sheet)
    else:
        print(text.sheet_text(sheet))


def cmd_new(args: argparse.Namespace) -> None:
    names = [clean_name(p) for p in args.players]
    teams: dict[str, str] = {}
    for spec in args.team or []:
        player, sep, team = spec.partition("=")
        player, clean = clean_name(player), team_name(team)
        if not sep or player not in names or clean is None or teams.get(player, clean) != clean:
            raise GameError("bad_team", spec=repr(spec))
        teams[player] = clean
    game_id = _store(args).create_game(
        args.players,
        name=args.name,
        tournament=args.tournament,
        session=args.session,
        table=args.table,
        who=args.by,
        teams=teams,
    )
    print(f"game {game_id}: {text.shown(', '.join(names))}")


def cmd_record(args: argparse.Namespace) -> None:
    store = _store(args)
    number, recorded = store.record_hand_once(
        args.game_id, _hand_from_args(args), args.by, args.expect, args.request_id
    )
    sheet = store.sheet_after_change(args.game_id)
    h = sheet["hands"][number - 1]
    done = "recorded" if recorded else "was already recorded"
    print(f"hand {number} {done}: {text.describe(h)}")
    print("局分: " + text.shown(", ".join(f"{p} {s}" for p, s in sheet["scores"].items())))


def cmd_undo(args: argparse.Namespace) -> None:
    old = _store(args).undo_last(args.game_id, who=args.by, number=args.expect)
    print(f"removed the last hand: {text.describe(old)}")


def cmd_edit(args: argparse.Namespace) -> None:
    store = _store(args)
    new = store.edit_hand(
        args.game_id, args.hand_no, _hand_from_args(args), who=args.by, revision=args.expect
    )
    revision = hand_revision(new)
    print(f"hand {args.hand_no} is now: {text.describe(new)} (revision {revision})")


def cmd_late(args: argparse.Namespace) -> None:
    ruling = rules.lateness_ruling(args.minutes)
    if ruling.forfeit:
        raise GameError("forfeit", player=args.player)
    penalty = ruling.penalty(args.player)
    if penalty is None:
        print("not late: no penalty")
        return
    _store(args).add_game_penalty(args.game_id, penalty, who=args.by)
    warning = "a warning and " if ruling.warning else ""
    print(f"{text.shown(args.player)}: {warning}{ruling.points} points off the 局分")


def cmd_show(args: argparse.Namespace) -> None:
    store = _store(args, reading=True)
    sheet = store.sheet(args.game_id)
    if args.json:
        if args.audit:
            sheet["audit"] = store.audit_trail(args.game_id)
        _print_json(sheet)
        return
    title = f"game {sheet['id']}" + (f" {sheet['name']}" if sheet["name"] else "")
    print(text.shown(title))
    print(text.sheet_text(sheet))
    if args.audit:
        for a in store.audit_trail(args.game_id):
            hand = f" hand {a['hand']}" if a["hand"] else ""
            line = (
                f"{a['at']} {a['who'] or '-'} {a['action']}{hand}: "
                f"{json.dumps(a['old'], ensure_ascii=False)} -> "
                f"{json.dumps(a['new'], ensure_ascii=False)}"
            )
            print(text.shown(line))


def cmd_list(args: argparse.Namespace) -> None:
    games = _store(args, reading=True).list_games(args.tournament)
    if args.json:
        _print_json(games)
        return
    if not games:
        print("no games yet")
        return
    rows = [["id", "hands", "players", "name", "tournament"]]
    for g in games:
        rows.append(
            [str(g["id"]), f"{g['hands']}/16", ", ".join(g["players"]), g["name"], g["tournament"]]
        )
    print(text.table(rows, right={0}))


def cmd_export(args: argparse.Namespace) -> None:
    _write(csvio.sheet_to_csv(_store(args, reading=True).sheet(args.game_id)), args.output)


def cmd_import(args: argparse.Namespace) -> None:
    game = csvio.csv_to_game(_read(args.csv), check=not args.no_check)
    game_id = _store(args).import_game(
        game, who=args.by, name=args.name, tournament=args.tournament
    )
    print(f"game {game_id}: imported {len(game['hands'])} hands")


def cmd_rankings(args: argparse.Namespace) -> None:
    if args.file:
        result = tournament_rankings(_read_json(args.file))
        if args.json:
            _print_json(result)
            return
        print(text.ranking_text(result["players"]))
        if result["teams"]:
            print("\n" + text.ranking_text(result["teams"]))
        return
    store = _store(args, reading=True)
    sheets = store.sheets(args.tournament)
    teams = store.teams(args.tournament) if args.tournament is not None else {}
    standings = rank_teams(sheets, teams) if args.teams else rank_players(sheets, teams)
    if args.csv:
        _write(csvio.rankings_to_csv(standings), args.output)
    elif args.json:
        _print_json([s.to_json() for s in standings])
    else:
        rows = [s.to_json() for s in standings]
        print(text.ranking_text(rows) if rows else "no games yet")


# ----- argument parsing -----------------------------------------------------


def _run(func: Callable[[argparse.Namespace], None]) -> Callable[[argparse.Namespace], int]:
    def wrapped(args: argparse.Namespace) -> int:
        try:
            func(args)
        except McrError as exc:
            print(f"mcr game: error: {exc.message}", file=sys.stderr)
            return 1
        except sqlite3.Error as exc:
            print(f"mcr game: database error: {exc}", file=sys.stderr)
            return 1
        return 0

    return wrapped


def _hand_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--winner", help="the player who won")
    p.add_argument("--discarder", help="the player who discarded the winning tile (点和)")
    p.add_argument("--self-drawn", action="store_true", help="won by self-draw (自摸)")
    p.add_argument("--fans", type=int, help="the winner's total fans, flowers included")
    p.add_argument("--draw", action="store_true", help="nobody won (荒牌)")
    p.add_argument(
        "--penalty",
        action="append",
        metavar="PLAYER:KIND[:POINTS]",
        help="wrong_win (错和), false_win (诈和) or deduction:POINTS (罚分); repeatable",
    )
    p.add_argument("--hand", help="the winning hand in the notation, kept on the sheet")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `mcr game` and its subcommands."""
    game = subparsers.add_parser(
        "game",
        help="game sheet, database of games, rankings",
        description="Keep the score sheet of MCR games.",
    )
    sub = game.add_subparsers(dest="game_command", metavar="SUBCOMMAND", required=True)
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument(
        "--db",
        metavar="PATH",
        help="database file (default $MCR_DATA_DIR/mcr.sqlite3 or ~/.local/share/mcr/mcr.sqlite3)",
    )
    who = argparse.ArgumentParser(add_help=False)
    who.add_argument("--by", default="", metavar="NAME", help="who makes the change (audit trail)")

    p = sub.add_parser("replay", help="print the sheet of a game given as JSON")
    p.add_argument("game", metavar="GAME.json", help="game results as JSON ('-' for stdin)")
    p.add_argument("--json", action="store_true", help="print the sheet as JSON")
    p.set_defaults(func=_run(cmd_replay))

    p = sub.add_parser("new", parents=[db, who], help="start a game")
    p.add_argument("players", nargs=4, metavar="PLAYER", help="names in seat order E S W N")
    p.add_argument("--name", default="")
    p.add_argument("--tournament", default="")
    p.add_argument("--session", type=int)
    p.add_argument("--table", default="")
    p.add_argument("--team", action="append", metavar="PLAYER=TEAM")
    p.set_defaults(func=_run(cmd_new))

    p = sub.add_parser("record", parents=[db, who], help="record the next hand of a game")
    p.add_argument("game_id", type=int)
    _hand_options(p)
    p.add_argument(
        "--expect",
        type=int,
        metavar="N",
        help="the hand number this records: refused if the game's next hand is another",
    )
    p.add_argument(
        "--request-id",
        metavar="ID",
        help="an id for this hand: running the command again with it records nothing more",
    )
    p.set_defaults(func=_run(cmd_record))

    p = sub.add_parser("undo", parents=[db, who], help="remove the last recorded hand")
    p.add_argument("game_id", type=int)
    p.add_argument(
        "--expect",
        type=int,
        metavar="N",
        help="the hand number this removes: refused if the game's last hand is another",
    )
    p.set_defaults(func=_run(cmd_undo))

    p = sub.add_parser("edit", parents=[db, who], help="correct a recorded hand")
    p.add_argument("game_id", type=int)
    p.add_argument("hand_no", type=int, help="hand number 1-16")
    _hand_options(p)
    p.add_argument(
        "--expect",
        metavar="REVISION",
        help="the hand's revision (`show --json`, or printed by the last edit): refused "
        "if the hand has changed since",
    )
    p.set_defaults(func=_run(cmd_edit))

    p = sub.add_parser(
        "late", parents=[db, who], help="lateness penalty: 10 points up to 10 minutes, 20 up to 15"
    )
    p.add_argument("game_id", type=int)
    p.add_argument("player")
    p.add_argument("minutes", type=float, help="minutes late after the start was announced")
    p.set_defaults(func=_run(cmd_late))

    p = sub.add_parser("show", parents=[db], help="print a game's sheet")
    p.add_argument("game_id", type=int)
    p.add_argument("--json", action="store_true")
    p.add_argument("--audit", action="store_true", help="also print who changed what")
    p.set_defaults(func=_run(cmd_show))

    p = sub.add_parser("list", parents=[db], help="list the games")
    p.add_argument("--tournament")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_run(cmd_list))

    p = sub.add_parser("export", parents=[db], help="a game's sheet as CSV")
    p.add_argument("game_id", type=int)
    p.add_argument("-o", "--output", help="CSV file (default: stdout)")
    p.set_defaults(func=_run(cmd_export))

    p = sub.add_parser("import", parents=[db, who], help="store a game from a sheet CSV")
    p.add_argument("csv", metavar="SHEET.csv", help="as written by export ('-' for stdin)")
    p.add_argument("--name", default="")
    p.add_argument("--tournament", default="")
    p.add_argument(
        "--no-check",
        action="store_true",
        help="do not compare the players' point columns with the results",
    )
    p.set_defaults(func=_run(cmd_import))

    p = sub.add_parser("rankings", parents=[db], help="individual or team rankings")
    p.add_argument("--tournament", help="only the games of this tournament (and its teams)")
    p.add_argument("--teams", action="store_true", help="rank the teams")
    p.add_argument(
        "--file",
        metavar="TOURNAMENT.json",
        help="rank a tournament given as JSON instead of the database",
    )
    p.add_argument("--csv", action="store_true", help="print CSV")
    p.add_argument("-o", "--output", help="with --csv: write to this file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_run(cmd_rankings))
