"""SQLite store: record, undo, edit with audit trail, CSV round trip."""

from __future__ import annotations

import sqlite3

import pytest

from scorer.game import csvio
from scorer.game.errors import GameError
from scorer.game.replay import replay
from scorer.game.store import GameStore, default_db_path, replay_inputs

P = ["Ann", "Bo", "Cy", "Di"]


@pytest.fixture
def store(tmp_path):
    return GameStore(tmp_path / "games.sqlite3")


def test_database_settings(store):
    conn = sqlite3.connect(store.path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()
    with store._connect() as c:
        assert c.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_default_path(monkeypatch, tmp_path):
    monkeypatch.delenv("MCR_DB", raising=False)
    monkeypatch.setenv("MCR_DATA_DIR", str(tmp_path / "d"))
    assert default_db_path() == tmp_path / "d" / "mcr.sqlite3"
    monkeypatch.delenv("MCR_DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "x"))
    assert default_db_path() == tmp_path / "x" / "mcr" / "mcr.sqlite3"


def test_record_undo_edit_and_audit(store):
    gid = store.create_game(P, name="final", who="ref")
    assert (
        store.record_hand(
            gid, {"result": "win", "winner": "Ann", "self_drawn": True, "fans": 24}, who="ref"
        )
        == 1
    )
    assert store.record_hand(gid, {"result": "draw"}, who="ref") == 2
    sheet = store.sheet(gid)
    assert sheet["scores"] == {"Ann": 596, "Bo": 468, "Cy": 468, "Di": 468}
    assert sheet["name"] == "final"

    removed = store.undo_last(gid, who="ref")
    assert removed == {"result": "draw"}
    assert len(store.sheet(gid)["hands"]) == 1

    store.edit_hand(
        gid, 1, {"result": "win", "winner": "Bo", "discarder": "Ann", "fans": 8}, who="Cy"
    )
    sheet = store.sheet(gid)
    assert sheet["scores"] == {"Ann": 484, "Bo": 532, "Cy": 492, "Di": 492}

    trail = store.audit_trail(gid)
    assert [a["action"] for a in trail] == ["create", "record", "record", "undo", "edit"]
    edit = trail[-1]
    assert edit["who"] == "Cy" and edit["hand"] == 1 and edit["at"]
    assert edit["old"]["winner"] == "Ann" and edit["new"]["winner"] == "Bo"


def test_invalid_hands_are_not_stored(store):
    gid = store.create_game(P)
    with pytest.raises(GameError):
        store.record_hand(gid, {"result": "win", "winner": "Zed", "self_drawn": True, "fans": 8})
    with pytest.raises(GameError):
        store.record_hand(gid, {"result": "win", "winner": "Ann", "self_drawn": True, "fans": 5})
    assert store.sheet(gid)["hands"] == []
    with pytest.raises(GameError) as err:
        store.undo_last(gid)
    assert err.value.code == "no_hands"
    with pytest.raises(GameError) as err:
        store.edit_hand(gid, 1, {"result": "draw"})
    assert err.value.code == "unknown_hand"
    with pytest.raises(GameError) as err:
        store.sheet(999)
    assert err.value.code == "unknown_game"
    with pytest.raises(GameError):
        store.create_game(["a", "a", "b", "c"])


def test_sixteen_hands_at_most_and_double_tap_guard(store):
    gid = store.create_game(P)
    for n in range(1, 17):
        assert store.record_hand(gid, {"result": "draw"}, expected=n) == n
    with pytest.raises(GameError) as err:
        store.record_hand(gid, {"result": "draw"})
    assert err.value.code == "too_many_hands"
    with pytest.raises(GameError) as err:
        store.record_hand(gid, {"result": "draw"}, expected=16)
    assert err.value.code == "conflict"
    assert store.list_games()[0]["complete"] is True


def test_winner_by_seat_wind(store):
    gid = store.create_game(P)
    store.record_hand(gid, {"result": "draw"})
    # hand 2: Bo deals (E), Cy is S, Di W, Ann N
    store.record_hand(gid, {"result": "win", "winner_seat": "W", "discarder_seat": "N", "fans": 8})
    h = store.sheet(gid)["hands"][1]
    assert (h["winner"], h["discarder"]) == ("Di", "Ann")
    with pytest.raises(GameError):
        store.record_hand(gid, {"result": "win", "winner_seat": "X", "self_drawn": True, "fans": 8})


def test_csv_round_trip(store):
    game = {
        "players": ["东家", "Bo", "Cy", "Di"],
        "hands": [
            {
                "result": "win",
                "winner": "东家",
                "self_drawn": True,
                "fans": 24,
                "flowers": 3,
                "hand": "[123p,1][345s,2][999s,3]6m6pEW1m",
                "note": 'a, "quoted" note',
            },
            {
                "result": "win",
                "winner": "Bo",
                "discarder": "Cy",
                "fans": 8,
                "penalties": [{"player": "Di", "kind": "wrong_win"}],
            },
            {"result": "draw"},
            {
                "result": "draw",
                "penalties": [
                    {"player": "Cy", "kind": "deduction", "points": 20},
                    {"player": "Bo", "kind": "false_win"},
                ],
            },
        ],
        "penalties": [{"player": "Di", "kind": "deduction", "points": 10}],
    }
    gid = store.import_game(game)
    text = csvio.sheet_to_csv(store.sheet(gid))
    back = csvio.csv_to_game(text)
    assert back == replay_inputs_game(game)
    gid2 = store.import_game(back)
    assert store.sheet(gid2)["scores"] == store.sheet(gid)["scores"] == replay(game)["scores"]
    assert csvio.sheet_to_csv(store.sheet(gid2)) == text


def replay_inputs_game(game):
    sheet = replay(game)
    out = {"players": sheet["players"], "hands": replay_inputs(sheet)}
    if sheet.get("penalties"):
        out["penalties"] = sheet["penalties"]
    return out


def test_csv_checks_the_point_columns():
    text = csvio.sheet_to_csv(
        replay(
            {
                "players": P,
                "hands": [{"result": "win", "winner": "Ann", "self_drawn": True, "fans": 8}],
            }
        )
    )
    wrong = text.replace(",48,-16,-16,-16", ",48,-16,-16,-15")
    assert wrong != text
    with pytest.raises(GameError) as err:
        csvio.csv_to_game(wrong)
    assert err.value.code == "sheet_mismatch" and "Di" in err.value.message
    assert csvio.csv_to_game(wrong, check=False)["hands"][0]["winner"] == "Ann"
    with pytest.raises(GameError):
        csvio.csv_to_game("not,a,sheet\n")


def _sheet_text() -> str:
    hands = [
        {"result": "win", "winner": "Ann", "self_drawn": True, "fans": 8},
        {"result": "draw"},
        {"result": "win", "winner": "Bo", "discarder": "Cy", "fans": 10},
    ]
    return csvio.sheet_to_csv(replay({"players": P, "hands": hands}))


def _edited(text: str, line: int, column: str, value: str) -> str:
    rows = text.splitlines()
    cells = rows[line - 1].split(",")
    cells[csvio.RESULT_COLUMNS.index(column)] = value
    rows[line - 1] = ",".join(cells)
    return "\n".join(rows) + "\n"


@pytest.mark.parametrize(
    ("line", "column", "value", "code"),
    [
        (2, "discarder", "Bo", "bad_hand"),  # a self-drawn win with a discarder
        (3, "winner", "Ann", "bad_hand"),  # a draw with a winner
        (3, "fans", "8", "bad_hand"),  # a draw with fans
        (3, "self_drawn", "yes", "bad_hand"),  # a self-drawn draw
        (2, "round_wind", "N", "sheet_mismatch"),  # hand 1 is played in the east round
        (3, "dealer", "Ann", "sheet_mismatch"),  # Bo deals hand 2
        (3, "hand", "abc", "bad_csv"),
        (3, "hand", "3", "bad_csv"),  # hands out of order
    ],
)
def test_a_sheet_row_that_contradicts_itself_is_refused_not_mended(line, column, value, code):
    """A paper sheet typed in with a mistake: every cell filled in is kept for the replay
    to judge, and the hands must be numbered in order."""
    text = _sheet_text()
    assert csvio.csv_to_game(text)["hands"][2]["discarder"] == "Cy"
    with pytest.raises(GameError) as err:
        csvio.csv_to_game(_edited(text, line, column, value))
    assert err.value.code == code
    assert "line" in err.value.message or "hand" in err.value.message


@pytest.mark.parametrize(
    ("line", "column", "value"),
    [
        (3, "hand", ""),  # numbered by their place
        (3, "hand", "2.0"),  # a spreadsheet's number
        (2, "round_wind", "东"),
        (2, "round_wind", "east"),
        (3, "fans", "0"),  # a draw's fans written as 0
    ],
)
def test_a_typed_in_sheet_reads_as_the_exported_one(line, column, value):
    """How a person fills in a paper sheet's cells reads as the export writes them."""
    text = _sheet_text()
    assert csvio.csv_to_game(_edited(text, line, column, value)) == csvio.csv_to_game(text)


def test_rankings_csv(store):
    a = store.create_game(P, tournament="cup")
    store.record_hand(a, {"result": "win", "winner": "Cy", "self_drawn": True, "fans": 8})
    store.set_team("cup", "Cy", "Red")
    from scorer.game.tournament import rank_players

    standings = rank_players(store.sheets("cup"), store.teams("cup"))
    text = csvio.rankings_to_csv(standings)
    lines = text.splitlines()
    assert lines[0] == "rank,name,team,table_points,scores,best,games"
    assert lines[1] == "1,Cy,Red,4,548,4,1"


@pytest.mark.parametrize("names", [["'=x", "=x", "'Bo", "''Cy"], ["'", "=", "+", "-"]])
def test_a_sheet_of_names_with_apostrophes_reads_back_as_written(names):
    """The CSV writes a formula-like cell with an apostrophe in front; a name that
    itself starts with one must come back as it was, not as another player's."""
    hand = {"result": "win", "winner": names[1], "discarder": names[0], "fans": 8}
    sheet = replay({"players": names, "hands": [hand]})
    game = csvio.csv_to_game(csvio.sheet_to_csv(sheet))
    assert game["players"] == names
    assert (game["hands"][0]["winner"], game["hands"][0]["discarder"]) == (names[1], names[0])
