"""The game store's tables, and the changes that bring an older database up to them.

A database records its version (`PRAGMA user_version`); one older than
SCHEMA_VERSION is brought up to it in one transaction when the store opens
it (`migrate`): a column added, names stored before they were cleaned kept
as they are cleaned now.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from typing import Any

from scorer.game.errors import GameError
from scorer.game.replay import check_name, team_name, tournament_name

SCHEMA_VERSION = 3

_TABLES = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    players TEXT NOT NULL,
    tournament TEXT NOT NULL DEFAULT '',
    session INTEGER,
    table_no TEXT NOT NULL DEFAULT '',
    penalties TEXT NOT NULL DEFAULT '[]',
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS hands (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    data TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    request_id TEXT,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS audit (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL,
    seq INTEGER,
    action TEXT NOT NULL,
    who TEXT NOT NULL DEFAULT '',
    at TEXT NOT NULL,
    old TEXT,
    new TEXT
);
CREATE TABLE IF NOT EXISTS teams (
    tournament TEXT NOT NULL,
    player TEXT NOT NULL,
    team TEXT NOT NULL,
    PRIMARY KEY (tournament, player)
);
"""


def _kept(check: Callable[[Any], str], value: Any) -> Any:
    """`value` as `check` keeps it now, or as it is where `check` refuses it."""
    try:
        return check(value)
    except GameError:
        return value


def _loaded(text: Any) -> Any:
    """A stored JSON value, or None where the column holds no JSON."""
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return None


def _renames(players: Any) -> dict[str, str]:
    """The names of a stored game that read differently as names are kept now (old name
    -> new), or none where one would make two players one or it is no list of names."""
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        return {}
    new = [_kept(check_name, p) for p in players]
    if len(set(new)) != len(players):
        return {}
    return {old: name for old, name in zip(players, new, strict=True) if old != name}


def _renamed(value: Any, renames: dict[str, str]) -> Any:
    """A hand or penalty (or list of them) naming players by their new names."""
    if isinstance(value, list):
        return [_renamed(v, renames) for v in value]
    if not isinstance(value, dict):
        return value
    out = dict(value)
    for field in ("winner", "discarder", "player"):
        if isinstance(out.get(field), str):
            out[field] = renames.get(out[field], out[field])
    if "penalties" in out:
        out["penalties"] = _renamed(out["penalties"], renames)
    return out


def _reclean_game(conn: sqlite3.Connection, row: sqlite3.Row) -> set[tuple[str, str]]:
    """One game's players and tournament as they are kept now, and its hands and
    penalties naming the players so; returns the (tournament, player) names that stay as
    they were because re-cleaning would have made two of its players one."""
    tournament = _kept(tournament_name, row["tournament"])
    if tournament != row["tournament"]:
        conn.execute("UPDATE games SET tournament = ? WHERE id = ?", (tournament, row["id"]))
    players = _loaded(row["players"])
    renames = _renames(players)
    if not renames:
        if not isinstance(players, list):
            return set()
        return {(tournament, p) for p in players if isinstance(p, str)}
    names = [renames.get(p, p) for p in players]
    conn.execute(
        "UPDATE games SET players = ? WHERE id = ?",
        (json.dumps(names, ensure_ascii=False), row["id"]),
    )
    penalties = _loaded(row["penalties"])
    if isinstance(penalties, list):
        conn.execute(
            "UPDATE games SET penalties = ? WHERE id = ?",
            (json.dumps(_renamed(penalties, renames), ensure_ascii=False), row["id"]),
        )
    hands = conn.execute("SELECT seq, data FROM hands WHERE game_id = ?", (row["id"],))
    for seq, data in hands.fetchall():
        hand = _loaded(data)
        if isinstance(hand, dict):
            conn.execute(
                "UPDATE hands SET data = ? WHERE game_id = ? AND seq = ?",
                (json.dumps(_renamed(hand, renames), ensure_ascii=False), row["id"], seq),
            )
    return set()


def _reclean_team(
    conn: sqlite3.Connection, row: sqlite3.Row, unchanged: set[tuple[str, str]]
) -> None:
    """One team row keyed by the tournament and player as kept now, unless another row
    already holds that key (the row is then left as it is); a player whose games kept
    the name as it was (`unchanged`) keeps it here too."""
    tournament = _kept(tournament_name, row["tournament"])
    player = row["player"]
    if (tournament, player) not in unchanged:
        player = _kept(check_name, player)
    team = team_name(row["team"]) or row["team"]
    key = (tournament, player)
    if (*key, team) == (row["tournament"], row["player"], row["team"]):
        return
    if (
        key != (row["tournament"], row["player"])
        and conn.execute("SELECT 1 FROM teams WHERE tournament = ? AND player = ?", key).fetchone()
    ):
        return
    conn.execute(
        "UPDATE teams SET tournament = ?, player = ?, team = ? WHERE rowid = ?",
        (*key, team, row["rowid"]),
    )


def _reclean_names(conn: sqlite3.Connection) -> None:
    """Names stored before names were cleaned (two spaces, a no-break space, a variation
    selector), kept as they are now, so a tournament spanning the upgrade is one
    tournament and each player one player; a name that re-cleaning would refuse or make
    the same as another stays as it was."""
    unchanged: set[tuple[str, str]] = set()
    for row in conn.execute("SELECT id, players, tournament, penalties FROM games").fetchall():
        unchanged |= _reclean_game(conn, row)
    for row in conn.execute("SELECT rowid, tournament, player, team FROM teams").fetchall():
        _reclean_team(conn, row, unchanged)


#: the changes from each older version (applied in order, each in the open transaction)
_MIGRATIONS: dict[int, str | Callable[[sqlite3.Connection], None]] = {
    1: "ALTER TABLE hands ADD COLUMN request_id TEXT",
    2: _reclean_names,
}


def migrate(conn: sqlite3.Connection) -> None:
    """Create the tables, or bring an older database up to SCHEMA_VERSION, in one
    transaction."""
    conn.execute("BEGIN IMMEDIATE")
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    exists = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'hands'").fetchone()
    if exists:
        for v in range(max(version, 1), SCHEMA_VERSION):
            step = _MIGRATIONS[v]
            if isinstance(step, str):
                conn.execute(step)
            else:
                step(conn)
    else:
        for statement in _TABLES.split(";"):
            if statement.strip():
                conn.execute(statement)
    conn.execute("CREATE UNIQUE INDEX IF NOT EXISTS hands_request ON hands (game_id, request_id)")
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
    conn.execute("COMMIT")
