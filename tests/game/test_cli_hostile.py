"""`mcr game` given what a careless spreadsheet or a hostile hand types: superscript
digits, numbers no field can hold, NaN, a byte order mark on standard input. Each is
a one-line error (or read as meant), never a traceback."""

from __future__ import annotations

import io
import json
import math
import sys

import pytest

from scorer.game import rules
from scorer.game.errors import GameError
from tests.game.helpers import mcr

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
HEADER = (
    "hand,round_wind,dealer,result,winner,discarder,self_drawn,fans,flowers,"
    "penalties,tiles,note," + ",".join(PLAYERS)
)
HUGE = "9" * 5000


@pytest.mark.parametrize("points", ["²", "1²", "٣²", HUGE])
def test_deduction_points_that_are_no_number_are_refused_on_import(tmp_path, capsys, points):
    """A sheet whose penalty cell writes no whole number is refused with the line and
    the cell, as any other bad points are."""
    sheet = tmp_path / "sup.csv"
    sheet.write_text(f"{HEADER}\n1,E,Ann,draw,,,,,,Bo:deduction:{points},,,,,,\n")
    db = ["--db", str(tmp_path / "g.sqlite3")]
    assert mcr("game", "import", *db, str(sheet), "--no-check") == 1
    err = capsys.readouterr().err
    assert "line 2" in err and "deduction points must be a number" in err


@pytest.mark.parametrize("points", ["²", "²0", HUGE])
def test_deduction_points_that_are_no_number_are_refused_on_record(tmp_path, capsys, points):
    db = ["--db", str(tmp_path / "g.sqlite3")]
    assert mcr("game", "new", *db, *PLAYERS) == 0
    argv = ["game", "record", *db, "1", "--winner", "Ann", "--self-drawn", "--fans", "8"]
    assert mcr(*argv, "--penalty", f"Bo:deduction:{points}") == 1
    assert "deduction points must be a number" in capsys.readouterr().err
    assert mcr("game", "show", *db, "1", "--json") == 0
    assert json.loads(capsys.readouterr().out)["hands"] == []


def test_deduction_points_in_other_decimal_digits_are_read():
    """Digits a keyboard in another script types (full width) are the same number."""
    from scorer.game.commands import parse_penalty

    assert parse_penalty("Bo:deduction:２０")["points"] == 20


@pytest.mark.parametrize("number", [HUGE, "-" + HUGE, "NaN", "Infinity", "-Infinity", "1e999"])
def test_a_game_file_with_a_number_json_cannot_hold_is_not_valid_json(tmp_path, capsys, number):
    game = tmp_path / "game.json"
    game.write_text(
        '{"players": ["Ann", "Bo", "Cy", "Di"], "hands": [{"result": "win", '
        f'"winner": "Ann", "self_drawn": true, "fans": {number}}}]}}'
    )
    assert mcr("game", "replay", str(game)) == 1
    assert "is not valid JSON" in capsys.readouterr().err


def test_a_game_piped_with_a_byte_order_mark_replays_as_from_a_file(capsys, monkeypatch):
    game = (
        '{"players": ["Ann", "Bo", "Cy", "Di"], "hands": [{"result": "win", '
        '"winner": "Ann", "self_drawn": true, "fans": 8}]}'
    )
    monkeypatch.setattr(sys, "stdin", io.StringIO("\ufeff" + game))
    assert mcr("game", "replay", "-") == 0
    piped = capsys.readouterr().out
    assert "548" in piped
    monkeypatch.setattr(sys, "stdin", io.StringIO(game))
    assert mcr("game", "replay", "-") == 0
    assert capsys.readouterr().out == piped


@pytest.mark.parametrize("number", ["9" * 101, "1e999"])
def test_a_piped_game_with_an_endless_number_is_not_valid_json(capsys, monkeypatch, number):
    game = f'{{"players": ["Ann", "Bo", "Cy", "Di"], "hands": [], "x": {number}}}'
    monkeypatch.setattr(sys, "stdin", io.StringIO("\ufeff" + game))
    assert mcr("game", "replay", "-") == 1
    assert "is not valid JSON" in capsys.readouterr().err


def test_a_tournament_file_with_an_endless_number_is_not_valid_json(tmp_path, capsys):
    path = tmp_path / "t.json"
    path.write_text(f'{{"players": {{"a": "Red"}}, "sessions": [], "x": {HUGE}}}')
    assert mcr("game", "rankings", "--file", str(path)) == 1
    assert "is not valid JSON" in capsys.readouterr().err


@pytest.mark.parametrize("minutes", [math.nan, math.inf, -math.inf])
def test_lateness_needs_a_finite_number_of_minutes(minutes):
    with pytest.raises(GameError, match="must be a number"):
        rules.lateness_ruling(minutes)


@pytest.mark.parametrize("minutes", ["nan", "inf", "1e999", "-5"])
def test_late_with_minutes_no_clock_shows_is_refused(tmp_path, capsys, minutes):
    """Neither a forfeit nor a penalty: the game is left as it was."""
    db = ["--db", str(tmp_path / "g.sqlite3")]
    assert mcr("game", "new", *db, *PLAYERS) == 0
    capsys.readouterr()
    assert mcr("game", "late", *db, "1", "Cy", minutes) == 1
    err = capsys.readouterr().err
    assert "minutes late" in err and "forfeit" not in err
    assert mcr("game", "show", *db, "1", "--json") == 0
    assert not json.loads(capsys.readouterr().out).get("penalties")


def test_a_sheet_piped_with_a_byte_order_mark_imports_as_from_a_file(tmp_path, capsys, monkeypatch):
    """Spreadsheets save CSV with a byte order mark; piped in, it imports all the same."""
    db = ["--db", str(tmp_path / "g.sqlite3")]
    assert mcr("game", "new", *db, *PLAYERS) == 0
    assert mcr("game", "record", *db, "1", "--winner", "Ann", "--self-drawn", "--fans", "8") == 0
    capsys.readouterr()
    assert mcr("game", "export", *db, "1") == 0
    sheet = capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.StringIO("\ufeff" + sheet))
    assert mcr("game", "import", *db, "-") == 0
    assert "game 2: imported 1 hands" in capsys.readouterr().out
    assert mcr("game", "show", *db, "2", "--json") == 0
    assert json.loads(capsys.readouterr().out)["scores"]["Ann"] == 548
