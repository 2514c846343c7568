"""What the game sheet refuses so that no hand is lost and no player or team is split:
undo that names its hand, names kept one way, one team per player, penalties and hand
numbers as the rules read them, errors placed in their hand."""

from __future__ import annotations

import json
import sqlite3
import threading

import pytest

from scorer.game import csvio
from scorer.game.errors import GameError
from scorer.game.replay import replay
from scorer.game.store import GameStore
from scorer.game.tournament import tournament_rankings
from tests.game.helpers import error, mcr
from webui.app import create_app

P = ["Ann", "Bo", "Cy", "Di"]
WIN = {"result": "win", "winner": "Ann", "discarder": "Bo", "fans": 8}


@pytest.fixture
def store(tmp_path):
    return GameStore(tmp_path / "games.sqlite3")


@pytest.fixture
def client(tmp_path):
    app = create_app({"TESTING": True, "MCR_DB": str(tmp_path / "web.sqlite3")})
    return app.test_client()


def new_game(client, players=P, **extra) -> int:
    res = client.post("/game/api/games", json={"players": players, **extra})
    assert res.status_code == 201, res.get_json()
    return res.get_json()["id"]


def hands(client, gid: int) -> int:
    return len(client.get(f"/game/api/{gid}").get_json()["hands"])


# ----- undo names the hand it removes ----------------------------------------------


def test_a_second_undo_of_the_same_hand_removes_nothing(client):
    """Two tablets (or a retry after a lost answer) undoing hand 3: one hand goes, the
    other request hears that the sheet changed."""
    gid = new_game(client)
    for _ in range(3):
        client.post(f"/game/api/{gid}/hands", json={"result": "draw"})
    first = client.post(f"/game/api/{gid}/undo", json={"number": 3})
    assert first.status_code == 200 and first.get_json()["removed"] == {"result": "draw"}
    again = client.post(f"/game/api/{gid}/undo", json={"number": 3, "lang": "zh"})
    message = error(again, 409, "conflict")
    assert "第 3 盘不是最后一盘" in message and "没有撤销" in message
    assert hands(client, gid) == 2


def test_undo_of_a_hand_after_the_last_removes_nothing(client):
    gid = new_game(client)
    client.post(f"/game/api/{gid}/hands", json={"result": "draw"})
    error(client.post(f"/game/api/{gid}/undo", json={"number": 2}), 409, "conflict")
    assert hands(client, gid) == 1
    client.post(f"/game/api/{gid}/undo", json={"number": 1})
    error(client.post(f"/game/api/{gid}/undo", json={"number": 1}), 409, "conflict")


@pytest.mark.parametrize("body", [{}, {"who": "ref"}, {"number": None}])
def test_undo_without_the_hand_number_is_refused_and_removes_nothing(client, body):
    gid = new_game(client)
    client.post(f"/game/api/{gid}/hands", json={"result": "draw"})
    res = client.post(f"/game/api/{gid}/undo", json=body)
    assert "'number'" in error(res, 400, "missing_field")
    zh = client.post(f"/game/api/{gid}/undo", json={**body, "lang": "zh"})
    assert error(zh, 400, "missing_field") == "缺少盘号"
    assert hands(client, gid) == 1


@pytest.mark.parametrize("number", [0, -1, "1", True, 1.0])
def test_undo_of_a_hand_number_that_is_none_is_a_bad_request(client, number):
    gid = new_game(client)
    client.post(f"/game/api/{gid}/hands", json={"result": "draw"})
    error(client.post(f"/game/api/{gid}/undo", json={"number": number}), 400, "bad_expected")
    assert hands(client, gid) == 1


