"""The `mcr` console command: one entry point, the subcommands of every package.

The command shell sits at the top of the layers (scorer < vision < webui),
so it imports each package's commands directly: a fixed list, no loading by
name. Each module contributes `register(subparsers)`; the modules import
their heavy parts (models, Flask) only when their command runs, so
`mcr score` stays quick.
"""

from __future__ import annotations

import argparse
import os
import sys

from scorer import commands as score_commands
from scorer.game import commands as game_commands
from vision import commands as vision_commands
from webui import commands as web_commands

#: every subcommand module, in the order `mcr --help` lists them
COMMAND_MODULES = (score_commands, game_commands, vision_commands, web_commands)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mcr",
        description="Chinese Official mahjong (MCR) table assistant: score hands, "
        "read photos, keep the game sheet.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMAND_MODULES:
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()
    except BrokenPipeError:  # the output's reader went away (`| head`): no one to tell
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main())
