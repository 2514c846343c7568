"""Names, tournaments and the other texts a game keeps: what looks the same is one
player, team or tournament, and a name that shows nothing or hides characters is
refused; free text (a game's name and table, who records, a hand's notation and note)
keeps emoji and joiners but refuses what would drive a terminal or reorder the text;
text stored before that is printed escaped."""

from __future__ import annotations

import json
import sqlite3

import pytest

from scorer.game.errors import GameError
from scorer.game.replay import clean_name, invisible
from scorer.game.store import GameStore
from scorer.game.tournament import tournament_rankings
from tests.game.helpers import error, mcr
from webui.app import create_app

P = ["Ann", "Bo", "Cy", "Di"]
ESC = "\x1b[2J\x1b[31mFAKE\x1b]0;pwned\x07"


@pytest.fixture
def client(tmp_path):
    app = create_app({"TESTING": True, "MCR_DB": str(tmp_path / "web.sqlite3")})
    return app.test_client()


def new_game(client, players=P, **extra):
    return client.post("/game/api/games", json={"players": players, **extra})


def games(client) -> list[dict]:
    return client.get("/game/api/games").get_json()


# ----- names that look the same are one name ---------------------------------------


@pytest.mark.parametrize(
    "players",
    [
        ["Ann", "Ann\u034f", "Ann\ufe0f", "Ann\U000e0100"],
        ["Ann Bo", "Ann\u00a0Bo", "Ann\u2009Bo", "Di"],
        ["\u3164", "\u115f", "\uffa0", "\u2800"],
    ],
)
def test_names_that_look_alike_or_blank_make_no_game(client, players):
    assert new_game(client, players).status_code == 400
    assert games(client) == []


@pytest.mark.parametrize(
    "char",
    [
        "\u034f",
        "\u115f",
        "\u1160",
        "\u17b4",
        "\u17b5",
        "\u180b",
        "\u180e",
        "\u180f",
        "\u200b",
        "\u200f",
        "\u202a",
        "\u202e",
        "\u2060",
        "\u2065",
        "\u206f",
        "\u3164",
        "\ufeff",
        "\uffa0",
        "\U0001bca0",
        "\U0001bca3",
        "\U0001d173",
        "\U0001d17a",
        "\U000e0000",
        "\U000e0fff",
        "\ufdd0",
        "\ufffe",
        "\uffff",
        "\U0010ffff",
    ],
)
def test_a_name_holding_a_character_that_draws_nothing_is_refused(client, char):
    """Every default-ignorable code point (fillers, joiners, tags, ...) but a variation
    selector is refused in a name, and so is a noncharacter (U+FFFF: never a letter),
    with the message saying it is invisible, in each language."""
    assert invisible(char)
    res = new_game(client, ["Ann" + char, "Bo", "Cy", "Di"])
    assert "invisible" in error(res, 400, "bad_players")
    zh = new_game(client, ["Ann" + char, "Bo", "Cy", "Di"], lang="zh")
    assert "看不见的格式字符" in error(zh, 400, "bad_players")
    assert games(client) == []


def test_a_variation_selector_is_dropped_from_a_name(client):
    """A variation selector only picks how the character before it is drawn: "❤️" and "❤"
    are one name, and "Ann" typed with one is Ann."""
    assert clean_name("\u2764\ufe0f") == "\u2764" and clean_name("Ann\U000e0100") == "Ann"
    res = new_game(client, ["\u2764\ufe0f", "Ann\ufe0e", "Cy", "Di"])
    assert res.status_code == 201 and res.get_json()["players"][:2] == ["\u2764", "Ann"]
    assert new_game(client, ["Ann", "Ann\ufe0f", "Cy", "Di"]).status_code == 400


@pytest.mark.parametrize("name", ["\u2800", "\u3000\u2800 ", "\u00a0\u2009\u202f"])
def test_a_name_that_shows_nothing_is_refused_as_empty(client, name):
    res = new_game(client, [name, "Bo", "Cy", "Di"], lang="zh-Hant")
    assert "看得見的字元" in error(res, 400, "bad_players")


def test_every_kind_of_space_in_a_name_is_one_space(client):
    """A no-break, thin or ideographic space, a blank braille cell, or two spaces inside
    a name read as one ASCII space: the hand names the same player however typed."""
    assert clean_name("Ann\u00a0\u2009 \u3000Bo\u2800") == "Ann Bo"
    res = new_game(client, ["Ann\u00a0Bo", "Cy", "Di", "Ed"])
    assert res.status_code == 201 and res.get_json()["players"][0] == "Ann Bo"
    gid = res.get_json()["id"]
    hand = {"result": "win", "winner": "Ann\u2009Bo", "discarder": "Cy", "fans": 8}
    recorded = client.post(f"/game/api/{gid}/hands", json=hand)
    assert recorded.status_code == 201
    assert recorded.get_json()["sheet"]["hands"][0]["winner"] == "Ann Bo"