def test_two_undos_at_once_remove_one_hand(store):
    """The check of the last hand and its removal are one transaction."""
    gid = store.create_game(P)
    for _ in range(4):
        store.record_hand(gid, {"result": "draw"})
    start = threading.Barrier(2)
    results: list[str] = []

    def undo() -> None:
        start.wait()
        try:
            store.undo_last(gid, who="tablet", number=4)
            results.append("removed")
        except GameError as exc:
            results.append(exc.code)

    threads = [threading.Thread(target=undo) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["conflict", "removed"]
    assert len(store.game(gid)["hands"]) == 3
    assert [a["action"] for a in store.audit_trail(gid)].count("undo") == 1


def test_the_command_line_undoes_the_hand_it_is_told(tmp_path, capsys):
    """`mcr game undo` still undoes the last hand; with `--expect N` only if N is last."""
    db = ["--db", str(tmp_path / "g.sqlite3")]
    assert mcr("game", "new", *db, *P) == 0
    for _ in range(2):
        assert mcr("game", "record", *db, "1", "--draw") == 0
    capsys.readouterr()
    assert mcr("game", "undo", *db, "1", "--expect", "1") == 1
    assert "nothing was undone" in capsys.readouterr().err
    assert mcr("game", "undo", *db, "1", "--expect", "2") == 0
    assert mcr("game", "undo", *db, "1") == 0
    assert GameStore(tmp_path / "g.sqlite3").game(1)["hands"] == []


# ----- names are kept one way --------------------------------------------------------


@pytest.mark.parametrize(
    "players",
    [
        ["Ann", "Ann\u00a0", "Bo", "Cy"],
        ["Ann", " Ann", "Bo", "Cy"],
        ["Ann", "Ann\u3000", "Bo", "Cy"],
        ["A\u0144n", "An\u0301n", "Bo", "Cy"],  # ń written as one character and as two
    ],
)
def test_names_that_look_the_same_are_one_player(client, players):
    """A space or no-break space around a name, or an accent typed as a second
    character, does not make another player: the game refuses the duplicate."""
    res = client.post("/game/api/games", json={"players": players})
    assert error(res, 400, "duplicate_player").endswith(players[0])
    assert client.get("/game/api/games").get_json() == []


@pytest.mark.parametrize(
    "name", ["Ann\u200b", "\u202eevil", "A\u200dnn", "\ufeffAnn", "Ann\u2066", "A\u00adnn"]
)
def test_a_name_with_an_invisible_formatting_character_is_refused(client, name):
    res = client.post("/game/api/games", json={"players": [name, *P[1:]]})
    assert "invisible" in error(res, 400, "bad_players")
    zh = client.post("/game/api/games", json={"players": [name, *P[1:]], "lang": "zh-Hant"})
    assert "看不見的格式字元" in error(zh, 400, "bad_players")
    assert client.get("/game/api/games").get_json() == []


def test_a_name_is_kept_without_the_spaces_around_it(client):
    gid = new_game(client, players=[" Ann", "Bo\u00a0", "C\u0301y ", "Di"])
    sheet = client.get(f"/game/api/{gid}").get_json()
    assert sheet["players"] == ["Ann", "Bo", "\u0106y", "Di"]
    res = client.post(f"/game/api/{gid}/hands", json={**WIN, "winner": "Ann ", "discarder": "Bo"})
    assert res.status_code == 201 and res.get_json()["sheet"]["hands"][0]["winner"] == "Ann"


@pytest.mark.parametrize("name", ["", "   ", "\u00a0\u3000"])
def test_an_empty_name_is_refused(client, name):
    res = client.post("/game/api/games", json={"players": [name, *P[1:]]})
    error(res, 400, "bad_players")


def test_a_games_own_csv_is_imported_back_with_the_same_players(store):
    gid = store.create_game(["Ann\u00a0", "Bo", "Cy", "Di"])
    store.record_hand(gid, {**WIN, "winner": "Ann"})
    text = csvio.sheet_to_csv(store.sheet(gid))
    again = store.import_game(csvio.csv_to_game(text))
    assert store.sheet(again)["players"] == P
    assert store.sheet(again)["scores"] == store.sheet(gid)["scores"]


def test_a_csv_whose_names_a_tool_decomposed_imports_as_the_same_players(store):
    """A spreadsheet may write Ć as C and a combining accent (NFD): the names, the point
    columns and the dealer cells still match the game's players."""
    gid = store.create_game(["Ćy", "Bo", "Ann", "Di"])
    store.record_hand(gid, {**WIN, "winner": "Ann"})
    store.record_hand(gid, {"result": "draw"})
    text = csvio.sheet_to_csv(store.sheet(gid)).replace("Ćy", "Ćy")
    again = store.import_game(csvio.csv_to_game(text))
    assert store.sheet(again)["players"] == ["Ćy", "Bo", "Ann", "Di"]
    assert store.sheet(again)["scores"] == store.sheet(gid)["scores"]


def test_a_sheet_read_from_json_keeps_names_one_way():
    game = {"players": [" Ann", "Bo", "Cy", "Di"], "hands": [{**WIN, "winner": "Ann\u00a0"}]}
    sheet = replay(game)
    assert sheet["players"] == P and sheet["hands"][0]["winner"] == "Ann"
    with pytest.raises(GameError) as err:
        replay({"players": ["Ann", "Ann ", "Bo", "Cy"], "hands": []})
    assert err.value.code == "duplicate_player"


def test_a_registered_name_is_the_same_player_as_at_the_table():
    game = {"players": P, "hands": [{**WIN}]}
    registered = {"Ann ": "Red", "Bo": "Red", "Cy": "Blue", "Di\u00a0": " Blue"}
    result = tournament_rankings({"players": registered, "sessions": [[game]]})
    teams = {r["name"]: r["team"] for r in result["players"]}
    assert teams == {"Ann": "Red", "Bo": "Red", "Cy": "Blue", "Di": "Blue"}
    assert [t["name"] for t in result["teams"]] == ["Red", "Blue"]


def test_a_game_stored_before_names_were_kept_one_way_still_reads(store):
    """A game a database holds from before names were normalised is read as it was
    stored, not refused: no recorded game becomes unreadable."""
    old = ["Ann", "Ann\u200b", "Bo ", "Cy"]
    hand = {"result": "win", "winner": "Bo ", "self_drawn": True, "fans": 8}
    with sqlite3.connect(store.path) as conn:
        conn.execute(
            "INSERT INTO games (id, players, created_at) VALUES (7, ?, '2024-01-01')",
            (json.dumps(old),),
        )
        conn.execute(
            "INSERT INTO hands (game_id, seq, data, recorded_at) VALUES (7, 1, ?, '2024-01-01')",
            (json.dumps(hand),),
        )
    assert store.sheet(7)["players"] == old
    assert store.sheet(7)["scores"]["Bo "] == 548
    assert store.record_hand(7, {"result": "win", "winner": "Bo ", "self_drawn": True, "fans": 8})
    store.add_game_penalty(7, {"player": "Ann\u200b", "kind": "deduction", "points": 10})
    assert store.sheet(7)["scores"]["Ann\u200b"] == 500 - 32 - 10


# ----- one team per player in a tournament ------------------------------------------


def test_a_later_game_cannot_move_a_player_to_another_team(client):
    new_game(client, tournament="cup", teams={"Ann": "Red", "Bo": "Red"})
    res = client.post(
        "/game/api/games", json={"players": P, "tournament": "cup", "teams": {"Ann": "Blue"}}
    )
    message = error(res, 409, "conflict")
    assert "Ann" in message and "Red" in message
    assert len(client.get("/game/api/games").get_json()) == 1  # stored with its teams or not
    ranks = client.get("/game/api/rankings?tournament=cup").get_json()
    assert {r["name"]: r["team"] for r in ranks["players"]}["Ann"] == "Red"
    new_game(client, tournament="cup", teams={"Ann": "Red ", "Cy": "Blue"})  # the same team
    new_game(client, tournament="other", teams={"Ann": "Blue"})  # another tournament
    zh = client.post(
        "/game/api/games",
        json={"players": P, "tournament": "cup", "teams": {"Cy": "Red"}, "lang": "zh"},
    )
    assert error(zh, 409, "conflict") == "Cy 在本比赛中已经属于队伍 Blue"


def test_the_command_line_cannot_move_a_player_to_another_team(tmp_path, capsys):
    db = ["--db", str(tmp_path / "g.sqlite3")]
    assert mcr("game", "new", *db, *P, "--tournament", "cup", "--team", "Ann=Red") == 0
    capsys.readouterr()
    assert mcr("game", "new", *db, *P, "--tournament", "cup", "--team", "Ann=Blue") == 1
    err = capsys.readouterr().err
    assert "Ann already plays for team Red" in err and "Traceback" not in err
    assert mcr("game", "new", *db, *P, "--team", "Ann=Red", "--team", "Ann=Blue") == 1
    assert len(GameStore(tmp_path / "g.sqlite3").list_games()) == 1
    assert GameStore(tmp_path / "g.sqlite3").teams("cup") == {"Ann": "Red"}


@pytest.mark.parametrize(
    "teams",
    [[], 0, False, "", "Ann=Red", {"Ann": "Red", "Ann ": "Blue"}, {"Ann": "Red\u200b"}],
)
def test_teams_that_are_not_one_team_per_player_are_refused(client, teams):
    res = client.post("/game/api/games", json={"players": P, "tournament": "cup", "teams": teams})
    error(res, 400, "bad_teams")
    assert client.get("/game/api/games").get_json() == []


def test_teams_need_a_tournament_to_be_ranked_in(client, tmp_path, capsys):
    """Teams are ranked within a tournament: a casual game naming teams is refused, so
    it never pins a player to a team for every later game."""
    res = client.post("/game/api/games", json={"players": P, "teams": {"Ann": "Red"}})
    assert "tournament" in error(res, 400, "bad_teams")
    assert client.get("/game/api/games").get_json() == []
    db = ["--db", str(tmp_path / "g.sqlite3")]
    assert mcr("game", "new", *db, *P, "--team", "Ann=Red") == 1
    assert "tournament" in capsys.readouterr().err


def test_a_team_is_named_one_way_wherever_it_is_given(store, tmp_path, capsys):
    """The same team typed with a trailing space is the same team; one holding an
    invisible or control character is refused in a tournament file, the store and the
    command line alike."""
    db = ["--db", str(tmp_path / "g.sqlite3")]
    spec = ["--tournament", "cup", "--team", "Ann=Red", "--team", "Ann=Red "]
    assert mcr("game", "new", *db, *P, *spec) == 0
    assert GameStore(tmp_path / "g.sqlite3").teams("cup") == {"Ann": "Red"}
    for spec in ("Bo=R\u200bed", "Cy=Re\x01d"):
        assert mcr("game", "new", *db, *P, "--tournament", "cup", "--team", spec) == 1
    assert "--team" in capsys.readouterr().err
    for team in ("Red\u200b", "Re\x00d"):
        registered = {"Ann": team, "Bo": "Red", "Cy": "Blue", "Di": "Blue"}
        with pytest.raises(GameError) as err:
            tournament_rankings({"players": registered, "sessions": []})
        assert err.value.code == "bad_tournament"
        with pytest.raises(GameError):
            store.set_team("cup", "Ann", team)
    for player, team in (("", "Red"), ("Ann\u200b", "Red"), ("Ann", "")):
        with pytest.raises(GameError):
            store.set_team("cup", player, team)
    assert store.teams("cup") == {}


def test_teams_left_out_or_null_are_no_teams(client):
    new_game(client, tournament="cup", teams=None)
    new_game(client, tournament="cup")
    assert client.get("/game/api/rankings?tournament=cup").get_json()["teams"] == []


# ----- penalties and hand numbers as the rules read them -----------------------------


@pytest.mark.parametrize("kind", ["wrong_win", "false_win"])
@pytest.mark.parametrize("points", [5, 5000, 0])
def test_a_penalty_of_fixed_payment_sent_with_points_is_refused(client, kind, points):
    gid = new_game(client)
    pen = {"player": "Cy", "kind": kind, "points": points}
    res = client.post(f"/game/api/{gid}/hands", json={**WIN, "penalties": [pen]})
    assert error(res, 400, "bad_penalty") == f"hand 1, penalty 1: a {kind} takes no points"
    res = client.post(f"/game/api/{gid}/penalties", json={**pen, "lang": "zh"})
    assert "不能写罚分分数" in error(res, 400, "bad_penalty")
    assert hands(client, gid) == 0
    # a sheet replayed as written pays what the rules fix, whatever points it notes
    plain = {"player": "Cy", "kind": kind}
    noted = replay({"players": P, "hands": [{"result": "draw", "penalties": [pen]}]})
    fixed = replay({"players": P, "hands": [{"result": "draw", "penalties": [plain]}]})
    assert noted["scores"] == fixed["scores"]


@pytest.mark.parametrize("expected", [0, -1, -100])
def test_a_hand_number_below_1_is_a_bad_request_not_a_conflict(client, store, expected):
    gid = new_game(client)
    res = client.post(f"/game/api/{gid}/hands", json={**WIN, "expected_number": expected})
    error(res, 400, "bad_expected")
    assert hands(client, gid) == 0
    sid = store.create_game(P)
    with pytest.raises(GameError) as err:
        store.record_hand(sid, {"result": "draw"}, expected=expected)
    assert err.value.code == "bad_expected"


def test_fans_out_of_range_name_their_hand(client, store):
    gid = new_game(client)
    client.post(f"/game/api/{gid}/hands", json={"result": "draw"})
    res = client.post(f"/game/api/{gid}/hands", json={**WIN, "fans": 5000})
    assert error(res, 422, "out_of_range") == "hand 2: fans must be 0-1000, got 5000"
    res = client.post(f"/game/api/{gid}/hands", json={**WIN, "fans": 5000, "lang": "zh"})
    assert error(res, 422, "out_of_range").startswith("第 2 盘：番数")
    res = client.put(f"/game/api/{gid}/hands/1", json={**WIN, "fans": 5000, "lang": "zh-Hant"})
    assert error(res, 422, "out_of_range").startswith("第 1 盤：番數")
    game = {"players": P, "hands": [{"result": "draw"}, {**WIN, "fans": 5000}]}
    with pytest.raises(GameError) as err:
        store.import_game(game)
    assert err.value.message.startswith("hand 2: fans must be")
