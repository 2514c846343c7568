"""SQLite store of games, their recorded hands and an audit trail.

Only the results people enter are stored; the sheet is replayed from them
on every read, so there are no derived totals to get out of step. The
database runs in WAL mode with `synchronous=FULL` and every change is one
transaction, so a hand that was acknowledged survives a crash or a killed
server. What a request may store is checked first (`scorer.game.checks`);
the tables, and the changes that bring an older database up to them, are
`scorer.game.schema`.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from scorer.game import rules
from scorer.game.checks import (
    MAX_WHO,
    check_details,
    check_edited,
    check_expected,
    check_hand_at,
    check_hand_number,
    check_penalty,
    check_request_id,
    check_revision,
    check_teams,
    check_text,
    clean_hand,
    hand_revision,
    unchanged,
)
from scorer.game.errors import GameError
from scorer.game.replay import (
    check_name,
    normalize_penalty,
    replay,
    team_name,
    tournament_name,
    validate_players,
)
from scorer.game.schema import SCHEMA_VERSION, migrate

#: SQLite's integer range: a game id, hand number or session outside it names nothing
INT_MAX = 2**63 - 1
#: seconds a change waits for another writer to finish before it is refused as busy, and
#: the seconds after which the refusal asks to try again
BUSY_TIMEOUT = 10.0
RETRY_AFTER = 5
#: SQLite's result codes for a database another connection holds (the low byte of an
#: extended code)
_BUSY_CODES = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def default_db_path() -> Path:
    """`$MCR_DB`, else `$MCR_DATA_DIR/mcr.sqlite3`, else `$XDG_DATA_HOME/mcr/mcr.sqlite3`,
    else `~/.local/share/mcr/mcr.sqlite3`."""
    if os.environ.get("MCR_DB"):
        return Path(os.environ["MCR_DB"])
    if os.environ.get("MCR_DATA_DIR"):
        return Path(os.environ["MCR_DATA_DIR"]) / "mcr.sqlite3"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "mcr" / "mcr.sqlite3"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class GameStore:
    """Games in one SQLite file; safe to use from several threads and processes.

    Each call opens its own short-lived connection, so a web server's worker
    threads never share one and a crash loses nothing that was committed.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path else default_db_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._connect() as conn:
                conn.execute("PRAGMA journal_mode=WAL")
                if conn.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
                    migrate(conn)
        except (OSError, sqlite3.Error) as exc:
            raise GameError("db_error", path=self.path, detail=exc) from None

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """A connection for one read or write; another program holding the database past
        BUSY_TIMEOUT is a `db_busy` refusal (nothing changed, try again), not a crash."""
        conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None)
        conn.row_factory = sqlite3.Row
        try:
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            yield conn
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc):
                raise
            raise GameError("db_busy", retry_after=RETRY_AFTER) from None
        finally:
            conn.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; committed (and synced) before returning."""
        with self._connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    # ----- games -------------------------------------------------------

    def create_game(
        self,
        players: list[str],
        name: str = "",
        tournament: str = "",
        session: int | None = None,
        table: str = "",
        who: str = "",
        teams: dict[str, str] | None = None,
    ) -> int:
        """A new game; `players` in first-round seat order E, S, W, N, and the team of
        any of them in the tournament (`teams`), stored with the game or not at all."""
        players = validate_players(players)
        teams = check_teams(players, teams)
        name, tournament, table = check_details(name, tournament, table)
        if teams and not tournament:  # teams are ranked within a tournament, nowhere else
            raise GameError("bad_teams.no_tournament")
        check_text("who", who, MAX_WHO)
        if session is not None and (
            isinstance(session, bool) or not isinstance(session, int) or not 0 <= session <= INT_MAX
        ):
            raise GameError("bad_session")
        with self._transaction() as conn:
            cur = conn.execute(
                "INSERT INTO games (name, players, tournament, session, table_no, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (
                    name,
                    json.dumps(players, ensure_ascii=False),
                    tournament,
                    session,
                    str(table),
                    _now(),
                ),
            )
            game_id = int(cur.lastrowid)
            self._audit(conn, game_id, None, "create", who, None, {"players": players})
            for player, team in teams.items():
                _put_team(conn, tournament, player, team)
        return game_id

    def _game_row(self, conn: sqlite3.Connection, game_id: int) -> sqlite3.Row:
        if isinstance(game_id, bool) or not isinstance(game_id, int) or not 1 <= game_id <= INT_MAX:
            raise GameError("unknown_game", game=str(game_id)[:30])
        row = conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise GameError("unknown_game", game=game_id)
        return row

    def _hands(self, conn: sqlite3.Connection, game_id: int) -> list[dict[str, Any]]:
        rows = conn.execute(
            "SELECT data FROM hands WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        return [json.loads(r[0]) for r in rows]

    def game(self, game_id: int) -> dict[str, Any]:
        """The game's input (players and hands), as `replay` takes it, plus its details."""
        with self._connect() as conn:
            return self._game(conn, game_id)

    def _game(self, conn: sqlite3.Connection, game_id: int) -> dict[str, Any]:
        row = self._game_row(conn, game_id)
        game = {
            "id": row["id"],
            "name": row["name"],
            "tournament": row["tournament"],
            "session": row["session"],
            "table": row["table_no"],
            "created_at": row["created_at"],
            "players": json.loads(row["players"]),
            "hands": self._hands(conn, game_id),
        }
        penalties = json.loads(row["penalties"])
        if penalties:
            game["penalties"] = penalties
        return game

    def sheet(self, game_id: int) -> dict[str, Any]:
        """The replayed sheet of a game, with its id and details, and each hand's
        `revision` (`hand_revision`), which a correction names to change only that hand."""
        game = self.game(game_id)
        sheet = replay(game, stored=True)
        for key in ("id", "name", "tournament", "session", "table", "created_at"):
            sheet[key] = game[key]
        for hand, stored in zip(sheet["hands"], game["hands"], strict=True):
            hand["revision"] = hand_revision(stored)
        return sheet

    def sheet_after_change(self, game_id: int) -> dict[str, Any]:
        """The sheet read back right after a change was committed: a busy database then
        is `db_busy.saved`, which says the change stands (sending it again would
        record it twice), not the plain refusal's "nothing was changed"."""
        try:
            return self.sheet(game_id)
        except GameError as exc:
            if exc.code != "db_busy":
                raise
            raise GameError("db_busy.saved", **exc.params) from None

    def list_games(self, tournament: str | None = None) -> list[dict[str, Any]]:
        """Every game (or a tournament's) with its number of hands, newest first."""
        query = (
            "SELECT g.id, g.name, g.players, g.tournament, g.session, g.table_no, g.created_at,"
            " (SELECT COUNT(*) FROM hands h WHERE h.game_id = g.id) FROM games g"
        )
        args: tuple = ()
        if tournament is not None:
            query += " WHERE g.tournament IN (?, ?)"
            args = _tournament_keys(tournament)
        with self._connect() as conn:
            rows = conn.execute(query + " ORDER BY g.id DESC", args).fetchall()
        return [
            {
                "id": r[0],
                "name": r[1],
                "players": json.loads(r[2]),
                "tournament": r[3],
                "session": r[4],
                "table": r[5],
                "created_at": r[6],
                "hands": r[7],
                "complete": r[7] >= rules.HANDS_PER_GAME,
            }
            for r in rows
        ]

    # ----- hands -------------------------------------------------------

    def record_hand(
        self,
        game_id: int,
        hand: dict[str, Any],
        who: str = "",
        expected: int | None = None,
        request_id: str | None = None,
    ) -> int:
        """Append a hand; returns its number (1-16) once it is on disk.

        `expected` is the number the caller believes it records: a second
        tap on the same button then fails instead of recording twice.
        `request_id` makes a retry harmless: a hand already recorded under
        that id in this game is not recorded again, its number is returned.
        """
        return self.record_hand_once(game_id, hand, who, expected, request_id)[0]

    def record_hand_once(
        self,
        game_id: int,
        hand: dict[str, Any],
        who: str = "",
        expected: int | None = None,
        request_id: str | None = None,
    ) -> tuple[int, bool]:
        """`record_hand`, and whether this call recorded it (False: a retry of `request_id`)."""
        check_text("who", who, MAX_WHO)
        check_request_id(request_id)
        with self._transaction() as conn:
            game = self._game(conn, game_id)
            number = len(game["hands"]) + 1
            if request_id is not None:
                done = self._recorded(conn, game, hand, request_id)
                if done is not None:
                    return done, False
            check_expected(game_id, expected, number)
            if number > rules.HANDS_PER_GAME:
                raise GameError("too_many_hands.full", game=game_id, max=rules.HANDS_PER_GAME)
            clean = clean_hand(game["players"], hand, number)
            conn.execute(
                "INSERT INTO hands (game_id, seq, data, recorded_at, request_id)"
                " VALUES (?, ?, ?, ?, ?)",
                (game_id, number, json.dumps(clean, ensure_ascii=False), _now(), request_id),
            )
            self._audit(conn, game_id, number, "record", who, None, clean)
        return number, True

    def _recorded(
        self, conn: sqlite3.Connection, game: dict[str, Any], hand: dict[str, Any], request_id: str
    ) -> int | None:
        """The number of the hand recorded under `request_id`, if any (the same hand, or 409)."""
        row = conn.execute(
            "SELECT seq, data FROM hands WHERE game_id = ? AND request_id = ?",
            (game["id"], request_id),
        ).fetchone()
        if row is None:
            return None
        number = int(row[0])
        again = clean_hand(game["players"], hand, number)
        if again != json.loads(row[1]):
            raise GameError("conflict.request_id", request=request_id, number=number)
        return number

    def undo_last(self, game_id: int, who: str = "", number: int | None = None) -> dict[str, Any]:
        """Remove the last hand (kept in the audit trail); returns it.

        `number` is the hand the caller means to remove: if another hand is last by now
        (a second tablet, or a retry, undid one already), nothing is removed. The check
        and the removal are one transaction, so two undos of hand N remove one hand.
        """
        check_text("who", who, MAX_WHO)
        if number is not None:
            check_hand_number("bad_expected.number", number)
        with self._transaction() as conn:
            game = self._game(conn, game_id)
            last = len(game["hands"])
            if number is not None and number != last:
                raise GameError("conflict.undo", game=game_id, count=last, number=number)
            if not last:
                raise GameError("no_hands", game=game_id)
            old = game["hands"][-1]
            conn.execute("DELETE FROM hands WHERE game_id = ? AND seq = ?", (game_id, last))
            self._audit(conn, game_id, last, "undo", who, old, None)
        return old

    def edit_hand(
        self,
        game_id: int,
        number: int,
        hand: dict[str, Any],
        who: str = "",
        revision: str | None = None,
    ) -> dict[str, Any]:
        """Replace hand `number` (1-based); the old and new values go to the audit trail.

        `revision` is the hand's `revision` as the caller saw it: if another tablet has
        changed, undone or re-recorded that hand since, nothing is saved (409) instead of
        writing over a hand the caller has not seen. Left out, the hand is replaced.
        A hand that already is what this edit would store (a save retried after its
        answer was lost) is answered as saved, and nothing is written again.
        """
        check_text("who", who, MAX_WHO)
        check_revision(revision)
        with self._transaction() as conn:
            game = self._game(conn, game_id)
            same = unchanged(game, number, hand)
            if same is not None:
                return same
            check_edited(game, number, revision)
            clean = clean_hand(game["players"], hand, number)
            old = game["hands"][number - 1]
            conn.execute(
                "UPDATE hands SET data = ? WHERE game_id = ? AND seq = ?",
                (json.dumps(clean, ensure_ascii=False), game_id, number),
            )
            self._audit(conn, game_id, number, "edit", who, old, clean)
        return clean

    def add_game_penalty(self, game_id: int, penalty: dict[str, Any], who: str = "") -> None:
        """A penalty on the whole game (lateness), taken off the 局分."""
        check_penalty(penalty)
        check_text("who", who, MAX_WHO)
        with self._transaction() as conn:
            game = self._game(conn, game_id)
            penalty = normalize_penalty(game["players"], penalty)
            penalties = list(game.get("penalties", [])) + [penalty]
            replay({"players": game["players"], "hands": [], "penalties": penalties}, stored=True)
            conn.execute(
                "UPDATE games SET penalties = ? WHERE id = ?",
                (json.dumps(penalties, ensure_ascii=False), game_id),
            )
            self._audit(conn, game_id, None, "penalty", who, None, penalty)

    def import_game(self, game: dict[str, Any], who: str = "", **details: Any) -> int:
        """Store a whole game (e.g. read from CSV) in one transaction."""
        if isinstance(game, dict) and isinstance(game.get("hands"), list):
            for i, hand in enumerate(game["hands"], 1):
                check_hand_at(hand, i)
        sheet = replay(game)
        check_text("who", who, MAX_WHO)
        name, tournament, table = check_details(
            details.get("name", ""), details.get("tournament", ""), str(details.get("table", ""))
        )
        with self._transaction() as conn:
            cur = conn.execute(
                "INSERT INTO games (name, players, tournament, session, table_no, penalties,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    name,
                    json.dumps(sheet["players"], ensure_ascii=False),
                    tournament,
                    details.get("session"),
                    table,
                    json.dumps(sheet.get("penalties", []), ensure_ascii=False),
                    _now(),
                ),
            )
            game_id = int(cur.lastrowid)
            for i, hand in enumerate(replay_inputs(sheet), 1):
                conn.execute(
                    "INSERT INTO hands (game_id, seq, data, recorded_at) VALUES (?, ?, ?, ?)",
                    (game_id, i, json.dumps(hand, ensure_ascii=False), _now()),
                )
            self._audit(conn, game_id, None, "import", who, None, {"hands": len(sheet["hands"])})
        return game_id

    # ----- audit and teams ----------------------------------------------

    def _audit(
        self,
        conn: sqlite3.Connection,
        game_id: int,
        seq: int | None,
        action: str,
        who: str,
        old: Any,
        new: Any,
    ) -> None:
        conn.execute(
            "INSERT INTO audit (game_id, seq, action, who, at, old, new) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                seq,
                action,
                who or "",
                _now(),
                None if old is None else json.dumps(old, ensure_ascii=False),
                None if new is None else json.dumps(new, ensure_ascii=False),
            ),
        )

    def audit_trail(self, game_id: int) -> list[dict[str, Any]]:
        """Who changed what and when, oldest first."""
        with self._connect() as conn:
            self._game_row(conn, game_id)
            rows = conn.execute(
                "SELECT seq, action, who, at, old, new FROM audit WHERE game_id = ? ORDER BY id",
                (game_id,),
            ).fetchall()
        return [
            {
                "hand": r["seq"],
                "action": r["action"],
                "who": r["who"],
                "at": r["at"],
                "old": json.loads(r["old"]) if r["old"] else None,
                "new": json.loads(r["new"]) if r["new"] else None,
            }
            for r in rows
        ]

    def set_team(self, tournament: str, player: str, team: str) -> None:
        """Put `player` in `team` for the tournament (refused if on record in another)."""
        tournament = tournament_name(tournament)
        name, clean = check_name(player), team_name(team)
        if not tournament:
            raise GameError("bad_teams.no_tournament")
        if not clean:
            raise GameError("bad_teams", max=MAX_WHO)
        with self._transaction() as conn:
            _put_team(conn, tournament, name, clean)

    def teams(self, tournament: str) -> dict[str, str]:
        """The teams of a tournament's players (its name as typed or as kept); where a
        player has a row under both, the row under the name as kept wins."""
        typed, kept = _tournament_keys(tournament)
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT player, team FROM teams WHERE tournament IN (?, ?)"
                " ORDER BY tournament = ?, rowid",
                (typed, kept, kept),
            ).fetchall()
        return {p: t for p, t in rows}

    def sheets(self, tournament: str | None = None) -> list[dict[str, Any]]:
        """Replayed sheets of every game (or a tournament's), for rankings."""
        return [self.sheet(g["id"]) for g in self.list_games(tournament)]