def test_a_registered_name_with_another_space_is_the_player_at_the_table():
    game = {"players": ["Ann Bo", "Cy", "Di", "Ed"], "hands": [{"result": "draw"}]}
    registered = {"Ann\u3000Bo": "Red", "Cy": "Red", "Di": "Blue", "Ed": "Blue\u00a0"}
    result = tournament_rankings({"players": registered, "sessions": [[game]]})
    assert {r["name"]: r["team"] for r in result["players"]}["Ann Bo"] == "Red"
    assert sorted(t["name"] for t in result["teams"]) == ["Blue", "Red"]


# ----- tournaments are named one way --------------------------------------------------


@pytest.mark.parametrize("tournament", ["cup ", " cup", "cup\u00a0", "cup\u3000"])
def test_a_tournament_typed_with_spaces_is_the_same_tournament(client, tournament):
    """A player keeps one team in "cup" however the tournament's name is spaced, and
    its rankings hold every game of it."""
    assert new_game(client, tournament="cup", teams={"Ann": "Red"}).status_code == 201
    res = new_game(client, tournament=tournament, teams={"Ann": "Blue"})
    assert "Ann" in error(res, 409, "conflict")
    assert new_game(client, tournament=tournament, teams={"Bo": "Blue"}).status_code == 201
    assert [g["tournament"] for g in games(client)] == ["cup", "cup"]
    ranks = client.get("/game/api/rankings", query_string={"tournament": tournament})
    assert {r["name"]: r["team"] for r in ranks.get_json()["players"]}["Bo"] == "Blue"
    assert len(client.get("/game/api/games?tournament=cup").get_json()) == 2


@pytest.mark.parametrize("tournament", ["cup\u200b", "cup\u034f", "\x1b[8mhidden", "c\nup", 5])
def test_a_tournament_name_that_hides_characters_is_refused(client, tournament):
    res = new_game(client, tournament=tournament, teams={"Ann": "Blue"})
    if tournament == 5:  # a number is the tournament "5", as for a name or a table
        assert res.status_code == 201
        return
    assert "tournament" in error(res, 400, "bad_tournament")
    zh = new_game(client, tournament=tournament, lang="zh")
    assert "比赛名称" in error(zh, 400, "bad_tournament")
    assert games(client) == []


def test_the_command_line_names_a_tournament_one_way(tmp_path, capsys):
    """`mcr game new/import/rankings --tournament` clean and check the name as the web
    API does."""
    db = ["--db", str(tmp_path / "g.sqlite3")]
    assert mcr("game", "new", *db, *P, "--tournament", "cup", "--team", "Ann=Red") == 0
    assert mcr("game", "new", *db, *P, "--tournament", "cup ", "--team", "Ann=Blue") == 1
    assert "Ann already plays for team Red" in capsys.readouterr().err
    assert mcr("game", "new", *db, *P, "--tournament", "cup\u200b") == 1
    assert "tournament name" in capsys.readouterr().err
    csv = tmp_path / "sheet.csv"
    assert mcr("game", "export", *db, "1", "-o", str(csv)) == 0
    assert mcr("game", "import", *db, str(csv), "--tournament", "cup\x1b[8m") == 1
    assert mcr("game", "import", *db, str(csv), "--tournament", "\u3000cup") == 0
    capsys.readouterr()
    assert mcr("game", "list", *db, "--tournament", "cup\u00a0", "--json") == 0
    assert [g["tournament"] for g in json.loads(capsys.readouterr().out)] == ["cup", "cup"]


def test_a_tournament_is_named_one_way_by_the_store(tmp_path):
    store = GameStore(tmp_path / "g.sqlite3")
    store.set_team("cup\u2009", "Ann", "Red")
    assert store.teams("cup") == {"Ann": "Red"} == store.teams("cup ")
    with pytest.raises(GameError) as err:
        store.set_team("cup\u200b", "Bo", "Red")
    assert err.value.code == "bad_tournament"
    with pytest.raises(GameError):
        store.import_game({"players": P, "hands": []}, tournament="\ufeffcup")


