"""`mcr score`, `mcr score --batch`, `mcr check`, `mcr waits` end to end."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.commands import score_lines
from webui.cli import main

ROOT = Path(__file__).resolve().parents[2]
HAND = "[123p,1][345s,2][999s,3]66mEEE"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_score_table(capsys):
    rc, out, err = run(capsys, "score", HAND, "--flowers", "1")
    assert rc == 0, err
    assert "Hand 手牌: [123p,1][345s,2][999s,3]66mEEE" in out
    assert "Payments 支付" in out
    assert "幺九刻" in out and "Pung of Terminals or Honors" in out


def test_score_json_matches_request_path(capsys):
    rc, out, _ = run(
        capsys, "score", "123m456p789s123sEE", "--self-drawn", "--seat-wind", "S", "--json"
    )
    assert rc == 0
    resp = json.loads(out)
    assert resp["situation"]["self_drawn"] and resp["situation"]["seat_wind"] == "S"
    assert resp["total"] == sum(f["points"] * f["count"] for f in resp["fans"])
    assert set(resp["payments"]) == {"winner", "other"}


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["score", "12x"], "bad_character"),
        (["score", "123m456p789s124sEE"], "not_winning"),
        (["score", HAND, "--flowers", "many"], "bad_type"),
        (["score", HAND, "--flowers", "9"], "bad_flowers"),
        (["score", HAND, "--seat-wind", "Q"], "bad_wind"),
        (["score", HAND, "--kong", "--last-tile"], "contradictory_flags"),
        (["score"], "bad_arguments"),
        (["score", HAND, "--batch"], "bad_arguments"),
        (["check", HAND, "--claim", "无此番"], "unknown_fan"),
        (["waits", HAND], "wrong_tile_count"),
    ],
)
def test_errors_exit_1_with_message(capsys, argv, code):
    rc, out, err = run(capsys, *argv)
    assert rc == 1
    assert f"[{code}]" in err and "Traceback" not in err
    rc, out, _ = run(capsys, *argv, "--json")
    assert rc == 1
    assert json.loads(out)["error"]["code"] == code


def test_batch_one_response_per_line_in_order(capsys, monkeypatch):
    lines = [
        json.dumps({"hand": HAND, "id": 1}),
        "{not json",
        json.dumps({"hand": "12x", "id": 3}),
        "",
        json.dumps([1, 2]),
        json.dumps({"hand": "123m456p789s123sEE", "self_drawn": True, "id": 6}),
        json.dumps({"hand": "123m456p789s123sEE", "kong": True, "self_drawn": True}),
    ]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    rc, out, err = run(capsys, "score", "--batch")
    assert rc == 0, err
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == len(lines)
    assert answers[0]["id"] == 1 and "total" in answers[0]
    assert answers[1]["error"]["code"] == "bad_json"
    assert answers[2] == {"error": answers[2]["error"], "id": 3}
    assert answers[2]["error"]["code"] == "bad_character"
    assert answers[3]["error"]["code"] == "bad_json"
    assert answers[4]["error"]["code"] == "bad_request"
    assert answers[5]["id"] == 6 and answers[5]["total"] > 0
    assert answers[6]["error"]["code"] == "contradictory_flags"


def _strict_json(line: str):
    """The JSON value of an output line, refusing what JSON has not (NaN, Infinity)."""

    def refuse(name: str):
        raise ValueError(f"{name} is not JSON")

    return json.loads(line, parse_constant=refuse)


@pytest.mark.parametrize(
    "line",
    [
        '{"hand":"123m456p789s12sEE3s","id":NaN}',
        '{"hand":"123m456p789s12sEE3s","id":Infinity}',
        '{"hand":"123m456p789s12sEE3s","id":-Infinity}',
        '{"hand":"123m456p789s12sEE3s","id":1e999}',
        '{"hand":"123m456p789s12sEE3s","flowers":' + "9" * 5000 + "}",
        '{"hand":"123m456p789s12sEE3s","id":-' + "9" * 5000 + "}",
    ],
)
def test_batch_lines_with_numbers_json_has_not_are_bad_json(line):
    """NaN, Infinity and numbers past any range are no JSON a batch answers in: the line
    is refused as bad JSON and the answer is itself valid JSON."""
    answer = _strict_json(next(score_lines([line])))
    assert answer["error"]["code"] == "bad_json"
    assert answer["error"]["message"].startswith("the line is not valid JSON")


def test_batch_still_echoes_ordinary_numbers(capsys, monkeypatch):
    lines = [
        '{"hand":"123m456p789s12sEE3s","id":12345678901234567890}',
        '{"hand":"123m456p789s12sEE3s","id":2.5e3}',
    ]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    rc, out, err = run(capsys, "score", "--batch")
    assert rc == 0, err
    answers = [_strict_json(line) for line in out.splitlines()]
    assert [a["id"] for a in answers] == [12345678901234567890, 2500.0]
    assert all(a["total"] > 0 for a in answers)


def test_batch_reads_past_a_byte_order_mark(capsys, monkeypatch):
    """Standard input that starts with a UTF-8 byte order mark (Windows editors write one)
    is read as without it: the first line is scored like the rest."""
    lines = [
        '{"hand":"123m456p789s12sEE3s","id":1}',
        '{"hand":"123m456p789s12sEE3s","id":2}',
    ]
    data = b"\xef\xbb\xbf" + ("\n".join(lines) + "\n").encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    rc, out, err = run(capsys, "score", "--batch")
    assert rc == 0, err
    answers = [json.loads(line) for line in out.splitlines()]
    assert [a["id"] for a in answers] == [1, 2]
    assert answers[0] == {**answers[1], "id": 1}
    assert answers[0]["total"] > 0


def test_batch_refuses_a_byte_order_mark_inside_the_input(capsys, monkeypatch):
    """Only the mark that starts the input is dropped; one starting a later line is no JSON."""
    data = '{"hand":"123m456p789s12sEE3s"}\n\ufeff{"hand":"123m456p789s12sEE3s"}\n'
    monkeypatch.setattr(sys, "stdin", io.StringIO(data))
    rc, out, err = run(capsys, "score", "--batch")
    assert rc == 0, err
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["total"] > 0
    assert second["error"]["code"] == "bad_json"


def test_check_right_and_wrong(capsys):
    rc, out, _ = run(capsys, "score", HAND, "--json")
    right = json.loads(out)
    claim = ",".join(f"{f['name_zh']}*{f['count']}" for f in right["fans"])
    rc, out, err = run(capsys, "check", HAND, "--claim", claim)
    assert rc == 0, err
    assert "CORRECT" in out
    rc, out, _ = run(capsys, "check", HAND, "--claim", "清一色")
    assert rc == 0 and "WRONG" in out and "清一色" in out and f"{right['total']}" in out
    rc, out, _ = run(capsys, "check", HAND, "--total", str(right["total"] + 3), "--json")
    rep = json.loads(out)
    assert not rep["correct"] and rep["total"] == right["total"]


def test_a_negative_claimed_total_is_refused_as_the_page_refuses_it(capsys):
    rc, out, err = run(capsys, "check", HAND, "--total", "-5")
    assert rc != 0 and "WRONG" not in out and "≥ 0" in err


def test_waits_table_and_json(capsys):
    rc, out, err = run(capsys, "waits", "123m456p789s23sEE")
    assert rc == 0, err
    assert "1s" in out and "4s" in out
    rc, out, _ = run(capsys, "waits", "123m456p789s23sEE", "--json")
    rep = json.loads(out)
    assert [w["tile"] for w in rep["waits"]] == ["1s", "4s"]
    rc, out, _ = run(capsys, "waits", "1357m2468p1357sE")
    assert rc == 0 and "Not waiting" in out


def test_console_command_never_shows_a_traceback():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "webui.cli", "score", "[123m"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 1
    assert "unclosed_bracket" in proc.stderr and "Traceback" not in proc.stderr


@settings(max_examples=200, deadline=None)
@given(
    st.text(max_size=60)
    | st.builds(
        json.dumps,
        st.dictionaries(
            st.sampled_from(["hand", "flowers", "kong", "seat_wind", "id"]),
            st.one_of(
                st.text(alphabet="123456789mpsESWNCFP[],", max_size=20), st.integers(), st.none()
            ),
        ),
    )
)
def test_fuzz_batch_line_always_answers_json(line):
    answer = json.loads(next(score_lines([line])))
    assert "total" in answer or set(answer["error"]) == {"code", "message"}


def test_lang_selects_captions_and_names(capsys):
    rc, out, _ = run(capsys, "score", HAND, "--lang", "en")
    assert rc == 0 and "Payments:" in out and "支付" not in out and "Prevalent Wind" in out
    rc, out, _ = run(capsys, "score", HAND, "--lang", "zh")
    assert rc == 0 and "支付:" in out and "Payments" not in out and "圈风刻" in out
    rc, out, _ = run(capsys, "score", HAND, "--seat-wind", "s", "--json")
    assert json.loads(out)["situation"]["seat_wind"] == "S"


@pytest.mark.parametrize("command", ["score", "check", "waits"])
def test_traditional_captions(capsys, command):
    """--lang zh-Hant: every caption of the readable output in traditional characters."""
    argv = {
        "score": ["score", HAND, "--lang", "zh-Hant"],
        "check": ["check", HAND, "--claim", "清一色", "--lang", "zh-Hant"],
        "waits": ["waits", "123m456p789s23sEE", "--lang", "zh-Hant", "--flowers", "0"],
    }[command]
    rc, out, _ = run(capsys, *argv)
    assert rc == 0 and "手牌" in out
    for simplified in ("点炮者", "错误", "正确", "总番", "点和", "和张", "门风刻", "合计"):
        assert simplified not in out, simplified
