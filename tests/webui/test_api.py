"""The JSON API and the error paths, through Flask's test client."""

from __future__ import annotations

import io
import json

import pytest

from scorer.errors import ScoreError
from tests.webui.conftest import SEED_HAND, needs_scorer
from tests.webui.photo_fixture import HAND, photo_png
from webui.app import MAX_UPLOAD_BYTES, create_app


def _error(resp, status: int) -> dict:
    assert resp.status_code == status, resp.get_data(as_text=True)
    assert resp.is_json
    body = resp.get_json()
    assert set(body) == {"error"} and body["error"]["code"] and body["error"]["message"]
    assert "Traceback" not in resp.get_data(as_text=True)
    return body["error"]


def test_healthz(client):
    resp = client.get("/healthz")
    assert resp.status_code == 200 and resp.get_json()["status"] == "ok"


def test_page_and_its_assets_are_served_locally(client):
    """The page and every module it imports come from this server (no CDN: works offline)."""
    import re
    from urllib.parse import urljoin

    page = client.get("/")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'capture="environment"' in html and 'accept="image/*"' in html
    assert "http://" not in html and "https://" not in html
    for asset in ("style.css", "i18n.js", "page/main.js", "favicon.svg"):
        assert f"/static/{asset}" in html
    todo, seen = ["/static/page/main.js", "/static/game.js"], set()
    while todo:
        url = todo.pop()
        if url in seen:
            continue
        seen.add(url)
        resp = client.get(url)
        assert resp.status_code == 200 and resp.data, url
        assert "javascript" in resp.content_type, url
        text = resp.get_data(as_text=True)
        resp.close()
        todo += [urljoin(url, m) for m in re.findall(r'^import .* from "([^"]+)";', text, re.M)]
    assert {"/library.js", "/static/tiles.js", "/static/api.js"} <= seen
    assert len(seen) >= 12  # the page's screens are modules of their own


@needs_scorer
def test_score_seed_example_is_48(client):
    resp = client.post("/api/score", json={"hand": SEED_HAND, "self_drawn": True})
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["total"] == 48 and body["meets_minimum"] is True
    assert sum(f["points"] * f["count"] for f in body["fans"]) == 48
    for field in ("id", "name_zh", "name_en", "points", "count"):
        assert all(field in f for f in body["fans"])
    assert "一色三同顺" in {f["name_zh"] for f in body["fans"]}
    assert body["payments"]


@needs_scorer
@pytest.mark.parametrize(
    ("data", "content_type", "status", "code"),
    [
        (b"{not json", "application/json", 400, "bad_json"),
        (b"[1, 2]", "application/json", 400, "not_object"),
        (b"", "application/json", 400, "empty_body"),
        (b'"hand"', "text/plain", 400, "not_object"),
    ],
)
def test_score_rejects_unreadable_bodies(client, data, content_type, status, code):
    err = _error(client.post("/api/score", data=data, content_type=content_type), status)
    assert err["code"] == code


@needs_scorer
@pytest.mark.parametrize(
    "request_obj",
    [
        {"hand": "11111m23456789p"},  # five copies of a tile
        {"hand": "123m456p789s1122z"},  # not the notation
        {"hand": "13579m2468p13579s"},  # not a winning hand
        {"hand": SEED_HAND, "kong": True, "self_drawn": True},  # 杠上开花 without a kong
        {"hand": SEED_HAND, "seat_wind": "X"},
        {},
    ],
)
def test_score_rejects_impossible_hands_with_the_scorers_reason(client, request_obj):
    err = _error(client.post("/api/score", json=request_obj), 422)
    try:
        from scorer.request import score_request

        score_request(request_obj)
    except ScoreError as exc:
        assert err == {"code": exc.code, "message": exc.message}
    else:
        pytest.fail("the scorer accepted an impossible request")


@needs_scorer
def test_options_disable_a_kong_flag_the_hand_cannot_have(client):
    resp = client.post("/api/options", json={"hand": SEED_HAND, "self_drawn": True})
    flags = resp.get_json()["flags"]
    assert flags["kong"]["possible"] is False and flags["kong"]["message"]
    assert flags["last_tile"]["possible"] is True
    assert set(flags) == {"self_drawn", "fourth_tile", "kong", "last_tile"}


