"""A retried `mcr game record` never records a hand twice (request id, expected number)."""

from __future__ import annotations

import pytest

from scorer.game.errors import GameError
from scorer.game.store import GameStore
from webui.cli import main

WIN = {"result": "win", "winner": "A", "discarder": "B", "fans": 8}


def test_store_request_id_records_once(tmp_path):
    store = GameStore(tmp_path / "g.db")
    gid = store.create_game(["A", "B", "C", "D"])
    assert store.record_hand(gid, WIN, request_id="x1") == 1
    assert store.record_hand(gid, WIN, request_id="x1") == 1  # the retry
    assert len(store.game(gid)["hands"]) == 1
    with pytest.raises(GameError) as err:
        store.record_hand(gid, {**WIN, "fans": 9}, request_id="x1")
    assert err.value.code == "conflict"
    assert store.record_hand(gid, WIN, request_id="x2") == 2  # another hand, another id


def test_retried_record_command(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    assert main(["game", "new", "A", "B", "C", "D", "--db", db]) == 0
    cmd = ["game", "record", "1", "--winner", "A", "--discarder", "B", "--fans", "8", "--db", db]
    assert main([*cmd, "--request-id", "t1-h1"]) == 0
    assert main([*cmd, "--request-id", "t1-h1"]) == 0
    assert "was already recorded" in capsys.readouterr().out
    assert main([*cmd, "--expect", "1"]) == 1  # hand 1 is there: refused, not a second one
    assert "already recorded" in capsys.readouterr().err
    assert len(GameStore(db).game(1)["hands"]) == 1


def test_old_database_gains_the_request_column(tmp_path):
    """A version-1 database (no request ids) is brought up to date on open."""
    import sqlite3

    db = tmp_path / "old.db"
    with sqlite3.connect(db) as conn:
        conn.executescript(
            """CREATE TABLE games (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '',
            players TEXT NOT NULL, tournament TEXT NOT NULL DEFAULT '', session INTEGER,
            table_no TEXT NOT NULL DEFAULT '', penalties TEXT NOT NULL DEFAULT '[]',
            created_at TEXT NOT NULL);
            CREATE TABLE hands (game_id INTEGER NOT NULL, seq INTEGER NOT NULL,
            data TEXT NOT NULL, recorded_at TEXT NOT NULL, PRIMARY KEY (game_id, seq));
            CREATE TABLE audit (id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL, seq INTEGER,
            action TEXT NOT NULL, who TEXT NOT NULL DEFAULT '', at TEXT NOT NULL, old TEXT,
            new TEXT);
            CREATE TABLE teams (tournament TEXT NOT NULL, player TEXT NOT NULL,
            team TEXT NOT NULL, PRIMARY KEY (tournament, player));
            INSERT INTO games (players, created_at) VALUES ('["A","B","C","D"]', 'then');
            INSERT INTO hands VALUES (1, 1, '{"result": "draw"}', 'then');
            PRAGMA user_version=1;"""
        )
    store = GameStore(db)
    assert store.game(1)["hands"] == [{"result": "draw"}]
    assert store.record_hand(1, WIN, request_id="r") == 2
    assert store.record_hand(1, WIN, request_id="r") == 2
