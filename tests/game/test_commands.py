"""`mcr game ...` end to end through its argument parser."""

from __future__ import annotations

import json
import os

import pytest

from tests.game.helpers import mcr

GAME = {
    "players": ["Ann", "Bo", "Cy", "Di"],
    "hands": [
        {"result": "win", "winner": "Ann", "self_drawn": True, "fans": 24},
        {
            "result": "win",
            "winner": "Bo",
            "discarder": "Cy",
            "fans": 8,
            "penalties": [{"player": "Di", "kind": "wrong_win"}],
        },
    ],
}


def test_replay_json_and_table(tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(GAME))
    assert mcr("game", "replay", str(path), "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scores"] == {"Ann": 598, "Bo": 510, "Cy": 462, "Di": 430}
    assert mcr("game", "replay", str(path)) == 0
    text = capsys.readouterr().out
    assert "局分" in text and "598" in text and "错和" in text and "next: hand 3" in text


def test_replay_errors_exit_1_without_traceback(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(
        '{"players": ["A", "B", "C", "D"], "hands": [{"result": "win", '
        '"winner": "A", "discarder": "A", "fans": 8}]}'
    )
    assert mcr("game", "replay", str(bad)) == 1
    err = capsys.readouterr().err
    assert "winner cannot be the discarder" in err and "Traceback" not in err
    bad.write_text("{not json")
    assert mcr("game", "replay", str(bad)) == 1
    assert "not valid JSON" in capsys.readouterr().err
    assert mcr("game", "replay", str(tmp_path / "missing.json")) == 1
    assert "cannot read" in capsys.readouterr().err


def test_a_pipe_given_for_a_file_is_refused_not_waited_on(tmp_path, capsys):
    """A pipe named as a file is refused at once: reading it would wait for a writer."""
    pipe = tmp_path / "f"
    os.mkfifo(pipe)
    db = ["--db", str(tmp_path / "g.sqlite3")]
    assert mcr("game", "replay", str(pipe)) == 1
    assert mcr("game", "import", *db, str(pipe)) == 1
    assert capsys.readouterr().err.count("not a regular file; give - to read") == 2


def test_files_past_the_readers_limits_are_one_line_errors(tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    assert mcr("game", "replay", str(deep)) == 1
    assert "nested too deeply" in capsys.readouterr().err
    wide = tmp_path / "wide.csv"
    wide.write_text("x" * 140_000 + "\n")
    assert mcr("game", "import", "--db", str(tmp_path / "g.sqlite3"), str(wide)) == 1
    err = capsys.readouterr().err
    assert "not a game sheet CSV" in err and "Traceback" not in err


def test_database_workflow(tmp_path, capsys):
    db = ["--db", str(tmp_path / "g.sqlite3")]
    assert (
        mcr("game", "new", *db, "Ann", "Bo", "Cy", "Di", "--tournament", "cup", "--team", "Ann=Red")
        == 0
    )
    assert "game 1" in capsys.readouterr().out
    assert (
        mcr(
            "game",
            "record",
            *db,
            "1",
            "--winner",
            "Ann",
            "--self-drawn",
            "--fans",
            "24",
            "--by",
            "ref",
        )
        == 0
    )
    assert (
        mcr(
            "game",
            "record",
            *db,
            "1",
            "--winner",
            "Bo",
            "--discarder",
            "Cy",
            "--fans",
            "8",
            "--penalty",
            "Di:wrong_win",
        )
        == 0
    )
    assert mcr("game", "record", *db, "1", "--draw", "--penalty", "Cy:deduction:20") == 0
    capsys.readouterr()
    assert mcr("game", "record", *db, "1", "--winner", "Zed", "--self-drawn", "--fans", "8") == 1
    assert "'Zed'" in capsys.readouterr().err
    assert mcr("game", "undo", *db, "1") == 0
    assert (
        mcr(
            "game",
            "edit",
            *db,
            "1",
            "1",
            "--winner",
            "Ann",
            "--self-drawn",
            "--fans",
            "32",
            "--by",
            "Cy",
        )
        == 0
    )
    capsys.readouterr()
    assert mcr("game", "show", *db, "1", "--json", "--audit") == 0
    sheet = json.loads(capsys.readouterr().out)
    assert sheet["scores"]["Ann"] == 500 + 3 * 40 - 8 + 10
    assert sheet["audit"][-1]["who"] == "Cy"
    csv_path = tmp_path / "sheet.csv"
    assert mcr("game", "export", *db, "1", "-o", str(csv_path)) == 0
    assert mcr("game", "import", *db, str(csv_path)) == 0
    assert "imported 2 hands" in capsys.readouterr().out
    assert mcr("game", "list", *db) == 0
    assert "2/16" in capsys.readouterr().out
    assert mcr("game", "rankings", *db, "--tournament", "cup") == 0
    out = capsys.readouterr().out
    assert "Ann" in out and "Red" in out
    assert mcr("game", "rankings", *db, "--csv") == 0
    assert capsys.readouterr().out.startswith("rank,name,team")
    assert mcr("game", "show", *db, "7") == 1
    assert "no game 7" in capsys.readouterr().err


@pytest.mark.parametrize(
    "spec,expected",
    [
        ("Di:wrong_win", {"player": "Di", "kind": "wrong_win"}),
        ("Di:deduction:20", {"player": "Di", "kind": "deduction", "points": 20}),
        ("A:b:false_win", {"player": "A:b", "kind": "false_win"}),
    ],
)
def test_parse_penalty(spec, expected):
    from scorer.game.commands import parse_penalty

    assert parse_penalty(spec) == expected


def test_rankings_from_tournament_file(tmp_path, capsys):
    def game(players, winner):
        return {
            "players": players,
            "hands": [{"result": "win", "winner": winner, "self_drawn": True, "fans": 8}],
        }

    t = {
        "players": {"a": "Red", "b": "Red", "c": "Blue", "d": "Blue"},
        "sessions": [[game(["a", "b", "c", "d"], "c")], [game(["b", "a", "d", "c"], "c")]],
    }
    path = tmp_path / "t.json"
    path.write_text(json.dumps(t))
    assert mcr("game", "rankings", "--file", str(path), "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert out["players"][0] == {
        "rank": 1,
        "name": "c",
        "team": "Blue",
        "table_points": 8,
        "scores": 1096,
        "best": 4,
        "games": 2,
    }
    assert out["teams"][0]["name"] == "Blue"
    assert mcr("game", "rankings", "--file", str(path)) == 0
    assert "Blue" in capsys.readouterr().out


def test_lateness(tmp_path, capsys):
    db = ["--db", str(tmp_path / "g.sqlite3")]
    assert mcr("game", "new", *db, "Ann", "Bo", "Cy", "Di") == 0
    assert mcr("game", "late", *db, "1", "Cy", "12") == 0
    assert "20 points" in capsys.readouterr().out
    assert mcr("game", "late", *db, "1", "Di", "20") == 1
    assert "forfeit" in capsys.readouterr().err
    assert mcr("game", "late", *db, "1", "Zed", "5") == 1
    assert mcr("game", "show", *db, "1", "--json") == 0
    sheet = json.loads(capsys.readouterr().out)
    assert sheet["scores"] == {"Ann": 500, "Bo": 500, "Cy": 480, "Di": 500}
    assert sheet["penalties"] == [{"player": "Cy", "kind": "deduction", "points": 20}]


@pytest.mark.parametrize(
    "hand",
    [
        {"result": "win", "winner": "Ann", "self_drawn": True, "fans": 10**30},
        {"result": "win", "winner": "Ann", "self_drawn": True, "fans": 1001},
        {
            "result": "draw",
            "penalties": [{"player": "Bo", "kind": "deduction", "points": 10**12}],
        },
    ],
)
def test_replay_holds_a_sheet_to_the_bounds_recording_does(tmp_path, capsys, hand):
    """A sheet replayed from a file is held to the bounds recording keeps: at most 1,000
    fans to a win and 1,000 points to a penalty."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"players": GAME["players"], "hands": [hand]}))
    assert mcr("game", "replay", str(path)) == 1
    assert "must be" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv", [("list",), ("show", "1"), ("export", "1"), ("rankings", "--tournament", "cup")]
)
def test_reading_a_mistyped_database_makes_none(tmp_path, capsys, argv):
    """Only reading, a mistyped `--db` is an error, and no folder or database is made."""
    db = tmp_path / "typo" / "games.sqlite3"
    assert mcr("game", argv[0], "--db", str(db), *argv[1:]) == 1
    assert "no such database" in capsys.readouterr().err
    assert not db.parent.exists()


def test_a_game_file_holds_no_more_whole_game_penalties_than_a_game_takes(tmp_path, capsys):
    pen = {"player": "Bo", "kind": "deduction", "points": 1}
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**GAME, "penalties": [pen] * 17}))
    assert mcr("game", "replay", str(path)) == 1
    assert "at most 16" in capsys.readouterr().err
