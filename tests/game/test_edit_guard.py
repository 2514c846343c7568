"""A correction names the hand it corrects: when another tablet changed, undid or
re-recorded that hand since it was opened, nothing is saved and the sheet keeps the
newer hand."""

from __future__ import annotations

import json

import pytest

from scorer.game.errors import GameError
from scorer.game.store import GameStore
from tests.game.helpers import error, mcr
from webui.app import create_app

P = ["Ann", "Bo", "Cy", "Di"]
ANN_8 = {"result": "win", "winner": "Ann", "self_drawn": True, "fans": 8}
ANN_9 = {"result": "win", "winner": "Ann", "self_drawn": True, "fans": 9}
BO_32 = {"result": "win", "winner": "Bo", "discarder": "Cy", "fans": 32}


@pytest.fixture
def client(tmp_path):
    app = create_app({"TESTING": True, "MCR_DB": str(tmp_path / "web.sqlite3")})
    return app.test_client()


def new_game(client) -> int:
    res = client.post("/game/api/games", json={"players": P})
    assert res.status_code == 201, res.get_json()
    return res.get_json()["id"]


def record(client, gid: int, hand: dict) -> dict:
    res = client.post(f"/game/api/{gid}/hands", json=hand)
    assert res.status_code == 201, res.get_json()
    return res.get_json()["sheet"]


def sheet(client, gid: int) -> dict:
    return client.get(f"/game/api/{gid}").get_json()


def test_a_correction_of_a_hand_undone_and_recorded_again_is_refused(client):
    """Tablet A opens hand 1 (Ann 8); tablet B undoes it and records Bo's 32: A's
    correction answers 409 in the request's language and Bo's hand stays."""
    gid = new_game(client)
    seen = record(client, gid, ANN_8)["hands"][0]["revision"]
    assert client.post(f"/game/api/{gid}/undo", json={"number": 1}).status_code == 200
    record(client, gid, {**BO_32, "expected_number": 1})
    stale = {**ANN_9, "expected_revision": seen}
    message = error(client.put(f"/game/api/{gid}/hands/1", json=stale), 409, "conflict")
    assert "hand 1 of game" in message and "nothing was saved" in message
    zh = client.put(f"/game/api/{gid}/hands/1", json={**stale, "lang": "zh"})
    assert "其他设备修改或撤销" in error(zh, 409, "conflict")
    hant = client.put(f"/game/api/{gid}/hands/1", json={**stale, "lang": "zh-Hant"})
    assert "其他裝置修改或撤銷" in error(hant, 409, "conflict")
    hand = sheet(client, gid)["hands"][0]
    assert (hand["winner"], hand["discarder"], hand["fans"]) == ("Bo", "Cy", 32)


def test_two_corrections_from_the_same_view_save_the_first_only(client):
    """The revision a correction names is the hand as the sheet showed it: once one
    tablet's correction is saved, another correcting the same view is refused."""
    gid = new_game(client)
    seen = record(client, gid, ANN_8)["hands"][0]["revision"]
    first = client.put(f"/game/api/{gid}/hands/1", json={**ANN_9, "expected_revision": seen})
    assert first.status_code == 200
    now = first.get_json()["sheet"]["hands"][0]["revision"]
    assert now != seen
    second = {**ANN_8, "fans": 12, "expected_revision": seen}
    error(client.put(f"/game/api/{gid}/hands/1", json=second), 409, "conflict")
    assert sheet(client, gid)["hands"][0]["fans"] == 9
    again = client.put(f"/game/api/{gid}/hands/1", json={**second, "expected_revision": now})
    assert again.status_code == 200 and sheet(client, gid)["hands"][0]["fans"] == 12