# ----- no control characters in what is kept --------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("name", ESC),
        ("table", "\r\n"),
        ("table", "3\u202e"),
        ("who", "\x1b[1;31mref"),
        ("who", "ref\x9b2J"),
        ("name", "final\u2028round"),
    ],
)
def test_a_game_whose_details_hold_control_characters_is_refused(client, field, value):
    res = new_game(client, **{field: value})
    assert "control characters" in error(res, 400, "bad_text")
    zh = new_game(client, **{field: value}, lang="zh")
    assert "控制字符" in error(zh, 400, "bad_text")
    hant = new_game(client, **{field: value}, lang="zh-Hant")
    assert "控制字元" in error(hant, 400, "bad_text")
    assert games(client) == []


def test_every_change_refuses_a_recorder_with_control_characters(client):
    """`who` goes to the audit trail, which the command line prints: recording,
    correcting, undoing and penalties refuse an escape code in it and change nothing."""
    gid = new_game(client).get_json()["id"]
    who = "\x1b]52;c;ZXZpbA==\x07x"
    api = f"/game/api/{gid}"
    error(client.post(f"{api}/hands", json={"result": "draw", "who": who}), 400, "bad_text")
    client.post(f"{api}/hands", json={"result": "draw"})
    error(client.put(f"{api}/hands/1", json={"result": "draw", "who": who}), 400, "bad_text")
    error(client.post(f"{api}/undo", json={"number": 1, "who": who}), 400, "bad_text")
    pen = {"player": "Ann", "kind": "deduction", "points": 5, "who": who}
    error(client.post(f"{api}/penalties", json=pen), 400, "bad_text")
    sheet = client.get(api).get_json()
    assert len(sheet["hands"]) == 1 and "penalties" not in sheet
    assert [a["action"] for a in client.get(f"{api}/audit").get_json()] == ["create", "record"]


def test_a_note_keeps_line_breaks_and_tabs_but_no_escape_code(client):
    gid = new_game(client).get_json()["id"]
    api = f"/game/api/{gid}/hands"
    kept = client.post(api, json={"result": "draw", "note": "late start\n\tby 5 min"})
    assert kept.status_code == 201
    assert kept.get_json()["sheet"]["hands"][0]["note"] == "late start\n\tby 5 min"
    for hand in ({"note": "x\x1b[2J"}, {"note": "a\rb"}, {"hand": "123m\x07"}):
        res = client.post(api, json={"result": "draw", **hand})
        assert "hand 2" in error(res, 400, "bad_text")
    assert len(client.get(f"/game/api/{gid}").get_json()["hands"]) == 1


def test_a_refused_note_names_what_it_may_not_hold_but_not_line_breaks(client):
    """A note keeps line breaks, so its refusal speaks of escape codes only, in each
    language; a table's refusal names line breaks too."""
    gid = new_game(client).get_json()["id"]
    api = f"/game/api/{gid}/hands"
    words = {"en": ("control characters", "line break"), "zh": ("控制字符", "换行")}
    words["zh-Hant"] = ("控制字元", "換行")
    for lang, (control, line_break) in words.items():
        res = client.post(api, json={"result": "draw", "note": "x\x1b[2J", "lang": lang})
        message = error(res, 400, "bad_text")
        assert control in message and line_break not in message
        table = error(new_game(client, table="3\x1b[2J", lang=lang), 400, "bad_text")
        assert control in table and line_break in table


ZWJ_JUDGE = "Ann \U0001f469\u200d\u2696\ufe0f"
PERSIAN = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"


def test_free_text_keeps_emoji_and_joiners_as_sent(client):
    """A game's name and table, a recorder named with a ZWJ emoji and a note with an
    emoji's variation selector or Persian's zero-width non-joiner are stored and shown
    exactly as sent, on every kind of change."""
    res = new_game(client, name="Spring \u2600\ufe0f cup", table="\u2764\ufe0f 3", who=ZWJ_JUDGE)
    assert res.status_code == 201, res.get_json()
    gid = res.get_json()["id"]
    assert games(client)[0]["name"] == "Spring \u2600\ufe0f cup"
    assert games(client)[0]["table"] == "\u2764\ufe0f 3"
    api = f"/game/api/{gid}"
    note = f"great game \u2764\ufe0f {PERSIAN}"
    hand = {"result": "draw", "note": note, "who": ZWJ_JUDGE}
    assert client.post(f"{api}/hands", json=hand).status_code == 201
    assert client.post(f"{api}/hands", json={**hand, "note": PERSIAN}).status_code == 201
    fixed = client.put(f"{api}/hands/2", json={**hand, "note": PERSIAN + "\n\u2600\ufe0f"})
    assert fixed.status_code == 200, fixed.get_json()
    assert client.post(f"{api}/undo", json={"number": 2, "who": ZWJ_JUDGE}).status_code == 200
    pen = {"player": "Ann", "kind": "deduction", "points": 5, "who": ZWJ_JUDGE}
    assert client.post(f"{api}/penalties", json=pen).status_code == 201
    assert client.get(api).get_json()["hands"][0]["note"] == note
    audit = client.get(f"{api}/audit").get_json()
    assert [a["who"] for a in audit] == [ZWJ_JUDGE] * 6


