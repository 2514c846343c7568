"""Payments after a win (seed 000 第十条 计分方法) and the readable table."""

from __future__ import annotations

import pytest

from scorer.explain import format_table
from scorer.payments import payments
from tests.scorer.fanhelp import result


def test_self_drawn_each_of_three_pays_base_plus_total():
    """000: 自摸：(底分+基本分)×3方."""
    assert payments(24, True) == {"winner": 96, "other": -32}


def test_discard_discarder_pays_total_everyone_pays_base():
    """000: 点和：底分×3方＋基本分×1方(点和方)."""
    p = payments(24, False)
    assert p == {"winner": 48, "discarder": -32, "other": -8}
    assert p["winner"] + p["discarder"] + 2 * p["other"] == 0


def test_payments_reject_bad_totals():
    with pytest.raises(ValueError):
        payments(-1, True)
    with pytest.raises(ValueError):
        payments(True, True)


@pytest.mark.parametrize("lang", ["zh", "en", "both"])
def test_table_lists_fans_total_and_exclusions(lang):
    r = result("555666777p5556s7s", self_drawn=True, flowers=1)
    text = format_table(r, lang)
    assert text.splitlines()[0].split()[0] == "23"  # fans in id order, 一色三同顺 first
    assert str(r.total) in text.splitlines()[len(r.fans)]
    name = {"zh": "一色三同顺", "en": "Pure Triple Chow", "both": "一色三同顺 Pure Triple Chow"}
    assert name[lang] in text
    assert ("不求人" if lang != "en" else "Fully Concealed Hand") in text


def test_table_says_when_below_minimum():
    r = result("[234m,1][456p,1][777m,1]67sSS8s", self_drawn=True)
    assert "8" in format_table(r, "en") and "minimum" in format_table(r, "en")


def test_table_rejects_unknown_language():
    with pytest.raises(ValueError):
        format_table(result("123m456p789s123m5s5s"), "fr")
