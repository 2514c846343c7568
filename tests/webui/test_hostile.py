"""Hostile input on every endpoint: each answer is a 4xx JSON error, never a 500, and
nothing is stored.

The cases are the ones a hall's Wi-Fi can send: deep or huge JSON, numbers
past any range, lone surrogates, unknown fields, foreign Origin/Referer/Host
headers, wrong methods and content types, malformed multipart, and every
file a phone may upload (JPEG, PNG, HEIC, WebP, GIF, TIFF, BMP, empty,
truncated, absurd sizes). A real-server section is in test_server.py.
"""

from __future__ import annotations

import json
import struct
import time
import zlib

import cv2
import numpy as np
import pytest

from tests.webui.conftest import SEED_HAND, needs_scorer
from tests.webui.photo_fixture import fake_recognize, photo_png
from webui.app import MAX_FORM_FIELD_BYTES, MAX_FORM_PARTS, create_app

P = ["Ann", "Bo", "Cy", "Di"]
WIN = {"result": "win", "winner": "Ann", "discarder": "Bo", "fans": 8}

SCORE_ENDPOINTS = [
    ("POST", "/api/score"),
    ("POST", "/api/options"),
    ("POST", "/api/check"),
    ("POST", "/api/regroup"),
]
GAME_WRITES = [
    ("POST", "/game/api/games"),
    ("POST", "/game/api/1/hands"),
    ("PUT", "/game/api/1/hands/1"),
    ("POST", "/game/api/1/undo"),
    ("POST", "/game/api/1/penalties"),
]
JSON_ENDPOINTS = SCORE_ENDPOINTS + GAME_WRITES
#: where photos are uploaded: a hand's, and a set laid out to teach it (a tablet's or the
#: hall's)
PHOTO_PATHS = ("/api/recognize", "/api/teach", "/api/hall-set")
JSON = "application/json"


def raw(text: str | bytes, content_type: str = JSON, **headers) -> dict:
    data = text.encode() if isinstance(text, str) else text
    return {"data": data, "content_type": content_type, "headers": headers}


def body(obj, **headers) -> dict:
    return raw(json.dumps(obj), **headers)


# ----- bodies every JSON endpoint must refuse --------------------------------

GENERIC: list[tuple[str, dict, str | None]] = [
    ("deep_array", raw("[" * 60_000), "too_deep"),
    ("huge_array", raw("[" * 100_000), "body_too_large"),
    ("deep_object", raw('{"a":' * 3000 + "1" + "}" * 3000), "too_deep"),
    ("eleven_levels", raw('{"hand":' + "[" * 11 + "]" * 11 + "}"), "too_deep"),
    ("lone_surrogate", raw('{"hand": "\\ud800123m"}'), "bad_text"),
    ("lone_surrogate_key", raw('{"\\udfff": 1}'), "bad_text"),
    ("nan", raw('{"hand": NaN}'), "bad_json"),
    ("infinity", raw('{"fans": -Infinity}'), "bad_json"),
    ("float_overflow", raw('{"fans": 1e999}'), "number_out_of_range"),
    ("int_1e30", raw('{"fans": 1000000000000000000000000000000}'), "number_out_of_range"),
    ("int_5000_digits", raw('{"fans": ' + "9" * 5000 + "}"), "number_out_of_range"),
    ("int_20_digits", raw('{"fans": ' + "9" * 20 + "}"), "number_out_of_range"),
    ("bad_utf8", raw(b'{"hand": "\xff\xfe"}'), "bad_json"),
    ("array_body", raw("[]"), "not_object"),
    ("string_body", raw('"hand"'), "not_object"),
    ("truncated", raw('{"hand": "1'), "bad_json"),
    ("body_100kb", body({"hand": "1" * 1500, "pad": ["x" * 1000] * 100}), "body_too_large"),
    ("string_3000", body({"hand": "1" * 3000}), "too_long"),
    ("foreign_origin", body({"hand": SEED_HAND}, Origin="http://evil.example"), "bad_origin"),
    ("null_origin", body({"hand": SEED_HAND}, Origin="null"), "bad_origin"),
    ("foreign_referer", body({"hand": SEED_HAND}, Referer="http://evil.example/x"), "bad_origin"),
    ("foreign_host", body({"hand": SEED_HAND}, Host="evil.example"), "bad_host"),
    ("rebound_host", body({"hand": SEED_HAND}, Host="evil.example:8000"), "bad_host"),
]
EMPTY = ("empty_body", raw(""), "empty_body")  # undo takes an empty body: not hostile there
#: a regroup request carries a whole table's tiles (up to 400 kB): too large is larger there
LARGER = {
    "huge_array": raw("[" * 500_000),
    "body_100kb": body({"tiles": [], "pad": ["x" * 1000] * 500}),
}

