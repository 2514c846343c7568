"""The hall's tile set: taught once by the referee, leaned on by every table's photos.

At an event every table plays the same sets. A set taught on one tablet
(`vision.tileset`) helps that tablet only; taught for the hall, the server
keeps it (a small JSON file beside the game sheets) and every photo any
tablet sends leans on it first, before the tablet's own named tiles
(`with_hall`). Changing it needs the hall PIN, as a game sheet does
(`webui.security`); reading it does not.
"""

from __future__ import annotations

import contextlib
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
from vision.exemplars import is_look, look_bytes
from webui.errors import RequestError
from webui.guard import parse_json

log = logging.getLogger(__name__)

#: the largest file of a hall's set read back (42 tiles with looks take about 15 kB)
MAX_FILE_BYTES = 256 * 1024


class HallSet:
    """The hall's set, kept in a JSON file `{"size", "tiles": [{"tile", "look"}]}` (`size`:
    the bytes of each look, as the classifier that taught it writes them); read once,
    then from memory. A file that cannot be read, or a tile whose look is not of that
    size, is left out with a warning, never a failure of every photo."""

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
        """Keep `tiles` (a set the reader taught) as the hall's set: written whole, then
        moved in place; RequestError when the file cannot be written."""
        size = len(look_bytes(tiles[0]["look"]) or b"") if tiles else 0
        part = self.path.with_suffix(".part")
        with self._lock:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                part.write_text(json.dumps({"size": size, "tiles": tiles}), encoding="utf-8")
                os.replace(part, self.path)
            except OSError as exc:
                with contextlib.suppress(OSError):
                    part.unlink(missing_ok=True)
                raise RequestError("hall_set_unwritable", detail=exc.strerror or exc) from exc
            self._tiles = list(tiles)

    def forget(self) -> None:
        with self._lock:
            try:
                self.path.unlink(missing_ok=True)
            except OSError as exc:
                raise RequestError("hall_set_unwritable", detail=exc.strerror or exc) from exc
            self._tiles = []

    def _load(self) -> list[dict[str, str]]:
        try:
            if not self.path.exists():
                return []
            with self.path.open("rb") as f:
                value = parse_json(f.read(MAX_FILE_BYTES + 1), MAX_FILE_BYTES)
            if not isinstance(value, dict) or not isinstance(value.get("tiles"), list):
                raise ValueError("not a hall's set")
            tiles = value["tiles"]
            kept = [t for t in tiles if _is_tile(t, value.get("size"))]
            if len(kept) < len(tiles):
                log.warning("%d tiles of the hall's set left out", len(tiles) - len(kept))
            return kept[: DEFAULT.exemplars.most]
        except (OSError, ValueError, McrError) as exc:
            log.warning("the hall's set in %s is left out: %s", self.path, exc)
            return []


def _is_tile(item: Any, size: Any) -> bool:
    """Whether `item` is a named tile as the reader takes it (`vision.exemplars`): a code
    that is not a back, a look whose bytes are `size` many (a bad one kept would make
    every photo's request a bad one)."""
    if not isinstance(item, dict) or set(item) != {"tile", "look"}:
        return False
    if item["tile"] not in INDEX or item["tile"] == BACK or not is_look(item["look"]):
        return False
    raw = look_bytes(item["look"])
    return raw is not None and isinstance(size, int) and len(raw) == size


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
