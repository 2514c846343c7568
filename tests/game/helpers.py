"""What the game-sheet tests share: the command line run in-process, and an API error's
status, code and message checked at once."""

from __future__ import annotations

import argparse

from scorer.game.commands import register


def mcr(*argv: str) -> int:
    """`mcr ARGV...` run in this process; its exit code (output goes to capsys)."""
    parser = argparse.ArgumentParser(prog="mcr")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(list(argv))
    return args.func(args)


def error(res, status: int, code: str) -> str:
    """The message of an error answer, after checking its status and code."""
    assert res.status_code == status, res.get_json()
    body = res.get_json()["error"]
    assert body["code"] == code, body
    return body["message"]