# ----- endpoint by endpoint ----------------------------------------------------

SPECIFIC: list[tuple[str, str, str, dict, str | None]] = [
    ("score_hand_int", "POST", "/api/score", body({"hand": 5}), "bad_type"),
    ("score_hand_long", "POST", "/api/score", body({"hand": "1m" * 900}), "too_long"),
    (
        "score_flowers_huge",
        "POST",
        "/api/score",
        body({"hand": SEED_HAND, "flowers": 10**30}),
        None,
    ),
    ("score_flowers_9", "POST", "/api/score", body({"hand": SEED_HAND, "flowers": 9}), None),
    ("score_flag_str", "POST", "/api/score", body({"hand": SEED_HAND, "kong": "yes"}), "bad_type"),
    (
        "score_id_huge",
        "POST",
        "/api/score",
        body({"hand": SEED_HAND, "id": "x" * 1500}),
        "too_long",
    ),
    ("score_id_deep", "POST", "/api/score", body({"hand": SEED_HAND, "id": [[["x" * 300]]]}), None),
    ("score_lang", "POST", "/api/score", body({"hand": SEED_HAND, "lang": "fr"}), "bad_lang"),
    ("score_unknown", "POST", "/api/score", body({"hand": SEED_HAND, "selfdrawn": True}), None),
    ("score_wind", "POST", "/api/score", body({"hand": SEED_HAND, "seat_wind": "Q"}), "bad_wind"),
    ("score_not_winning", "POST", "/api/score", body({"hand": "13579m2468p13579s"}), None),
    ("check_superscript", "POST", "/api/check", body({"hand": SEED_HAND, "claim": "²"}), None),
    ("check_claim_objects", "POST", "/api/check", body({"hand": SEED_HAND, "claim": [{}]}), None),
    ("check_total_huge", "POST", "/api/check", body({"hand": SEED_HAND, "total": 10**30}), None),
    ("check_total_neg", "POST", "/api/check", body({"hand": SEED_HAND, "total": -1}), None),
    ("check_total_float", "POST", "/api/check", body({"hand": SEED_HAND, "total": 1.5}), None),
    ("check_total_str", "POST", "/api/check", body({"hand": SEED_HAND, "total": "48"}), None),
    ("check_request_list", "POST", "/api/check", body({"request": [], "total": 1}), None),
    (
        "check_count_999",
        "POST",
        "/api/check",
        body({"hand": SEED_HAND, "claim": "幺九刻*999"}),
        None,
    ),
    (
        "check_spaces",
        "POST",
        "/api/check",
        body({"hand": SEED_HAND, "claim": "a" + " " * 1990 + "b"}),
        None,
    ),
    ("check_no_claim", "POST", "/api/check", body({"hand": SEED_HAND}), "empty_claim"),
    ("new_name_1mb", "POST", "/game/api/games", body({"players": ["x" * 1_000_000, *P[1:]]}), None),
    ("new_name_65", "POST", "/game/api/games", body({"players": ["x" * 65, *P[1:]]}), None),
    ("new_title_long", "POST", "/game/api/games", body({"players": P, "name": "x" * 500}), None),
    ("new_session_huge", "POST", "/game/api/games", body({"players": P, "session": 10**30}), None),
    ("new_session_neg", "POST", "/game/api/games", body({"players": P, "session": -1}), None),
    ("new_session_str", "POST", "/game/api/games", body({"players": P, "session": "1"}), None),
    ("new_session_bool", "POST", "/game/api/games", body({"players": P, "session": True}), None),
    ("new_teams_list", "POST", "/game/api/games", body({"players": P, "teams": ["a"]}), None),
    # refused before the game is stored: the last test finds no game created by these
    (
        "new_team_65",
        "POST",
        "/game/api/games",
        body({"players": P, "teams": {"Ann": "t" * 65}}),
        "bad_teams",
    ),
    (
        "new_team_stranger",
        "POST",
        "/game/api/games",
        body({"players": P, "teams": {"Zed": "t"}}),
        "bad_teams",
    ),
    (
        "new_team_object",
        "POST",
        "/game/api/games",
        body({"players": P, "teams": {"Ann": {"x": 1}}}),
        "bad_teams",
    ),
    (
        "rec_seat_list",
        "POST",
        "/game/api/1/hands",
        body({"result": "win", "winner_seat": ["E"], "self_drawn": True, "fans": 8}),
        "bad_seat",
    ),
    (
        "edit_seat_object",
        "PUT",
        "/game/api/1/hands/1",
        body({"result": "win", "winner": "Bo", "discarder_seat": {}, "fans": 8}),
        "bad_seat",
    ),
    ("new_unknown", "POST", "/game/api/games", body({"players": P, "admin": True}), None),
    ("new_who_long", "POST", "/game/api/games", body({"players": P, "who": "x" * 500}), None),
    ("new_no_players", "POST", "/game/api/games", body({"name": "x"}), None),
    ("new_dup_players", "POST", "/game/api/games", body({"players": ["A", "A", "B", "C"]}), None),
    (
        "new_formula_ok_but_long",
        "POST",
        "/game/api/games",
        body({"players": P, "table": "=" * 200}),
        None,
    ),
    ("rec_fans_huge", "POST", "/game/api/1/hands", body({**WIN, "fans": 10**30}), None),
    ("rec_fans_1e15", "POST", "/game/api/1/hands", body({**WIN, "fans": 10**15}), "out_of_range"),
    ("rec_fans_1001", "POST", "/game/api/1/hands", body({**WIN, "fans": 1001}), "out_of_range"),
    ("rec_fans_neg", "POST", "/game/api/1/hands", body({**WIN, "fans": -8}), "below_minimum"),
    ("rec_fans_float", "POST", "/game/api/1/hands", body({**WIN, "fans": 8.5}), None),
    ("rec_fans_str", "POST", "/game/api/1/hands", body({**WIN, "fans": "8"}), None),
    (
        "rec_points_huge",
        "POST",
        "/game/api/1/hands",
        body({**WIN, "penalties": [{"player": "Cy", "kind": "deduction", "points": 10**30}]}),
        None,
    ),
    (
        "rec_points_5000",
        "POST",
        "/game/api/1/hands",
        body({**WIN, "penalties": [{"player": "Cy", "kind": "deduction", "points": 5000}]}),
        "out_of_range",
    ),
    (  # the rules' own words for a penalty of no points, as the replay gives them
        "rec_points_neg",
        "POST",
        "/game/api/1/hands",
        body({**WIN, "penalties": [{"player": "Cy", "kind": "deduction", "points": -5}]}),
        "bad_penalty",
    ),
    (
        "rec_penalty_field",
        "POST",
        "/game/api/1/hands",
        body({**WIN, "penalties": [{"player": "Cy", "kind": "wrong_win", "x": 1}]}),
        "unknown_field",
    ),
    (
        "rec_17_penalties",
        "POST",
        "/game/api/1/hands",
        body({**WIN, "penalties": [{"player": "Cy", "kind": "wrong_win"}] * 17}),
        "bad_penalty",
    ),
    ("rec_unknown", "POST", "/game/api/1/hands", body({**WIN, "delta": {"Ann": 99}}), None),
    (
        "rec_request_id_long",
        "POST",
        "/game/api/1/hands",
        body({**WIN, "request_id": "r" * 101}),
        None,
    ),
    ("rec_request_id_int", "POST", "/game/api/1/hands", body({**WIN, "request_id": 5}), None),
    ("rec_expected_str", "POST", "/game/api/1/hands", body({**WIN, "expected_number": "2"}), None),
    (
        "rec_expected_past",
        "POST",
        "/game/api/1/hands",
        body({**WIN, "expected_number": 1}),
        "conflict",
    ),
    (
        "rec_expected_huge",
        "POST",
        "/game/api/1/hands",
        body({**WIN, "expected_number": 10**30}),
        None,
    ),
    (
        "rec_seat",
        "POST",
        "/game/api/1/hands",
        body({"result": "win", "winner_seat": "Q", "fans": 8}),
        None,
    ),
    ("rec_note_long", "POST", "/game/api/1/hands", body({**WIN, "note": "x" * 600}), None),
    ("rec_result", "POST", "/game/api/1/hands", body({"result": "lose"}), None),
    ("rec_winner_unknown", "POST", "/game/api/1/hands", body({**WIN, "winner": "Eve"}), None),
    ("rec_who_int", "POST", "/game/api/1/hands", body({**WIN, "who": 5}), None),
    ("rec_game_huge", "POST", "/game/api/99999999999999999999/hands", body(WIN), "unknown_game"),
    ("rec_game_missing", "POST", "/game/api/424242/hands", body(WIN), "unknown_game"),
    ("edit_hand_huge", "PUT", "/game/api/1/hands/99999999999999999999", body(WIN), "unknown_hand"),
    ("edit_hand_0", "PUT", "/game/api/1/hands/0", body(WIN), "unknown_hand"),
    ("edit_unknown", "PUT", "/game/api/1/hands/1", body({**WIN, "request_id": "x"}), None),
    ("edit_fans", "PUT", "/game/api/1/hands/1", body({**WIN, "fans": 100_000}), None),
    ("undo_unknown", "POST", "/game/api/1/undo", body({"everything": True}), None),
    ("undo_who_long", "POST", "/game/api/1/undo", body({"who": "x" * 100}), None),
    ("undo_game_huge", "POST", "/game/api/99999999999999999999/undo", body({}), None),
    (
        "undo_form",
        "POST",
        "/game/api/1/undo",
        raw("who=x", "application/x-www-form-urlencoded"),
        None,
    ),
    ("undo_text", "POST", "/game/api/1/undo", raw("{}", "text/plain"), "bad_content_type"),
    ("undo_no_type", "POST", "/game/api/1/undo", {"data": b"{}"}, "bad_content_type"),
    (
        "pen_points",
        "POST",
        "/game/api/1/penalties",
        body({"player": "Ann", "kind": "deduction", "points": 10**12}),
        None,
    ),
    ("pen_kind", "POST", "/game/api/1/penalties", body({"player": "Ann", "kind": "jail"}), None),
    (
        "pen_player",
        "POST",
        "/game/api/1/penalties",
        body({"player": "Eve", "kind": "wrong_win"}),
        None,
    ),
    (
        "pen_unknown",
        "POST",
        "/game/api/1/penalties",
        body({"player": "Ann", "kind": "x", "y": 1}),
        None,
    ),
    (
        "new_form",
        "POST",
        "/game/api/games",
        raw("players=a", "application/x-www-form-urlencoded"),
        None,
    ),
    (
        "new_multipart",
        "POST",
        "/game/api/games",
        raw("--b--", "multipart/form-data; boundary=b"),
        None,
    ),
    ("new_text", "POST", "/game/api/games", raw(json.dumps({"players": P}), "text/plain"), None),
]

