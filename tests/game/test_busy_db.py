"""A game database another program holds: a change waits a while, then is refused as
busy (503 with Retry-After on the web, one line on the command line), never a crash."""

from __future__ import annotations

import argparse
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from scorer.game import store as store_module
from scorer.game.commands import register
from scorer.game.errors import GameError
from scorer.game.store import GameStore
from webui.app import create_app

P = ["Ann", "Bo", "Cy", "Di"]


@pytest.fixture(autouse=True)
def short_wait(monkeypatch):
    """The store gives up on a held database after 0.2 s instead of 10."""
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT", 0.2)


@contextmanager
def held(path) -> Iterator[None]:
    """Another connection holding the database's write lock, as another process would."""
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_a_change_to_a_held_database_is_busy_with_retry_after(tmp_path):
    path = tmp_path / "web.sqlite3"
    client = create_app({"TESTING": True, "MCR_DB": str(path)}).test_client()
    gid = client.post("/game/api/games", json={"players": P}).get_json()["id"]
    client.post(f"/game/api/{gid}/hands", json={"result": "draw"})
    with held(path):
        res = client.post(f"/game/api/{gid}/undo", json={"number": 99})
        assert res.status_code == 503
        assert res.get_json()["error"]["code"] == "db_busy"
        assert "try again" in res.get_json()["error"]["message"]
        assert int(res.headers["Retry-After"]) >= 1
        zh = client.post(f"/game/api/{gid}/hands", json={"result": "draw", "lang": "zh"})
        assert zh.status_code == 503 and "请过几秒再试" in zh.get_json()["error"]["message"]
        hant = client.post("/game/api/games", json={"players": P, "lang": "zh-Hant"})
        assert hant.status_code == 503 and "請過幾秒再試" in hant.get_json()["error"]["message"]
        assert len(client.get(f"/game/api/{gid}").get_json()["hands"]) == 1  # reading goes on
    res = client.post(f"/game/api/{gid}/undo", json={"number": 1})
    assert res.status_code == 200 and res.get_json()["sheet"]["hands"] == []


def test_the_store_says_busy_and_keeps_nothing(tmp_path):
    store = GameStore(tmp_path / "g.sqlite3")
    gid = store.create_game(P)
    with held(store.path), pytest.raises(GameError) as err:
        store.record_hand(gid, {"result": "draw"})
    assert err.value.code == "db_busy" and err.value.params["retry_after"] >= 1
    assert store.game(gid)["hands"] == []


def test_the_command_line_says_busy_in_one_line(tmp_path, capsys):
    path = tmp_path / "g.sqlite3"
    parser = argparse.ArgumentParser(prog="mcr")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["game", "new", "--db", str(path), *P])
    assert args.func(args) == 0
    args = parser.parse_args(["game", "record", "--db", str(path), "1", "--draw"])
    with held(path):
        assert args.func(args) == 1
    err = capsys.readouterr().err
    assert "busy" in err and "Traceback" not in err and len(err.splitlines()) == 1


def test_a_sheet_too_busy_to_read_back_says_the_change_was_saved(tmp_path, monkeypatch):
    """The hand was committed; only the read after it was refused. The answer must not
    say "nothing was changed" (a retry would record the hand twice): it says the change
    stands, and the sheet shows it once the database is free."""
    path = tmp_path / "web.sqlite3"
    client = create_app({"TESTING": True, "MCR_DB": str(path)}).test_client()
    gid = client.post("/game/api/games", json={"players": P}).get_json()["id"]

    def busy(self, game_id):
        raise GameError("db_busy", retry_after=2)

    with monkeypatch.context() as m:
        m.setattr(GameStore, "sheet", busy)
        res = client.post(f"/game/api/{gid}/hands", json={"result": "draw", "lang": "en"})
    assert res.status_code == 503 and int(res.headers["Retry-After"]) >= 1
    error = res.get_json()["error"]
    assert error["code"] == "db_busy" and "saved" in error["message"]
    assert "nothing was changed" not in error["message"]
    assert len(client.get(f"/game/api/{gid}").get_json()["hands"]) == 1
