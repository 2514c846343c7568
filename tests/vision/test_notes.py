"""The photo reader's notes speak the three languages of CONTRACTS.md, as errors do.

CONTRACTS.md "Recognition output": `warnings` are texts in the language
asked (English by default), `notes` the same notes as message ids and
parameters, so a page words them in its own language.
"""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from scorer.errors import LANGS
from vision.layout import NOTHING_SET_APART
from vision.notes import MESSAGES, Note, all_texts, in_lang, note, text_of
from vision.pipeline import recognize

ROOT = Path(__file__).resolve().parents[2]
#: words the Chinese texts may show as they are
NOT_ENGLISH = {"JPEG", "PNG"}
#: characters written otherwise in traditional Chinese (張 組 這 沒 認 槓 聽 識 離 較 遠 進 邊 單 從 為)
SIMPLIFIED = set("张组这没认杠听识离较远进边单从为")


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("message_id", sorted(MESSAGES))
def test_every_note_has_the_three_languages(message_id):
    texts = MESSAGES[message_id]
    assert set(texts) == set(LANGS), message_id
    assert all(texts[lang].strip() for lang in LANGS)
    # each translation shows the numbers the English one shows
    assert _fields(texts["zh"]) == _fields(texts["en"]), message_id
    assert _fields(texts["zh-Hant"]) == _fields(texts["en"]), message_id
    for lang in ("zh", "zh-Hant"):
        shown = re.sub(r"\{\w+\}", "", texts[lang])
        words = set(re.findall(r"[A-Za-z]{2,}", shown)) - NOT_ENGLISH
        assert not words, (message_id, lang, words)
    # the traditional text is not the simplified one: none of these simplified characters
    assert not set(texts["zh-Hant"]) & SIMPLIFIED, (message_id, set(texts["zh-Hant"]) & SIMPLIFIED)


def _note_sites():
    """(where, message id) of every note the reader makes, and every warning it appends."""
    for path in sorted((ROOT / "vision").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            func = node.func
            if isinstance(func, ast.Name) and func.id == "note":
                first = node.args[0]
                assert isinstance(first, ast.Constant), f"{where}: a note's id is a literal"
                yield where, first.value
            elif isinstance(func, ast.Attribute) and func.attr in ("append", "warn"):
                owner = ast.unparse(func.value)
                if "warnings" in owner or func.attr == "warn":
                    for arg in node.args:  # a text built in place would be English only
                        assert not isinstance(arg, ast.Constant | ast.JoinedStr), where


def test_every_note_made_is_in_the_catalogue():
    sites = list(_note_sites())
    assert len(sites) >= 25  # the walk finds the reader's notes
    for where, message_id in sites:
        assert message_id in MESSAGES, f"{where}: {message_id} has no texts"
    assert {m for _, m in sites} == set(MESSAGES)  # and no text is left unused


def test_a_note_in_each_language():
    left = note("left_out", n=3)
    assert str(left) == "Left out 3 upright tile(s) lying away from the hand row."
    assert left.text("zh") == "离手牌较远的 3 张立牌没有算进来。"
    assert left.text("zh-TW") == "離手牌較遠的 3 張立牌沒有算進來。"
    assert left.to_json() == {"id": "left_out", "params": {"n": 3}}
    assert note("left_out", n=3) == left != note("left_out", n=2)
    with pytest.raises(KeyError):
        note("no_such_note")


def test_a_note_is_plain_data_equal_to_its_like():
    assert Note("nothing_set_apart") == NOTHING_SET_APART
    assert hash(NOTHING_SET_APART) == hash(note("nothing_set_apart"))


def test_a_note_from_elsewhere_still_says_what_it_is():
    assert text_of("waiting_hand", {"have": 13, "melds": 0}, "zh") == (
        "除 0 组副露外找到 13 张牌：这是听牌，还没有和。"
    )
    assert text_of("unknown_note", {"n": 1}) == "unknown_note: {'n': 1}"
    assert text_of("left_out", {}) == "left_out"  # parameters missing: the id, no crash
    assert all_texts({"id": "no_tiles", "params": {}})["zh-Hant"] == "照片裡沒有找到牌。"


def test_a_result_is_worded_again_from_its_notes():
    out = recognize(_blank_png(), "empty.png", lambda image: [], lambda image, dets: [])
    assert out["notes"] == [{"id": "no_tiles", "params": {}}]
    assert out["warnings"] == ["No tiles were found in the photo."]
    zh = in_lang(out, "zh")
    assert zh["warnings"] == ["照片里没有找到牌。"] and out["warnings"][0].startswith("No")
    assert in_lang(zh, "en") == out
    assert {k: v for k, v in zh.items() if k != "warnings"} == {
        k: v for k, v in out.items() if k != "warnings"
    }


def _blank_png() -> bytes:
    import cv2
    import numpy as np

    ok, buf = cv2.imencode(".png", np.full((64, 64, 3), 90, np.uint8))
    assert ok
    return buf.tobytes()


def test_a_result_without_notes_is_left_as_it_is():
    old = {"hand": None, "warnings": ["Something said in English."]}
    assert in_lang(old, "zh") is old
    odd = {"hand": None, "warnings": ["x"], "notes": ["not an entry"]}
    assert in_lang(odd, "zh") is odd
