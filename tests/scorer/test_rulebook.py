"""The rulebook names its rules: each fan once, named, its points and exclusions as data.

The engine refers to fans by their `FanId` and to tiles through the
predicates of `scorer.tiles`; the fan table's `partly_excludes` is what
keeps 幺九刻 off the pungs of 箭刻, 风刻 and the like (seed 001: "59、箭刻
... 這副刻子不計幺九刻"; "4、九蓮寶燈 ... 不計 ... 幺九刻×1").
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

import pytest

from scorer.engine import score
from scorer.fans import FANS, FanId
from scorer.randhands import random_hands
from scorer.request import score_request

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ("counting.py", "combos.py", "engine.py", "reading.py", "forms.py", "waits.py")
#: tile-range boundaries: characters end at 26, winds at 30, dragons at 33
TILE_BOUNDS = {26, 27, 30, 31, 33, 34}
TERMINAL_PUNG = FanId.PUNG_OF_TERMINALS_OR_HONORS


def test_every_fan_has_its_constant():
    assert len(FanId) == len(FANS) == 81
    for fan in FANS.values():
        assert FanId[fan.key] == fan.id
        assert fan.key == re.sub(r"[^A-Z0-9]+", "_", fan.name_en.upper()).strip("_")


def test_points_and_exclusions_are_data():
    assert {f.points for f in FANS.values()} == {88, 64, 48, 32, 24, 16, 12, 8, 6, 4, 2, 1}
    for fan in FANS.values():
        assert set(fan.implied) <= set(fan.excludes)
        assert fan.id not in fan.excludes
        assert all(FANS[x].points <= fan.points for x in fan.excludes), fan.name_zh
    assert FANS[FanId.PURE_TRIPLE_CHOW].points == 24
    assert FANS[FanId.PURE_TRIPLE_CHOW].excludes == (
        FanId.PURE_SHIFTED_PUNGS,
        FanId.PURE_DOUBLE_CHOW,
    )


def _tree(name: str) -> ast.AST:
    return ast.parse((ROOT / "scorer" / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", ENGINE)
def test_no_bare_fan_numbers_in_the_engine(name):
    """A fan is added, dropped or returned by its name, never by its number."""
    bare = []
    for node in ast.walk(_tree(name)):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") in ("add", "drop"):
            args = node.args[:1]
        elif isinstance(node, ast.Return) and name == "combos.py":
            args = [node.value] if node.value is not None else []
        else:
            continue
        bare += [node.lineno for a in args if isinstance(a, ast.Constant) and type(a.value) is int]
    assert not bare, f"scorer/{name}: fan numbers at lines {bare}"


@pytest.mark.parametrize("name", ENGINE)
def test_tiles_are_tested_with_the_predicates(name):
    """No raw tile ranges such as `27 <= b.tile <= 30`: is_wind, is_dragon, is_suited ..."""
    raw = []
    for node in ast.walk(_tree(name)):
        if isinstance(node, ast.Compare):
            values = [node.left, *node.comparators]
            if any(isinstance(v, ast.Constant) and v.value in TILE_BOUNDS for v in values):
                raw.append(node.lineno)
        by_nine = isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv | ast.Mod)
        if by_nine and isinstance(node.right, ast.Constant) and node.right.value == 9:
            raw.append(node.lineno)
    assert not raw, f"scorer/{name}: raw tile arithmetic at lines {raw}"


def test_partly_excludes_decides_which_pungs_count_terminal_pung():
    """Every 幺九刻 left out "as part of" a fan is left out by a fan whose data says so."""
    owners = {f.id for f in FANS.values() if TERMINAL_PUNG in f.partly_excludes}
    assert owners == {
        FanId.BIG_FOUR_WINDS,
        FanId.BIG_THREE_DRAGONS,
        FanId.NINE_GATES,
        FanId.LITTLE_FOUR_WINDS,
        FanId.LITTLE_THREE_DRAGONS,
        FanId.BIG_THREE_WINDS,
        FanId.TWO_DRAGON_PUNGS,
        FanId.DRAGON_PUNG,
        FanId.PREVALENT_WIND,
        FanId.SEAT_WIND,
    }
    by = Counter()
    for hand, sit in random_hands(1500, 11):
        for e in score(hand, sit).excluded:
            if e.fan.id == TERMINAL_PUNG and "part of" in e.reason:
                by[e.by] += 1
    assert set(by) <= owners
    assert len(set(by)) >= 8  # the generator reaches nearly every owner


def test_dragon_pung_takes_terminal_pung_off_its_own_pung_only():
    """Seed 001 fan 59: 箭刻's pung counts no 幺九刻; a pung of 9s beside it still does."""
    resp = score_request({"hand": "[CCC,1][999s,2]123m456p77p", "self_drawn": True})
    counted = {f["id"]: f["count"] for f in resp["fans"]}
    assert counted[FanId.DRAGON_PUNG] == 1 and counted[TERMINAL_PUNG] == 1
    reasons = [e["reason"] for e in resp["excluded"] if e["id"] == TERMINAL_PUNG]
    assert reasons == ["CCC: part of 箭刻 (59)"]


def test_nine_gates_takes_one_terminal_pung():
    """Seed 001 fan 4: 九莲宝灯 不计幺九刻×1: with 111 and 999 read as pungs, one still counts."""
    resp = score_request({"hand": "1112345678999m2m", "self_drawn": True})
    counted = {f["id"]: f["count"] for f in resp["fans"]}
    assert counted[FanId.NINE_GATES] == 1 and counted[TERMINAL_PUNG] == 1
