"""The `mcr` console command: one entry point, subcommands from each package.

Each package contributes its subcommands through a `register(subparsers)`
function, so this file only assembles them and the packages stay
independent of each other.
"""

from __future__ import annotations

import argparse
import importlib
import sys

#: modules that define `register(subparsers)`; loaded lazily so that e.g.
#: `mcr score` never imports the recognizer.
COMMAND_MODULES = (
    "scorer.commands",
    "scorer.game.commands",
    "vision.commands",
    "webui.commands",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mcr",
        description="Chinese Official mahjong (MCR) table assistant: score hands, "
        "read photos, keep the game sheet.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and name.startswith(exc.name):
                continue  # that package has no commands yet
            raise
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
