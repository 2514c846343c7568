"""The /game blueprint through Flask's test client, inside the page shell it is served in."""

from __future__ import annotations

import pytest

from webui.app import create_app


@pytest.fixture
def client(tmp_path):
    app = create_app({"TESTING": True, "MCR_DB": str(tmp_path / "web.sqlite3")})
    return app.test_client()


P = ["Ann", "Bo", "Cy", "Di"]


def new_game(client, **extra) -> int:
    res = client.post("/game/api/games", json={"players": P, **extra})
    assert res.status_code == 201, res.get_json()
    return res.get_json()["id"]


def test_record_a_hand_in_one_post(client):
    gid = new_game(client)
    res = client.post(
        f"/game/api/{gid}/hands",
        json={
            "result": "win",
            "winner": "Ann",
            "self_drawn": True,
            "fans": 24,
            "hand": "[123p,1][345s,2][999s,3]6m6pEW1m",
            "who": "table 3",
            "expected_number": 1,
        },
    )
    assert res.status_code == 201
    body = res.get_json()
    assert body["number"] == 1
    assert body["sheet"]["scores"] == {"Ann": 596, "Bo": 468, "Cy": 468, "Di": 468}
    assert body["sheet"]["hands"][0]["hand"].startswith("[123p")
    # the same tap again is refused instead of recorded twice
    again = client.post(
        f"/game/api/{gid}/hands",
        json={
            "result": "win",
            "winner": "Ann",
            "self_drawn": True,
            "fans": 24,
            "expected_number": 1,
        },
    )
    assert again.status_code == 409
    assert "already recorded" in again.get_json()["error"]["message"]


def test_record_by_seat_wind_and_next_seating(client):
    gid = new_game(client)
    sheet = client.get(f"/game/api/{gid}").get_json()
    assert sheet["next"] == {
        "number": 1,
        "round_wind": "E",
        "dealer": "Ann",
        "seat_winds": {"Ann": "E", "Bo": "S", "Cy": "W", "Di": "N"},
    }
    res = client.post(
        f"/game/api/{gid}/hands",
        json={"result": "win", "winner_seat": "S", "discarder_seat": "E", "fans": 8},
    )
    assert res.status_code == 201
    h = res.get_json()["sheet"]["hands"][0]
    assert (h["winner"], h["discarder"]) == ("Bo", "Ann")


def test_bad_input_gets_json_errors(client):
    gid = new_game(client)
    res = client.post(
        f"/game/api/{gid}/hands",
        json={"result": "win", "winner": "Zed", "self_drawn": True, "fans": 8},
    )
    assert res.status_code == 400
    assert res.get_json()["error"]["code"] == "unknown_player"
    res = client.post(f"/game/api/{gid}/hands", data="nonsense", content_type="text/plain")
    # the server refuses a write that is not JSON before the game sheet sees it
    assert res.status_code == 415 and "JSON" in res.get_json()["error"]["message"]
    assert client.get("/game/api/999").status_code == 404
    res = client.post("/game/api/games", json={"players": ["a", "a", "b", "c"]})
    assert res.status_code == 400 and res.get_json()["error"]["code"] == "duplicate_player"
    assert client.post(f"/game/api/{gid}/undo").status_code == 415  # no JSON body