def test_unknown_api_route_and_wrong_method_are_json(client):
    assert _error(client.get("/api/nothing"), 404)["code"] == "not_found"
    assert _error(client.get("/api/score"), 405)["code"] == "method_not_allowed"


def test_unknown_page_is_a_friendly_page(client):
    resp = client.get("/no-such-page")
    assert resp.status_code == 404 and resp.mimetype == "text/html"
    assert "Traceback" not in resp.get_data(as_text=True)


def test_unexpected_failure_is_a_json_500_without_traceback(tmp_path):
    def broken(data: bytes, name: str, exemplars=None) -> dict:
        raise RuntimeError("secret internal detail")

    client = create_app({"TESTING": False, "MCR_RECOGNIZE": broken}).test_client()
    resp = client.post("/api/recognize", data={"photo": (io.BytesIO(b"x"), "a.jpg")})
    err = _error(resp, 500)
    assert "secret internal detail" not in resp.get_data(as_text=True)
    assert err["code"] == "internal_error"


def test_recognize_reads_the_photo(client):
    resp = client.post("/api/recognize", data={"photo": (io.BytesIO(photo_png()), "table.png")})
    assert resp.status_code == 200, resp.get_data(as_text=True)
    body = resp.get_json()
    assert body["image"] == "table.png"
    assert body["hand"] is not None
    from scorer.notation import format_hand, normalized, parse_hand

    def norm(text: str) -> str:
        return format_hand(normalized(parse_hand(text)))

    assert norm(body["hand"]) == norm(HAND)
    assert len(body["tiles"]) == 15 and all(len(t["box"]) == 4 for t in body["tiles"])


@pytest.mark.parametrize(
    ("data", "status", "code"),
    [
        ({}, 400, "no_photo"),
        ({"note": "hello"}, 400, "no_photo"),
        ({"image": (io.BytesIO(b"abc"), "a.jpg")}, 400, "no_photo"),
        ({"photo": (io.BytesIO(b""), "a.jpg")}, 400, "empty_photo"),
    ],
)
def test_recognize_rejects_missing_uploads(client, data, status, code):
    err = _error(client.post("/api/recognize", data=data), status)
    assert err["code"] == code


@pytest.mark.parametrize(
    "part",
    [
        # a phone's file name sent in Latin-1, not UTF-8
        b'Content-Disposition: form-data; name="photo"; filename="caf\xe9.jpg"\r\n\r\nxx\r\n--b--',
        # the connection dropped mid-part: no closing boundary
        b'Content-Disposition: form-data; name="photo"; filename="a.jpg"\r\n\r\nxx',
    ],
)
def test_an_unreadable_form_is_named_as_such_not_as_a_missing_photo(client, part):
    resp = client.post(
        "/api/recognize",
        data=b"--b\r\n" + part,
        headers={"Content-Type": "multipart/form-data; boundary=b", "Accept-Language": "zh"},
    )
    err = _error(resp, 400)
    assert err["code"] == "bad_form"
    assert "UTF-8" in err["message"] and "照片" in err["message"]


@pytest.mark.parametrize(
    "payload",
    [b"this is not a picture", photo_png()[:200], b"\xff\xd8\xff\xe0" + b"\x00" * 40],
)
def test_recognize_rejects_bad_images_with_a_message(client, payload):
    err = _error(client.post("/api/recognize", data={"photo": (io.BytesIO(payload), "x.jpg")}), 422)
    assert len(err["message"]) > 10


def test_recognize_json_body_instead_of_form(client):
    _error(client.post("/api/recognize", json={"photo": "abc"}), 400)


def test_upload_over_the_limit_is_a_json_413(tmp_path):
    assert create_app().config["MAX_CONTENT_LENGTH"] == MAX_UPLOAD_BYTES == 25 * 1024 * 1024
    client = create_app({"MAX_CONTENT_LENGTH": 1000}).test_client()
    resp = client.post("/api/recognize", data={"photo": (io.BytesIO(b"x" * 5000), "big.jpg")})
    assert _error(resp, 413)["code"] == "too_large"


def test_missing_models_is_a_503(tmp_path):
    from vision.errors import ModelError

    def no_models(data: bytes, name: str, exemplars=None) -> dict:
        raise ModelError("models_missing", detail="no model files")

    client = create_app({"MCR_RECOGNIZE": no_models}).test_client()
    resp = client.post("/api/recognize", data={"photo": (io.BytesIO(photo_png()), "a.png")})
    assert _error(resp, 503)["code"] == "models_missing"


