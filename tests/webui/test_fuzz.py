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