def test_edit_undo_audit_csv_and_rankings(client):
    gid = new_game(client, tournament="cup", teams={"Ann": "Red", "Bo": "Red"})
    client.post(f"/game/api/{gid}/hands", json={"result": "draw"})
    client.post(f"/game/api/{gid}/hands", json={"result": "draw"})
    res = client.put(
        f"/game/api/{gid}/hands/1",
        json={"result": "win", "winner": "Cy", "discarder": "Di", "fans": 16, "who": "ref"},
    )
    assert res.status_code == 200
    assert res.get_json()["sheet"]["scores"]["Cy"] == 500 + 24 + 8 + 8
    assert client.put(f"/game/api/{gid}/hands/9", json={"result": "draw"}).status_code == 404
    res = client.post(f"/game/api/{gid}/undo", json={"who": "ref", "number": 2})
    assert res.status_code == 200 and len(res.get_json()["sheet"]["hands"]) == 1
    audit = client.get(f"/game/api/{gid}/audit").get_json()
    assert [a["action"] for a in audit] == ["create", "record", "record", "edit", "undo"]
    assert audit[3]["who"] == "ref" and audit[3]["old"] == {"result": "draw"}
    csv = client.get(f"/game/api/{gid}/sheet.csv")
    assert csv.status_code == 200 and csv.mimetype == "text/csv"
    assert csv.get_data(as_text=True).startswith("hand,round_wind,dealer,result")
    ranks = client.get("/game/api/rankings?tournament=cup").get_json()
    assert ranks["players"][0]["name"] == "Cy"
    assert {t["name"] for t in ranks["teams"]} == {"Red"}
    assert client.get("/game/api/rankings.csv?tournament=cup&teams=1").status_code == 200


def test_pages_render(client):
    gid = new_game(client, name="Final")
    client.post(
        f"/game/api/{gid}/hands",
        json={"result": "win", "winner": "Di", "self_drawn": True, "fans": 8},
    )
    index = client.get("/game/")
    assert index.status_code == 200 and "Ann, Bo, Cy, Di" in index.get_data(as_text=True)
    page = client.get(f"/game/{gid}")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "Final" in html and 'id="sheet-data"' in html
    assert client.get("/game/999").status_code == 404
    ranks = client.get("/game/rankings").get_data(as_text=True)
    assert "Di" in ranks and "标准分" in ranks
    assert client.get("/static/game.js").status_code == 200
    assert client.get("/static/game.css").status_code == 200


def test_game_penalty(client):
    gid = new_game(client)
    res = client.post(
        f"/game/api/{gid}/penalties",
        json={"player": "Bo", "kind": "deduction", "points": 10, "who": "ref"},
    )
    assert res.status_code == 201 and res.get_json()["scores"]["Bo"] == 490
    res = client.post(f"/game/api/{gid}/penalties", json={"player": "Bo", "kind": "nap"})
    assert res.status_code == 400 and res.get_json()["error"]["code"] == "bad_penalty"


def test_a_wrong_win_sent_with_points_is_refused_and_nothing_kept(client):
    """A wrong win's payment is fixed by the rules: `points` sent with one is a mistake
    the recorder hears about (not points silently dropped), and nothing of it is kept in
    the sheet or its audit trail, nor echoed back."""
    gid = new_game(client)
    junk = {"x": ["y" * 1900]}
    res = client.post(
        f"/game/api/{gid}/penalties", json={"player": "Ann", "kind": "wrong_win", "points": junk}
    )
    assert res.status_code == 400 and res.get_json()["error"]["code"] == "bad_penalty"
    assert "y" * 100 not in res.get_data(as_text=True)
    assert "penalties" not in client.get(f"/game/api/{gid}").get_json()
    trail = client.get(f"/game/api/{gid}/audit").get_json()
    assert "y" * 100 not in str(trail)


def test_a_game_takes_a_bounded_number_of_whole_game_penalties(client):
    gid = new_game(client)
    pen = {"player": "Bo", "kind": "deduction", "points": 1}
    codes = [client.post(f"/game/api/{gid}/penalties", json=pen).status_code for _ in range(17)]
    assert codes == [201] * 16 + [400]
    assert len(client.get(f"/game/api/{gid}").get_json()["penalties"]) == 16


def test_a_hostile_field_is_named_short_and_nothing_is_recorded(client):
    """A hand posted with hundreds of unknown fields, one of 2,000 characters: the
    refusal names a few of them, cut, and the sheet stays empty."""
    gid = new_game(client)
    junk = {f"k{i:04}": 1 for i in range(300)} | {"z" * 2_000: 1}
    res = client.post(f"/game/api/{gid}/hands", json={"result": "draw", **junk})
    assert res.status_code == 422
    error = res.get_json()["error"]
    assert error["code"] == "unknown_field" and "'k0000'" in error["message"]
    assert len(error["message"]) < 600
    assert client.get(f"/game/api/{gid}").get_json()["hands"] == []