@needs_scorer
def test_check_names_what_differs(client):
    req = {"hand": SEED_HAND, "self_drawn": True}
    good = client.post("/api/score", json=req).get_json()
    ids = [f["id"] for f in good["fans"] for _ in range(f["count"])]
    right = client.post("/api/check", json={"request": req, "claim": ids, "total": 48}).get_json()
    assert right["correct"] is True and right["total"] == 48

    wrong_claim = [i for i in ids if i != ids[0]] + [1]  # drop one fan, add 大四喜
    body = client.post(
        "/api/check", json={"request": req, "claim": wrong_claim, "total": 40}
    ).get_json()
    assert body["correct"] is False and body["total_ok"] is False
    assert ids[0] in {f["id"] for f in body["missing"]}
    assert [f["id"] for f in body["extra"]] == [1]


@needs_scorer
def test_check_total_only_and_fields_at_top_level(client):
    body = client.post("/api/check", json={"hand": SEED_HAND, "self_drawn": True, "total": 47})
    body = body.get_json()
    assert body["correct"] is False and body["total"] == 48 and body["claimed_total"] == 47


@needs_scorer
@pytest.mark.parametrize(
    "payload",
    [
        {"request": {"hand": SEED_HAND}},  # nothing claimed
        {"request": {"hand": SEED_HAND}, "claim": ["No Such Fan"]},
        {"request": {"hand": SEED_HAND}, "claim": [99]},
        {"request": {"hand": SEED_HAND}, "total": "many"},
        {"request": {"hand": SEED_HAND}, "claim": {"a": 1}},
        {"request": "hand", "total": 8},
    ],
)
def test_check_rejects_bad_claims(client, payload):
    resp = client.post("/api/check", json=payload)
    assert 400 <= resp.status_code < 500
    assert resp.get_json()["error"]["message"]


@needs_scorer
def test_a_flag_beside_the_request_is_refused_not_dropped(client):
    """A score field beside `request` is refused: judged without it (here 自摸), a claim
    would be checked against another hand than the referee meant."""
    hand = "123m456p789s123sEE"
    claim = "花龙,门前清,喜相逢,单钓将"
    body = {"request": {"hand": hand}, "claim": claim, "self_drawn": True}
    resp = client.post("/api/check", json=body)
    assert resp.status_code in (400, 422)
    assert resp.get_json()["error"]["code"] == "unknown_field"
    inside = {"request": {"hand": hand, "self_drawn": True}, "claim": claim, "lang": "en"}
    assert client.post("/api/check", json=inside).get_json()["correct"] is False


@needs_scorer
def test_fan_table(client):
    fans = client.get("/api/fans").get_json()
    assert [f["id"] for f in fans] == list(range(1, 82))
    assert fans[0]["points"] == 88 and fans[80]["name_zh"] == "花牌"
    # the traditional names as seed 001 writes them (綠一色, 九蓮寶燈)
    assert fans[2]["name_zh_hant"] == "綠一色" and fans[3]["name_zh_hant"] == "九蓮寶燈"


def test_responses_keep_chinese_readable(client):
    resp = client.post("/api/score", json={"hand": "我"})
    assert "\\u" not in resp.get_data(as_text=True)
    json.loads(resp.get_data(as_text=True))


def test_recognize_with_the_bundled_models_when_present(tmp_path):
    """The default reader (the bundled ONNX models) answers the contract object."""
    from pathlib import Path

    models = Path(__file__).resolve().parents[2] / "models"
    if not list(models.glob("*.onnx")):
        pytest.skip("no bundled models (models/*.onnx) in this checkout")
    client = create_app({"MCR_DB": str(tmp_path / "g.db")}).test_client()
    resp = client.post("/api/recognize", data={"photo": (io.BytesIO(photo_png()), "table.png")})
    if resp.status_code == 503:
        pytest.skip(f"models present but not loadable: {resp.get_json()['error']['message']}")
    assert resp.status_code == 200, resp.get_data(as_text=True)
    body = resp.get_json()
    assert body["image"] == "table.png" and "hand" in body
    assert isinstance(body["tiles"], list) and isinstance(body["warnings"], list)
