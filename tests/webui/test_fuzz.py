"""Whatever a client sends, the API answers JSON with a status below 500."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.webui.conftest import needs_scorer
from webui.app import create_app

CLIENT = create_app({"TESTING": False}).test_client()

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 100) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=8,
)
hands = st.text(alphabet="123456789mpsESWNCFP[],", max_size=24)
score_requests = st.fixed_dictionaries(
    {"hand": hands},
    optional={
        "self_drawn": json_values,
        "kong": st.booleans(),
        "last_tile": st.booleans(),
        "fourth_tile": st.booleans(),
        "flowers": st.integers(-2, 10),
        "seat_wind": st.sampled_from(["E", "S", "W", "N", "X", 1]),
    },
)


def _json_answer(resp) -> None:
    assert resp.status_code < 500, resp.get_data(as_text=True)
    assert resp.is_json
    body = resp.get_json()
    if resp.status_code >= 400:
        assert body["error"]["code"] and body["error"]["message"]


@needs_scorer
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=json_values | score_requests)
def test_score_never_fails_on_any_json(body):
    _json_answer(CLIENT.post("/api/score", json=body))


@needs_scorer
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(request=score_requests | json_values, claim=json_values, total=json_values)
def test_check_never_fails_on_any_json(request, claim, total):
    _json_answer(
        CLIENT.post("/api/check", json={"request": request, "claim": claim, "total": total})
    )


@needs_scorer
@settings(max_examples=40, deadline=None)
@given(data=st.binary(max_size=64))
def test_raw_bytes_never_fail(data):
    _json_answer(CLIENT.post("/api/score", data=data, content_type="application/json"))
    _json_answer(CLIENT.post("/api/options", data=data, content_type="application/json"))


# ----- the game sheet API -------------------------------------------------------

numbers = st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.booleans() | st.none()
hand_bodies = st.fixed_dictionaries(
    {"result": st.sampled_from(["win", "draw", "lose", 1])},
    optional={
        "winner": st.sampled_from(["Ann", "Bo", "Eve", 3]),
        "discarder": st.sampled_from(["Bo", "Cy", "", None]),
        "self_drawn": json_values,
        "fans": numbers,
        "flowers": numbers,
        "penalties": st.lists(
            st.fixed_dictionaries(
                {"player": st.sampled_from(["Ann", "Di", "X"])},
                optional={"kind": st.text(max_size=10), "points": numbers},
            ),
            max_size=3,
        ),
        "expected_number": numbers,
        "request_id": st.text(max_size=120) | numbers,
        "who": st.text(max_size=80) | numbers,
        "winner_seat": st.sampled_from(["E", "S", "Q", 0]),
    },
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=hand_bodies | json_values, method=st.sampled_from(["POST", "PUT"]))
def test_game_api_never_fails_on_any_json(tmp_path_factory, body, method):
    client = _game_client(tmp_path_factory)
    path = "/game/api/1/hands" if method == "POST" else "/game/api/1/hands/1"
    resp = client.open(path, method=method, json=body)
    _json_answer(resp)
    undo = client.post("/game/api/1/undo", json={})  # keep the game short, whatever happened
    assert undo.status_code < 500


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    body=st.fixed_dictionaries(
        {"players": st.lists(st.text(max_size=70) | numbers, min_size=3, max_size=5)},
        optional={
            "session": numbers,
            "name": st.text(max_size=120) | numbers,
            "teams": json_values,
        },
    )
    | json_values
)
def test_new_game_never_fails_on_any_json(tmp_path_factory, body):
    _json_answer(_game_client(tmp_path_factory).post("/game/api/games", json=body))


_CLIENTS: dict = {}


def _game_client(tmp_path_factory):
    """One app and database for all examples, with game 1 and its first hand."""
    if "client" not in _CLIENTS:
        db = tmp_path_factory.mktemp("fuzz") / "games.db"
        client = create_app({"TESTING": False, "MCR_DB": str(db)}).test_client()
        assert (
            client.post("/game/api/games", json={"players": ["Ann", "Bo", "Cy", "Di"]}).status_code
            == 201
        )
        win = {"result": "win", "winner": "Ann", "discarder": "Bo", "fans": 8}
        assert client.post("/game/api/1/hands", json=win).status_code == 201
        _CLIENTS["client"] = client
    return _CLIENTS["client"]
