"""One table maps every error to its HTTP status; messages follow the request's language.

CONTRACTS.md: errors are `{"error": {"code", "message"}}` with a 4xx status;
`message` in the request's `lang`, on the web API also Accept-Language,
English by default.
"""

from __future__ import annotations

import re

import pytest

from scorer.errors import ScoreError
from scorer.game.errors import GameError
from vision.errors import ModelError, PhotoError
from webui.app import create_app
from webui.errors import RequestError, status_for

NOT_WINNING = {"hand": "123m456p789s123sEW"}


@pytest.mark.parametrize(
    "exc,status",
    [
        (ScoreError("not_winning"), 422),
        (GameError("unknown_game", game=3), 404),
        (GameError("conflict.next", game=1, number=2), 409),
        (GameError("bad_players"), 400),
        (PhotoError("too_large", label="", size=30.0, limit=25.0), 413),
        (PhotoError("not_an_image"), 422),
        (ModelError("models_missing", detail="gone"), 503),
        (RequestError("empty_body"), 400),
        (RequestError("bad_claim"), 422),
    ],
    ids=lambda x: getattr(x, "message_id", x),
)
def test_each_layer_maps_to_its_status(exc, status):
    assert status_for(exc) == status


@pytest.fixture
def client(tmp_path):
    return create_app({"TESTING": True, "MCR_DB": str(tmp_path / "g.sqlite3")}).test_client()


def _message(resp, status):
    assert resp.status_code == status
    return resp.get_json()["error"]["message"]


def test_accept_language_picks_the_message_language(client):
    exc = ScoreError("not_winning")
    english = _message(client.post("/api/score", json=NOT_WINNING), 422)
    assert english == exc.message_in("en")
    for header, lang in (
        ("zh-CN,zh;q=0.9,en;q=0.5", "zh"),
        ("zh-TW", "zh-Hant"),
        ("zh-Hant-HK;q=0.8, fr;q=0.9", "zh-Hant"),
        ("fr, en;q=0.5", "en"),
        ("yue-HK", "zh-Hant"),
        ("cmn-Hans-CN, en;q=0.5", "zh"),
        ("zh;q=0", "en"),  # q=0: Chinese is not wanted (RFC 9110 12.4.2)
        ("zh-CN;q=0, zh-TW;q=0.5", "zh-Hant"),
    ):
        resp = client.post("/api/score", json=NOT_WINNING, headers={"Accept-Language": header})
        assert _message(resp, 422) == exc.message_in(lang), header


def test_the_body_lang_wins_over_the_header(client):
    resp = client.post(
        "/api/score", json={**NOT_WINNING, "lang": "zh-Hant"}, headers={"Accept-Language": "en"}
    )
    assert _message(resp, 422) == ScoreError("not_winning").message_in("zh-Hant")


def test_a_body_lang_we_do_not_speak_is_refused_in_the_headers_language(client):
    resp = client.post(
        "/api/score", json={**NOT_WINNING, "lang": "fr"}, headers={"Accept-Language": "zh"}
    )
    assert resp.get_json()["error"]["code"] == "bad_lang"
    assert _message(resp, 422) == ScoreError("bad_lang", got="'fr'").message_in("zh")


def test_request_errors_and_http_errors_speak_the_header_language(client):
    zh = {"Accept-Language": "zh"}
    assert _message(client.post("/api/score", data="", headers=zh), 400) == RequestError(
        "empty_body"
    ).message_in("zh")
    assert _message(client.get("/api/nothing-here", headers=zh), 404) == "没有这个页面。"
    assert _message(client.get("/game/api/99", headers=zh), 404) == "没有第 99 局"


def test_photo_errors_keep_their_statuses(client):
    from io import BytesIO

    resp = client.post("/api/recognize", data={"photo": (BytesIO(b"not a photo"), "x.jpg")})
    assert resp.status_code == 422 and resp.get_json()["error"]["code"] == "not_an_image"


def test_options_reasons_follow_accept_language(client):
    """/api/options words each impossible flag's reason like every other error."""
    hand = {"hand": "[123p,1][345s,2][999s,3]66mEEE"}
    resp = client.post("/api/options", json=hand, headers={"Accept-Language": "zh-TW"})
    kong = resp.get_json()["flags"]["kong"]
    assert kong["possible"] is False and kong["code"] == "contradictory_flags"
    # the page's words for the scorer's refusal (the winning E is held twice more)
    from webui.i18n import OPTION_REASONS

    assert kong["message"] == OPTION_REASONS["contradictory_flags.robbed"]["zh-Hant"]


@pytest.mark.parametrize(
    ("header", "lang"), [("en", "en"), ("fr", "en"), ("zh-TW", "zh-Hant"), ("zh-CN", "zh-CN")]
)
def test_a_page_says_the_language_it_speaks(client, header, lang):
    """A page's `lang` attribute is the language its messages are written in."""
    for path in ("/no/such/page", "/"):
        html = client.get(path, headers={"Accept-Language": header}).get_data(as_text=True)
        assert f'<html lang="{lang}">' in html


ZH = {"Accept-Language": "zh"}


def test_a_chinese_message_names_an_empty_meld_and_meld_kinds_in_chinese(client):
    empty = client.post("/api/score", json={"hand": "[]"}, headers=ZH).get_json()["error"]
    assert "空的" in empty["message"] and "nothing" not in empty["message"]
    meld = {"melds": [{"kind": "chow", "tiles": ["1m", "1m", "1m"]}]}
    kinds = client.post("/api/hand", json=meld, headers=ZH).get_json()["error"]["message"]
    assert "顺子" in kinds and "刻子" in kinds and not re.search(r"[A-Za-z]{3}", kinds), kinds


@pytest.mark.parametrize("who", [None, 5, ["t"]])
def test_a_chinese_message_names_the_recorder_not_the_field(client, who):
    game = client.post("/game/api/games", json={"players": ["甲", "乙", "丙", "丁"]}).get_json()
    body = {"result": "draw", "who": who}
    resp = client.post(f"/game/api/{game['id']}/hands", json=body, headers=ZH)
    assert 400 <= resp.status_code < 500
    message = resp.get_json()["error"]["message"]
    assert "记录人" in message and "who" not in message, message
