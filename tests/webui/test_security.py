"""Who may change a game sheet: same-origin JSON only, the Host allow-list, the hall PIN
from other machines, the security headers, idempotent recording and CSV formulas."""

from __future__ import annotations

import pytest

from scorer.game import csvio
from tests.webui.conftest import SEED_HAND, needs_scorer
from webui.app import create_app

P = ["Ann", "Bo", "Cy", "Di"]
WIN = {"result": "win", "winner": "Ann", "discarder": "Bo", "fans": 8}
LAN = {"REMOTE_ADDR": "192.168.1.20"}


@pytest.fixture(autouse=True)
def _no_wrong_pins_yet(monkeypatch):
    """Each test starts with no device's wrong PINs on record (the record is the server
    process's, shared by every app in it)."""
    from webui import security

    monkeypatch.setattr(security, "_failures", {})


@pytest.fixture()
def hall(tmp_path):
    """The app as `mcr serve --host 0.0.0.0` makes it: names it answers to and a PIN."""
    return create_app(
        {
            "MCR_DB": str(tmp_path / "games.db"),
            "MCR_ALLOWED_HOSTS": frozenset({"192.168.1.5", "laptop.local"}),
            "MCR_PIN": "246810",
        }
    )


def _new_game(client, **kw) -> int:
    resp = client.post("/game/api/games", json={"players": P}, **kw)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()["id"]


def test_lan_write_without_the_pin_is_refused(hall):
    tablet = hall.test_client()
    resp = tablet.post(
        "/game/api/games", json={"players": P}, environ_base=LAN, base_url="http://192.168.1.5"
    )
    assert resp.status_code == 403 and resp.get_json()["error"]["code"] == "pin_required"
    wrong = tablet.post(
        "/game/api/games",
        json={"players": P},
        environ_base=LAN,
        headers={"X-MCR-PIN": "111111"},
    )
    assert wrong.status_code == 403
    assert hall.test_client().get("/game/api/games").get_json() == []
    for lang, text in (("zh-CN", "需要场馆 PIN"), ("zh-TW", "需要場館 PIN")):
        resp = tablet.post(
            "/game/api/games",
            json={"players": P},
            environ_base=LAN,
            headers={"Accept-Language": lang},
        )
        assert text in resp.get_json()["error"]["message"]


def test_lan_write_with_the_pin_and_after_joining(hall):
    tablet = hall.test_client()
    assert _new_game(tablet, environ_base=LAN, headers={"X-MCR-PIN": "246810"}) == 1
    joined = tablet.post("/join", data={"pin": "246810"}, environ_base=LAN)
    assert joined.status_code == 302 and "mcr_pin=246810" in joined.headers["Set-Cookie"]
    assert "HttpOnly" in joined.headers["Set-Cookie"]
    assert "SameSite=Strict" in joined.headers["Set-Cookie"]
    resp = tablet.post("/game/api/1/hands", json=WIN, environ_base=LAN)  # the cookie
    assert resp.status_code == 201