GETS: list[tuple[str, str, str | None]] = [
    ("sheet_huge", "/game/api/99999999999999999999", "unknown_game"),
    ("sheet_0", "/game/api/0", "unknown_game"),
    ("sheet_missing", "/game/api/424242", "unknown_game"),
    ("audit_huge", "/game/api/99999999999999999999/audit", "unknown_game"),
    ("csv_huge", "/game/api/99999999999999999999/sheet.csv", "unknown_game"),
    ("no_such_api", "/api/nothing", "not_found"),
    ("no_such_game_api", "/game/api/1/nothing", "not_found"),
    ("negative_id", "/game/api/-1", "not_found"),
]

METHODS: list[tuple[str, str]] = [
    ("GET", "/api/score"),
    ("PUT", "/api/score"),
    ("DELETE", "/api/score"),
    ("GET", "/api/options"),
    ("GET", "/api/check"),
    ("GET", "/api/recognize"),
    ("PUT", "/api/recognize"),
    ("GET", "/api/teach"),
    ("DELETE", "/api/teach"),
    ("PUT", "/api/hall-set"),
    ("PATCH", "/api/hall-set"),
    ("POST", "/api/fans"),
    ("DELETE", "/healthz"),
    ("PATCH", "/game/api/games"),
    ("DELETE", "/game/api/1"),
    ("DELETE", "/game/api/1/hands/1"),
    ("GET", "/game/api/1/undo"),
    ("GET", "/game/api/1/penalties"),
    ("POST", "/game/api/1/sheet.csv"),
    ("POST", "/game/api/rankings"),
]