def test_a_correction_sent_again_after_its_answer_was_lost_is_saved_once(client):
    """A tablet whose answer was lost sends the same correction with the same revision
    again: it is answered as saved (200, the sheet), and the audit trail holds one
    correction. Once another tablet changes the hand, that retry is a conflict."""
    gid = new_game(client)
    seen = record(client, gid, ANN_8)["hands"][0]["revision"]
    fix = {**ANN_9, "expected_revision": seen, "who": "tablet A"}
    first = client.put(f"/game/api/{gid}/hands/1", json=fix)
    assert first.status_code == 200
    retry = client.put(f"/game/api/{gid}/hands/1", json=fix)
    assert retry.status_code == 200, retry.get_json()
    assert retry.get_json()["sheet"] == first.get_json()["sheet"]
    audit = client.get(f"/game/api/{gid}/audit").get_json()
    assert [a["action"] for a in audit] == ["create", "record", "edit"]
    now = first.get_json()["sheet"]["hands"][0]["revision"]
    other = {**ANN_8, "fans": 12, "expected_revision": now}
    assert client.put(f"/game/api/{gid}/hands/1", json=other).status_code == 200
    error(client.put(f"/game/api/{gid}/hands/1", json=fix), 409, "conflict")
    assert sheet(client, gid)["hands"][0]["fans"] == 12


def test_a_correction_of_a_hand_undone_since_is_a_conflict(client):
    """The hand the tablet shows is gone: 409 (the page refreshes), not 404, and
    nothing is recorded in its place."""
    gid = new_game(client)
    seen = record(client, gid, ANN_8)["hands"][0]["revision"]
    client.post(f"/game/api/{gid}/undo", json={"number": 1})
    res = client.put(f"/game/api/{gid}/hands/1", json={**ANN_9, "expected_revision": seen})
    error(res, 409, "conflict")
    assert sheet(client, gid)["hands"] == []

    """A client that names no revision (a script) replaces the hand as it asks."""
    """Clients that name no revision (older pages, scripts) correct as before."""
    gid = new_game(client)
    record(client, gid, ANN_8)
    res = client.put(f"/game/api/{gid}/hands/1", json=ANN_9)
    assert res.status_code == 200 and sheet(client, gid)["hands"][0]["fans"] == 9


@pytest.mark.parametrize("revision", [5, "", True, ["x"], "x" * 65])
def test_a_revision_that_is_no_revision_is_a_bad_request(client, revision):
    gid = new_game(client)
    record(client, gid, ANN_8)
    res = client.put(f"/game/api/{gid}/hands/1", json={**ANN_9, "expected_revision": revision})
    error(res, 400, "bad_expected")
    assert sheet(client, gid)["hands"][0]["fans"] == 8


def test_every_hand_of_the_sheet_carries_its_revision(tmp_path):
    """Equal hands share a revision, different ones differ; the JSON and the store agree."""
    store = GameStore(tmp_path / "g.sqlite3")
    gid = store.create_game(P)
    for hand in (ANN_8, ANN_8, BO_32):
        store.record_hand(gid, hand)
    revisions = [h["revision"] for h in store.sheet(gid)["hands"]]
    assert revisions[0] == revisions[1] != revisions[2]
    with pytest.raises(GameError) as err:
        store.edit_hand(gid, 3, ANN_9, revision=revisions[0])
    assert err.value.code == "conflict"
    store.edit_hand(gid, 3, ANN_9, revision=revisions[2])
    assert store.sheet(gid)["hands"][2]["fans"] == 9


def test_the_command_line_corrects_only_the_hand_it_names(tmp_path, capsys):
    """`mcr game edit --expect REVISION` refuses a hand changed since; the revision is in
    `show --json` and printed after each correction."""
    db = ["--db", str(tmp_path / "g.sqlite3")]
    assert mcr("game", "new", *db, *P) == 0
    assert mcr("game", "record", *db, "1", "--winner", "Ann", "--self-drawn", "--fans", "8") == 0
    capsys.readouterr()
    assert mcr("game", "show", *db, "1", "--json") == 0
    seen = json.loads(capsys.readouterr().out)["hands"][0]["revision"]
    fix = ["game", "edit", *db, "1", "1", "--winner", "Ann", "--self-drawn"]
    assert mcr(*fix, "--fans", "9", "--expect", seen) == 0
    now = capsys.readouterr().out.split("(revision ")[1].rstrip(")\n")
    assert mcr(*fix, "--fans", "12", "--expect", seen) == 1
    err = capsys.readouterr().err
    assert "nothing was saved" in err and "Traceback" not in err
    assert mcr(*fix, "--fans", "12", "--expect", now) == 0
    assert GameStore(tmp_path / "g.sqlite3").game(1)["hands"][0]["fans"] == 12
