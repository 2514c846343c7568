"""A database holding names, tournaments and teams spaced or marked otherwise than
names are kept now reads them as kept, once, when it is opened: a tournament that
spans both is one tournament and each player one player; what cleaning would refuse
or make the same as another stays as it was."""

from __future__ import annotations

import json
import sqlite3

import pytest

from scorer.game.checks import hand_revision
from scorer.game.store import GameStore
from scorer.game.tournament import rank_players

ANN_LEE = {"result": "win", "winner": "Ann  Lee", "discarder": "Bo\u00a0", "fans": 8}
FINE = {"player": "Bo\u00a0", "kind": "deduction", "points": 5}
LATE = {"player": "Ann  Lee", "kind": "deduction", "points": 10}


def _game(conn, gid: int, players: list[str], tournament: str, hands: list[dict]) -> None:
    conn.execute(
        "INSERT INTO games (id, players, tournament, penalties, created_at)"
        " VALUES (?, ?, ?, ?, '2024-01-01')",
        (gid, json.dumps(players), tournament, json.dumps([LATE] if gid == 1 else [])),
    )
    for seq, hand in enumerate(hands, 1):
        conn.execute(
            "INSERT INTO hands (game_id, seq, data, recorded_at) VALUES (?, ?, ?, '2024-01-01')",
            (gid, seq, json.dumps(hand)),
        )


@pytest.fixture
def old_db(tmp_path):
    """A schema-2 database whose rows hold names as they were accepted then."""
    path = tmp_path / "old.sqlite3"
    GameStore(path)
    with sqlite3.connect(path) as conn:
        _game(
            conn,
            1,
            ["Ann  Lee", "Bo\u00a0", "Cy", "Di"],
            "cup ",
            [{**ANN_LEE, "penalties": [FINE]}],
        )
        _game(
            conn,
            2,
            ["Ann", "Ann\u200b", "Bo ", "Cy"],
            "cup\u200b",
            [{**ANN_LEE, "winner": "Bo ", "discarder": "Ann\u200b"}],
        )
        _game(conn, 3, ["Ed", "Ed ", "Fy", "Gu"], "cup", [{"result": "draw"}])
        teams = [
            ("cup ", "Ann  Lee", "Red "),
            ("cup ", "Bo\u00a0", "Blue"),
            ("cup ", "Cy", "Green"),
            ("cup", "Cy", "Red"),
            ("cup", "Ed ", "Gold"),
        ]
        conn.executemany("INSERT INTO teams VALUES (?, ?, ?)", teams)
        conn.execute("PRAGMA user_version=2")
    return path


def test_names_and_tournaments_are_read_as_kept_now(old_db):
    """Game 1's players, tournament, hand and penalties name "Ann Lee" and "Bo" and the
    tournament "cup"; a game recorded now with those names ranks them as one player."""
    store = GameStore(old_db)
    sheet = store.sheet(1)
    assert sheet["players"] == ["Ann Lee", "Bo", "Cy", "Di"] and sheet["tournament"] == "cup"
    hand = sheet["hands"][0]
    assert (hand["winner"], hand["discarder"]) == ("Ann Lee", "Bo")
    assert hand["penalties"][0]["player"] == "Bo"
    assert sheet["penalties"][0]["player"] == "Ann Lee"
    assert sheet["scores"] == {"Ann Lee": 532 - 10, "Bo": 484 - 5, "Cy": 492, "Di": 492}
    new = store.create_game(["Ann Lee", "Bo", "Cy", "Di"], tournament="cup")
    store.record_hand(new, {"result": "draw"})
    assert [g["id"] for g in store.list_games("cup")] == [new, 3, 1]
    ranks = {s.name: s.games for s in rank_players(store.sheets("cup"), store.teams("cup"))}
    assert ranks["Ann Lee"] == 2 and "Ann  Lee" not in ranks


def test_teams_are_keyed_as_kept_unless_that_makes_two_rows_one(old_db):
    """Ann's and Bo's teams are theirs in "cup"; Cy's row under "cup " would become a
    second team of Cy in "cup", so "cup" keeps the row it had."""
    store = GameStore(old_db)
    assert store.teams("cup") == {"Ann Lee": "Red", "Bo": "Blue", "Cy": "Red", "Ed ": "Gold"}
    # asked for as typed then, "cup " finds Cy's old row too: the row under "cup" is his
    assert store.teams("cup ")["Cy"] == "Red"


def test_a_team_stays_with_the_player_whose_game_kept_the_name(old_db):
    """Game 3 keeps "Ed" and "Ed " apart (cleaning would make them one), so the team of
    "Ed " stays his: it does not move to "Ed", who has none."""
    teams = GameStore(old_db).teams("cup")
    assert teams["Ed "] == "Gold" and "Ed" not in teams


def test_what_cleaning_would_refuse_or_merge_stays_as_it_was(old_db):
    """A name with a zero-width space and a tournament with one stay as stored (the
    other names of that game are cleaned); a game where cleaning would make two players
    one keeps all its names; every game still reads and takes hands."""
    store = GameStore(old_db)
    two = store.sheet(2)
    assert two["players"] == ["Ann", "Ann\u200b", "Bo", "Cy"]
    assert two["tournament"] == "cup\u200b" and two["hands"][0]["winner"] == "Bo"
    assert two["scores"]["Ann\u200b"] == 500 - 16
    assert store.sheet(3)["players"] == ["Ed", "Ed ", "Fy", "Gu"]
    assert store.record_hand(2, {"result": "win", "winner": "Bo", "self_drawn": True, "fans": 8})
    assert store.record_hand(3, {"result": "draw"}) == 2


def test_opening_the_database_again_changes_nothing(old_db):
    """The cleaning happens once: a hand's revision a tablet holds stays valid."""
    first = GameStore(old_db).sheet(1)["hands"][0]["revision"]
    store = GameStore(old_db)
    assert store.sheet(1)["hands"][0]["revision"] == first
    assert hand_revision(store.game(1)["hands"][0]) == first