def _put_team(conn: sqlite3.Connection, tournament: str, player: str, team: str) -> None:
    """Record `player`'s team in a tournament. A player has one team there: a different
    one is refused, as it would move every earlier game of theirs to that team."""
    row = conn.execute(
        "SELECT team FROM teams WHERE tournament = ? AND player = ?", (tournament, player)
    ).fetchone()
    if row is None:
        conn.execute(
            "INSERT INTO teams (tournament, player, team) VALUES (?, ?, ?)",
            (tournament, player, team),
        )
    elif row[0] != team:
        raise GameError("conflict.team", player=player, team=row[0])


def _tournament_keys(tournament: str) -> tuple[str, str]:
    """A tournament asked for by name: as typed, and as `tournament_name` keeps it (what
    a game stores), so "cup " finds the games of "cup"."""
    try:
        return tournament, tournament_name(tournament)
    except GameError:
        return tournament, tournament


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    """Whether SQLite gave up waiting for another connection's lock."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in _BUSY_CODES
    return "locked" in str(exc) or "busy" in str(exc)


def replay_inputs(sheet: dict[str, Any]) -> list[dict[str, Any]]:
    """The recorded results of a sheet's hands (the sheet minus computed fields)."""
    computed = {"number", "round_wind", "dealer", "seat_winds", "delta", "totals"}
    return [{k: v for k, v in h.items() if k not in computed} for h in sheet["hands"]]
