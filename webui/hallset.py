"""The hall's tile set: taught once by the referee, leaned on by every table's photos.

At an event every table plays the same sets. A set taught on one tablet
(`vision.tileset`) helps that tablet only; taught for the hall, the server
keeps it (a small JSON file beside the game sheets) and every photo any
tablet sends leans on it first, before the tablet's own named tiles
(`with_hall`). Changing it needs the hall PIN, as a game sheet does
(`webui.security`); reading it does not.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from pathlib import Path
from typing import Any

from flask import current_app

from scorer.errors import McrError
from scorer.tiles import BACK, INDEX
from vision.config import DEFAULT
from vision.exemplars import is_look
from webui.guard import parse_json

log = logging.getLogger(__name__)

#: the largest file of a hall's set read back (42 tiles with looks take about 15 kB)
MAX_FILE_BYTES = 256 * 1024


class HallSet:
    """The hall's set, kept in a JSON file: `[{"tile", "look"}]`; read once, then from
    memory. A file that cannot be read is an empty set (and a warning), never a failure
    of every photo."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._tiles: list[dict[str, str]] | None = None

    def tiles(self) -> list[dict[str, str]]:
        with self._lock:
            if self._tiles is None:
                self._tiles = self._load()
            return list(self._tiles)

    def keep(self, tiles: list[dict[str, str]]) -> None:
        """Keep `tiles` as the hall's set (written whole, then moved in place)."""
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            part = self.path.with_suffix(".part")
            part.write_text(json.dumps(tiles), encoding="utf-8")
            os.replace(part, self.path)
            self._tiles = list(tiles)

    def forget(self) -> None:
        with self._lock:
            self.path.unlink(missing_ok=True)
            self._tiles = []

    def _load(self) -> list[dict[str, str]]:
        try:
            if not self.path.exists():
                return []
            with self.path.open("rb") as f:
                value = parse_json(f.read(MAX_FILE_BYTES + 1), MAX_FILE_BYTES)
            if not isinstance(value, list) or not all(_is_tile(x) for x in value):
                raise ValueError("not a list of named tiles")
            return value[: DEFAULT.exemplars.most]
        except (OSError, ValueError, McrError) as exc:
            log.warning("the hall's set in %s is left out: %s", self.path, exc)
            return []


def _is_tile(item: Any) -> bool:
    """Whether `item` is a named tile as a request would send it (`vision.exemplars`): a
    bad one kept would make every photo's request a bad one."""
    return (
        isinstance(item, dict)
        and set(item) == {"tile", "look"}
        and item["tile"] in INDEX
        and item["tile"] != BACK
        and is_look(item["look"])
    )


def hall_set() -> HallSet:
    """The app's hall set: `MCR_HALL_SET`, else a file beside the game sheets' database."""
    found = current_app.extensions.get("mcr_hall_set")
    if found is None:
        path = current_app.config.get("MCR_HALL_SET")
        if path is None:
            from scorer.game.store import default_db_path

            db = Path(current_app.config.get("MCR_DB") or default_db_path())
            path = db.with_name(db.stem + ".hall-set.json")
        found = current_app.extensions.setdefault("mcr_hall_set", HallSet(Path(path)))
    return found


def with_hall(exemplars: list | None) -> list | None:
    """The named tiles a photo is read with: the hall's set first, then as many of the
    tablet's own as fit (`ExemplarConfig.most`); the tablet's alone without a hall set."""
    hall = hall_set().tiles()
    if not hall:
        return exemplars
    return hall + list(exemplars or [])[: DEFAULT.exemplars.most - len(hall)]