def test_wrong_pins_lock_the_device_out(hall):
    tablet = hall.test_client()
    codes = [
        tablet.post("/join", data={"pin": f"{i:06d}"}, environ_base={"REMOTE_ADDR": "10.0.0.9"})
        for i in range(12)
    ]
    assert [r.status_code for r in codes[:10]] == [403] * 10
    assert codes[11].status_code == 429
    right = tablet.post("/join", data={"pin": "246810"}, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert right.status_code == 429  # even the right PIN waits
    assert 1 <= int(right.headers["Retry-After"]) <= 300  # and is told how long
    write = tablet.post(
        "/game/api/games",
        json={"players": P},
        environ_base={"REMOTE_ADDR": "10.0.0.9"},
        headers={"X-MCR-PIN": "246810"},
    )
    assert write.status_code == 429 and 1 <= int(write.headers["Retry-After"]) <= 300


def test_a_flood_of_addresses_does_not_unlock_a_guesser(hall, monkeypatch) -> None:
    """The wrong-PIN record holds so many devices; when a flood of addresses (many IPv6
    addresses cost an attacker nothing) fills it, the devices not locked out are
    forgotten first: a guesser locked out stays locked out, flood after flood."""
    from webui import security

    monkeypatch.setattr(security, "FAILURES_KEPT", 20)
    tablet = hall.test_client()
    guesser = {"REMOTE_ADDR": "10.0.0.77"}
    for i in range(10):
        tablet.post("/join", data={"pin": f"{i:06d}"}, environ_base=guesser)
    for n in range(60):
        other = {"REMOTE_ADDR": f"fd00::{n + 1:x}"}
        assert tablet.post("/join", data={"pin": "000000"}, environ_base=other).status_code == 403
        assert len(security._failures) <= 20
        right = tablet.post("/join", data={"pin": "246810"}, environ_base=guesser)
        assert right.status_code == 429, n


def test_a_link_fills_the_pin_in_and_spends_no_try(hall):
    """/join?pin=... (the QR code, or a link another site makes a tablet fetch) shows the
    form with the PIN filled in and tries nothing: however many such links, the tablet is
    not locked out. A tap on Join sends the PIN from the page; another site's post of
    the form is refused and tries nothing either."""
    tablet = hall.test_client()
    where = {"REMOTE_ADDR": "10.0.0.11"}
    for i in range(12):
        page = tablet.get(
            f"/join?pin={i:06d}", environ_base=where, headers={"Sec-Fetch-Site": "cross-site"}
        )
        assert page.status_code == 200 and "Set-Cookie" not in page.headers
        assert f'value="{i:06d}"' in page.get_data(as_text=True)
    foreign = {"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}
    for i in range(12):
        posted = tablet.post("/join", data={"pin": f"{i:06d}"}, environ_base=where, headers=foreign)
        assert posted.status_code == 403 and posted.get_json()["error"]["code"] == "bad_origin"
    write = tablet.post(
        "/game/api/games", json={"players": P}, environ_base=where, headers={"X-MCR-PIN": "246810"}
    )
    assert write.status_code == 201
    assert tablet.post("/join", data={"pin": "246810"}, environ_base=where).status_code == 302


def test_a_write_another_site_makes_the_browser_send_is_refused(hall):
    """A browser marks a request another site made it send (`Sec-Fetch-Site: cross-site`),
    even when that site hides its address: such a write is refused, PIN or not."""
    resp = hall.test_client().post(
        "/game/api/games",
        json={"players": P},
        headers={"Sec-Fetch-Site": "cross-site", "X-MCR-PIN": "246810"},
    )
    assert resp.status_code == 403 and resp.get_json()["error"]["code"] == "bad_origin"
    assert hall.test_client().get("/game/api/games").get_json() == []


@pytest.mark.parametrize("header", ["Origin", "Referer"])
@pytest.mark.parametrize("value", ["http://[", "http://[x/", "http://]", "http://[::1"])
def test_an_origin_that_is_no_url_is_refused_not_a_crash(hall, header: str, value: str) -> None:
    """An `Origin` or `Referer` that does not parse names no page of this server: the
    write is refused as from another site (403), never a server error, and not written."""
    resp = hall.test_client().post(
        "/game/api/games", json={"players": P}, headers={header: value, "X-MCR-PIN": "246810"}
    )
    assert resp.status_code == 403 and resp.get_json()["error"]["code"] == "bad_origin"
    assert hall.test_client().get("/game/api/games").get_json() == []
    scored = hall.test_client().post("/api/score", json={"hand": "1m"}, headers={header: value})
    assert scored.status_code == 403


def test_a_tablet_holding_an_old_pin_is_not_locked_out(hall):
    """The server restarted with a new PIN: a tablet's cookie still holds the old one and
    sends it with every request. Those are refused, but they are one wrong PIN, not
    twenty guesses: the right PIN typed at /join still lets the tablet in."""
    tablet = hall.test_client()
    where = {"REMOTE_ADDR": "10.0.0.10"}
    tablet.set_cookie("mcr_pin", "135790", domain="localhost")
    codes = {tablet.post("/game/api/games", json={"players": P}, environ_base=where).status_code
             for _ in range(20)}  # fmt: skip
    assert codes == {403}
    assert tablet.post("/join", data={"pin": "246810"}, environ_base=where).status_code == 302
    assert (
        tablet.post("/game/api/games", json={"players": P}, environ_base=where).status_code == 201
    )


@needs_scorer
def test_scoring_stays_open_without_the_pin(hall):
    tablet = hall.test_client()
    resp = tablet.post("/api/score", json={"hand": SEED_HAND, "self_drawn": True}, environ_base=LAN)
    assert resp.status_code == 200 and resp.get_json()["total"] == 48
    assert tablet.get("/game/api/games", environ_base=LAN).status_code == 200  # reading too


def test_the_laptop_itself_needs_no_pin(hall):
    assert _new_game(hall.test_client()) == 1  # loopback client


def test_host_allow_list(hall):
    client = hall.test_client()
    for host in ("127.0.0.1:8000", "localhost", "[::1]:8000", "192.168.1.5:8000", "laptop.local"):
        assert client.get("/healthz", base_url=f"http://{host}").status_code == 200, host
    for host in ("evil.example", "192.168.1.6:8000", "laptop.local.evil.example"):
        resp = client.get("/healthz", base_url=f"http://{host}")
        assert resp.status_code == 400 and resp.get_json()["error"]["code"] == "bad_host", host


def test_cross_site_form_post_cannot_undo(client):
    gid = _new_game(client)
    assert client.post(f"/game/api/{gid}/hands", json=WIN).status_code == 201
    attacks = [
        client.post(f"/game/api/{gid}/undo", data={"who": "x"}, headers={"Origin": "http://evil"}),
        client.post(f"/game/api/{gid}/undo", data={"who": "x"}),  # a form: not JSON
        client.post(f"/game/api/{gid}/undo", data="{}", content_type="text/plain"),
        client.post(f"/game/api/{gid}/undo", json={}, headers={"Origin": "http://evil"}),
        client.post(f"/game/api/{gid}/undo", json={}, headers={"Referer": "http://evil/x"}),
    ]
    assert [r.status_code for r in attacks] == [403, 415, 415, 403, 403]
    assert len(client.get(f"/game/api/{gid}").get_json()["hands"]) == 1
    ok = client.post(
        f"/game/api/{gid}/undo", json={"number": 1}, headers={"Origin": "http://localhost"}
    )
    assert ok.status_code == 200


def test_security_headers_on_pages_and_api(client):
    for path in ("/", "/game/", "/api/fans", "/nothing"):
        resp = client.get(path)
        csp = resp.headers["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in csp and "default-src 'self'" in csp
        assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
        assert resp.headers["X-Content-Type-Options"] == "nosniff"


def test_the_pages_run_no_inline_script(client):
    """Every script is a file of this server; a data block is JSON, never run."""
    import re

    gid = _new_game(client)
    for path in ("/", "/game/", f"/game/{gid}", "/game/rankings"):
        resp = client.get(path)
        html = resp.get_data(as_text=True)
        assert "script-src 'self'" in resp.headers["Content-Security-Policy"]
        for tag in re.findall(r"<script[^>]*>", html):
            assert " src=" in tag or 'type="application/json"' in tag, (path, tag)
        assert not re.search(r"\son[a-z]+=", html), path  # no inline event handlers


def test_repeated_tap_records_once(client):
    gid = _new_game(client)
    hand = {**WIN, "request_id": "tablet3-7f2c", "expected_number": 1}
    first = client.post(f"/game/api/{gid}/hands", json=hand)
    again = client.post(f"/game/api/{gid}/hands", json=hand)
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.get_json()["number"] == again.get_json()["number"] == 1
    assert len(again.get_json()["sheet"]["hands"]) == 1
    other = client.post(f"/game/api/{gid}/hands", json={**hand, "winner": "Cy"})
    assert other.status_code == 409  # the same id for a different hand
    plain_again = client.post(f"/game/api/{gid}/hands", json={**WIN, "expected_number": 1})
    assert plain_again.status_code == 409  # without an id the expected number guards


def test_csv_cells_that_look_like_formulas_are_text():
    sheet_players = ["=HYPERLINK(1)", "+Bo", "-Cy", "@Di"]
    from scorer.game.replay import replay

    hand = {
        "result": "win",
        "winner": "+Bo",
        "discarder": "-Cy",
        "fans": 8,
        "note": "=1+1",
        "self_drawn": False,
    }
    sheet = replay({"players": sheet_players, "hands": [hand]})
    text = csvio.sheet_to_csv(sheet)
    for cell in ("'=HYPERLINK(1)", "'+Bo", "'-Cy", "'@Di", "'=1+1"):
        assert cell in text
    rows = [line.split(",") for line in text.splitlines()]
    assert rows[1][-4:] == ["-8", "32", "-16", "-8"]  # numbers stay numbers
    assert "'-8" not in text and "'-16" not in text and "'8" not in text
    game = csvio.csv_to_game(text)
    assert game["players"] == sheet_players and game["hands"][0]["note"] == "=1+1"
    assert game["hands"][0]["winner"] == "+Bo"


def test_join_page_asks_for_the_pin(hall):
    tablet = hall.test_client()
    page = tablet.get("/join", environ_base=LAN)
    assert page.status_code == 200 and 'name="pin"' in page.get_data(as_text=True)
    wrong = tablet.post("/join", data={"pin": "1"}, environ_base={"REMOTE_ADDR": "10.1.1.1"})
    assert wrong.status_code == 403 and "msg error" in wrong.get_data(as_text=True)
    assert "Set-Cookie" not in wrong.headers
    # the person who just typed a PIN is told it was wrong, not sent to /join again
    for lang, text in (("en", "PIN is wrong"), ("zh-CN", "PIN 不对"), ("zh-TW", "PIN 不對")):
        page = tablet.post(
            "/join",
            data={"pin": "2"},
            environ_base={"REMOTE_ADDR": "10.1.1.2"},
            headers={"Accept-Language": lang},
        ).get_data(as_text=True)
        assert text in page and "/join" not in page.split("msg error")[1].split("</p>")[0]


@pytest.mark.parametrize("name", ["A\x00n", "A\x0bn", "A\u2028n", "A\u2029n", "A\x1bn"])
def test_a_player_name_with_a_control_character_is_refused(hall, name):
    resp = hall.test_client().post("/game/api/games", json={"players": [name, *P[1:]]})
    assert resp.status_code == 400
    assert resp.get_json()["error"]["code"] == "bad_players"