# ----- photos ------------------------------------------------------------------


def _png_header(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (
        b"\x89PNG\r\n\x1a\n"
        + struct.pack(">I", len(ihdr))
        + chunk
        + struct.pack(">I", zlib.crc32(chunk))
        + struct.pack(">I", 0)
        + b"IEND"
        + struct.pack(">I", zlib.crc32(b"IEND"))
    )


def _encoded(ext: str, size: tuple[int, int] = (64, 48)) -> bytes:
    img = np.full((size[1], size[0], 3), (60, 110, 40), np.uint8)
    ok, buf = cv2.imencode(ext, img)
    assert ok
    return buf.tobytes()


GIF = (
    b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00"
    b",\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"
)
HEIC = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 200


def _photos() -> list[tuple[str, bytes, str | None]]:
    jpeg = _encoded(".jpg", (640, 480))
    png = photo_png()
    return [
        ("zero_byte", b"", "empty_photo"),
        ("truncated_jpeg", jpeg[: len(jpeg) // 2], "truncated_image"),
        ("jpeg_header_only", jpeg[:200], "truncated_image"),
        ("truncated_png", png[: len(png) // 2], "truncated_image"),
        ("png_header_only", png[:16], "truncated_image"),
        ("heic", HEIC, "unsupported_format"),
        ("gif", GIF, "not_an_image"),
        ("tiff", _encoded(".tiff"), "not_an_image"),
        ("bmp", _encoded(".bmp"), "not_an_image"),
        ("webp_tiny", _encoded(".webp", (4, 4)), "too_small"),
        ("png_1px", _encoded(".png", (1, 1)), "too_small"),
        ("png_bomb_header", _png_header(60_000, 60_000), "too_large"),
        ("png_wide_header", _png_header(1_000_000, 1), None),
        ("random_bytes", bytes(range(256)) * 40, "not_an_image"),
        ("text_file", b"hello, this is not a photo", "not_an_image"),
        ("svg", b'<svg xmlns="http://www.w3.org/2000/svg"/>', "not_an_image"),
        ("pdf", b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", "not_an_image"),
    ]


def _text_fields(count: int, size: int = 1) -> dict:
    """A multipart body of `count` text fields of `size` bytes each."""
    parts = b"".join(
        b'--b\r\nContent-Disposition: form-data; name="f%d"\r\n\r\n' % i + b"x" * size + b"\r\n"
        for i in range(count)
    )
    return raw(parts + b"--b--\r\n", "multipart/form-data; boundary=b")


def _upload(data: bytes, field: str = "photo", name: str = "p.jpg") -> dict:
    boundary = "----mcrhostile"
    payload = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; filename="{name}"\r\n'
            "Content-Type: application/octet-stream\r\n\r\n"
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return raw(payload, f"multipart/form-data; boundary={boundary}")


MULTIPART: list[tuple[str, dict, str | None]] = [
    ("no_boundary", raw(b"--x\r\n\r\n", "multipart/form-data"), None),
    ("wrong_boundary", raw(_upload(b"abc")["data"], "multipart/form-data; boundary=other"), None),
    (
        "unclosed",
        raw(
            b'--b\r\nContent-Disposition: form-data; name="photo"; filename="a"\r\n\r\nxx',
            "multipart/form-data; boundary=b",
        ),
        None,
    ),
    ("garbage", raw(bytes(range(256)) * 4, "multipart/form-data; boundary=b"), None),
    (
        "field_not_file",
        raw(
            b'--b\r\nContent-Disposition: form-data; name="photo"\r\n\r\nxx\r\n--b--\r\n',
            "multipart/form-data; boundary=b",
        ),
        "no_photo",
    ),
    ("wrong_field", _upload(b"abc", field="image"), "no_photo"),
    ("json_not_multipart", body({"photo": "abc"}), "no_photo"),
    ("urlencoded", raw("photo=abc", "application/x-www-form-urlencoded"), "no_photo"),
    # a small body: its message must not speak of a photo's size
    ("many_parts", _text_fields(1200), "too_many_parts"),
    (
        # more parts than an upload sends (photo, exemplars): many small parts held at
        # once by many uploads would leave memory the allocator keeps
        "nine_parts",
        _text_fields(MAX_FORM_PARTS + 1),
        "too_many_parts",
    ),
    # a text field past twice the longest named tiles
    ("field_over_the_exemplars", _text_fields(1, MAX_FORM_FIELD_BYTES + 1), "too_many_parts"),
    ("long_filename", _upload(b"abc", name="x" * 5000), "not_an_image"),
    (
        "foreign_origin",
        {**_upload(photo_png()), "headers": {"Origin": "http://evil.example"}},
        "bad_origin",
    ),
]


# ----- the checks --------------------------------------------------------------


@pytest.fixture(scope="module")
def hostile_app(tmp_path_factory):
    db = tmp_path_factory.mktemp("hostile") / "games.db"
    app = create_app({"TESTING": False, "MCR_RECOGNIZE": fake_recognize(), "MCR_DB": str(db)})
    client = app.test_client()
    assert client.post("/game/api/games", json={"players": P}).status_code == 201
    assert client.post("/game/api/1/hands", json=WIN).status_code == 201
    return app


@pytest.fixture()
def client(hostile_app):
    return hostile_app.test_client()


def refused(resp, code: str | None = None) -> dict:
    """A 4xx JSON error of the contract's shape, small (nothing hostile echoed back)."""
    text = resp.get_data(as_text=True)
    assert 400 <= resp.status_code < 500, (resp.status_code, text[:300])
    assert resp.is_json, text[:300]
    error = resp.get_json()["error"]
    assert error["code"] and error["message"]
    assert len(text) < 4000 and "Traceback" not in text
    if code is not None:
        assert error["code"] == code, error
    return error


def _cases():
    for method, path in JSON_ENDPOINTS:
        cases = GENERIC if path.endswith("/undo") else [*GENERIC, EMPTY]
        for name, kwargs, code in cases:
            if path == "/api/regroup":
                kwargs = LARGER.get(name, kwargs)
            yield pytest.param(method, path, kwargs, code, id=f"{name}-{method}{path}")
    for name, method, path, kwargs, code in SPECIFIC:
        yield pytest.param(method, path, kwargs, code, id=name)
    for name, kwargs, code in MULTIPART:
        for path in PHOTO_PATHS:
            yield pytest.param("POST", path, kwargs, code, id=f"multipart_{name}-{path}")
    for method, path in METHODS:
        yield pytest.param(method, path, {}, "method_not_allowed", id=f"method_{method}{path}")


@needs_scorer
@pytest.mark.parametrize(("method", "path", "kwargs", "code"), list(_cases()))
def test_hostile_request_is_refused(client, method, path, kwargs, code):
    kwargs = dict(kwargs)
    headers = dict(kwargs.pop("headers", {}))
    host = headers.pop("Host", None)
    base = f"http://{host}" if host else None
    started = time.perf_counter()
    resp = client.open(path, method=method, headers=headers, base_url=base, **kwargs)
    refused(resp, code)
    assert time.perf_counter() - started < 2.0, "a hostile request must not stall the server"


@pytest.mark.parametrize(("path", "code"), [pytest.param(p, c, id=n) for n, p, c in GETS])
def test_hostile_get_is_refused(client, path, code):
    refused(client.get(path), code)


@pytest.mark.parametrize(
    ("data", "code"), [pytest.param(d, c, id=f"photo_{n}") for n, d, c in _photos()]
)
@pytest.mark.parametrize("path", PHOTO_PATHS)
def test_every_phone_file_gets_a_clear_answer(client, path, data, code):
    refused(client.post(path, **_upload(data)), code)


@pytest.mark.parametrize(
    ("body", "code", "text"),
    [
        ('{"lang": "zh", "hand": "\\ud800"}', "bad_text", "请求中含有无效的字符"),
        ('{"lang": "zh", "hand": "' + "1" * 2001 + '"}', "too_long", "请求中的文字太长"),
        ('{"lang": "zh", "hand": "1m", "flowers": ' + "9" * 20 + "}", "number_out_of_range",
         "请求中的数字超出范围"),
        ('{"hand": "1m", "flowers": 1e999, "lang": "zh-Hant"}', "number_out_of_range",
         "請求中的數字超出範圍"),
    ],
)  # fmt: skip
def test_a_refused_value_is_explained_in_the_bodys_language(client, body, code, text):
    """A body that parses says which language its errors speak, even when one of its values
    is refused: the refusal is in that language, whatever the browser's."""
    resp = client.post(
        "/api/score", data=body, content_type="application/json", headers={"Accept-Language": "en"}
    )
    refused(resp, code)
    assert text in resp.get_json()["error"]["message"]


@pytest.mark.parametrize(
    ("path", "obj", "code", "text"),
    [
        ("/api/check", {"lang": "zh", "request": {"hand": "1m"}}, "empty_claim", "请给出申报的番种"),
        ("/api/check", {"request": {"hand": "1m", "lang": "zh-Hant"}}, "empty_claim",
         "請給出申報的番種"),
        ("/game/api/games", {"lang": "zh", "players": P, "bogus": 1}, "unknown_field",
         "请求里有不认识的项目"),
    ],
)  # fmt: skip
def test_a_refused_object_is_explained_in_the_bodys_language(client, path, obj, code, text):
    """Past the parse, an endpoint's own refusal speaks the body's `lang` too, and a check's
    score request may name the language inside it."""
    resp = client.post(path, **body(obj, **{"Accept-Language": "en"}))
    refused(resp, code)
    assert text in resp.get_json()["error"]["message"]


@pytest.mark.parametrize("path", PHOTO_PATHS)
def test_upload_over_25_mb_is_413(client, path):
    error = refused(client.post(path, **_upload(b"\xff\xd8\xff" + b"\0" * (26 * 2**20))))
    assert error["code"] == "too_large"  # the photo is too large, in the photo's words


def test_game_page_of_a_huge_id_is_404_not_500(client):
    resp = client.get("/game/99999999999999999999")
    assert resp.status_code == 404 and "Traceback" not in resp.get_data(as_text=True)


@needs_scorer
def test_server_alive_and_nothing_stored_after_the_attacks(hostile_app):
    """Runs after the cases above (file order): the one game still has its one hand."""
    client = hostile_app.test_client()
    assert client.get("/healthz").get_json() == {"status": "ok"}
    games = client.get("/game/api/games").get_json()
    assert [(g["id"], g["hands"]) for g in games] == [(1, 1)]
    sheet = client.get("/game/api/1").get_json()
    assert sheet["hands"][0]["fans"] == 8 and "penalties" not in sheet
    assert (
        client.post("/api/score", json={"hand": SEED_HAND, "self_drawn": True}).get_json()["total"]
        == 48
    )


@needs_scorer
def test_quadratic_claim_is_fast(client):
    """`a` + spaces + `b` once took seconds (a backtracking count-suffix pattern)."""
    started = time.perf_counter()
    for n in (990, 500, 200):
        claim = "a" + " " * n + "b"
        refused(client.post("/api/check", json={"hand": SEED_HAND, "claim": claim}), "unknown_fan")
    claim = ",".join(["x" + " " * 60 + "*" + " " * 60 + "1"] * 15)
    refused(client.post("/api/check", json={"hand": SEED_HAND, "claim": claim}))
    assert time.perf_counter() - started < 1.0


def test_count_suffix_is_linear():
    """The count-suffix split runs in linear time on any text (the issue's 24,000 spaces)."""
    from scorer.request import _split_count, parse_claim

    started = time.perf_counter()
    assert _split_count("a" + " " * 200_000 + "b") == ("a" + " " * 200_000 + "b", 1)
    assert _split_count("幺九刻" + " " * 100_000 + "x" + " " * 100_000 + "2") == ("幺九刻", 2)
    assert _split_count("1" * 200_000 + "a")[1] == 1
    with pytest.raises(ValueError):
        parse_claim("a" + " " * 24_000 + "b")
    assert time.perf_counter() - started < 0.5