@pytest.mark.parametrize("char", ["\x1b", "\x07", "\u202e", "\u2028"])
@pytest.mark.parametrize("field", ["name", "table", "who"])
def test_a_game_detail_holding_a_harmful_character_is_refused(client, field, char):
    """An escape, a bell, a right-to-left override or a line separator in a game's
    name, table or recorder makes no game."""
    error(new_game(client, **{field: f"a{char}b"}), 400, "bad_text")
    assert games(client) == []


@pytest.mark.parametrize("char", ["\x1b", "\x07", "\u202e", "\u2028"])
@pytest.mark.parametrize("field", ["note", "hand", "who"])
def test_a_hand_text_holding_a_harmful_character_is_refused(client, field, char):
    """The same characters in a hand's note, its notation or its recorder record
    nothing and correct nothing."""
    gid = new_game(client).get_json()["id"]
    api = f"/game/api/{gid}/hands"
    error(client.post(api, json={"result": "draw", field: f"a{char}b"}), 400, "bad_text")
    assert client.get(f"/game/api/{gid}").get_json()["hands"] == []
    client.post(api, json={"result": "draw"})
    res = client.put(f"{api}/1", json={"result": "draw", field: f"a{char}b"})
    error(res, 400, "bad_text")
    assert field not in client.get(f"/game/api/{gid}").get_json()["hands"][0]


def _legacy_db(path) -> None:
    """A database written before control characters were refused."""
    GameStore(path)
    players = ["E1\x1b[31m", "E2\u202e", "E3", "E4\x9b2J"]
    with sqlite3.connect(path) as conn:
        conn.execute(
            "INSERT INTO games (id, name, players, tournament, table_no, created_at)"
            " VALUES (1, ?, ?, ?, ?, '2024-01-01')",
            (ESC, json.dumps(players), "\x1b[8mhidden", "\r\n"),
        )
        conn.execute(
            "INSERT INTO hands (game_id, seq, data, recorded_at) VALUES (1, 1, ?, '2024-01-01')",
            (json.dumps({"result": "draw", "note": "\x1b]0;t\x07"}),),
        )
        conn.execute(
            "INSERT INTO audit (game_id, seq, action, who, at, new)"
            " VALUES (1, 1, 'record', ?, '2024-01-01', '{}')",
            ("\x1b]52;c;ZXZpbA==\x07x",),
        )


@pytest.mark.parametrize(
    "argv",
    [
        ("list",),
        ("show", "1", "--audit"),
        ("show", "1", "--audit", "--json"),
        ("record", "1", "--draw"),
    ],
)
def test_the_command_line_prints_stored_control_characters_escaped(tmp_path, capsys, argv):
    """Text stored before the refusal is printed with each control or invisible character
    as its escape: the terminal shows `\\x1b`, it never runs it."""
    path = tmp_path / "old.sqlite3"
    _legacy_db(path)
    assert mcr("game", argv[0], "--db", str(path), *argv[1:]) == 0
    out = capsys.readouterr().out
    hidden = [c for c in out if c != "\n" and (ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0)]
    assert hidden == [] and "\u202e" not in out
    assert "E3" in out and ("FAKE" in out or argv[0] == "record")
    if "--json" in argv:
        sheet = json.loads(out)
        assert sheet["players"][3] == "E4\x9b2J" and sheet["name"] == ESC
    else:
        assert "\\x1b" in out


def test_the_command_line_prints_emoji_and_joiners_as_they_are(tmp_path, capsys):
    """`show --audit` prints a recorder named with a ZWJ emoji and a Persian note as
    sent (a terminal draws them), while a zero-width space is still shown escaped."""
    db = ("--db", str(tmp_path / "g.sqlite3"))
    assert mcr("game", "new", *db, "Ann", "Bo", "Cy", "Di", "--by", ZWJ_JUDGE) == 0
    assert mcr("game", "show", "1", *db, "--audit") == 0
    out = capsys.readouterr().out
    assert ZWJ_JUDGE in out and "\\u200d" not in out
    store = GameStore(tmp_path / "g.sqlite3")
    with sqlite3.connect(store.path) as conn:  # written by another program: no checks
        conn.execute("UPDATE audit SET who = ?", ("ref\u200bx",))
    assert mcr("game", "show", "1", *db, "--audit") == 0
    assert "ref\\u200bx" in capsys.readouterr().out
