"""The one error vocabulary: every error code speaks the three languages of CONTRACTS.md.

CONTRACTS.md "Score request": `code` is stable and never translated;
`message` is in the language the request asks for (`zh` simplified,
`zh-Hant` traditional, `en`), English by default.
"""

from __future__ import annotations

import ast
import json
import re
import string
from pathlib import Path

import pytest

from scorer.commands import answer_line
from scorer.errors import LANGS, McrError, ScoreError, pick_lang
from scorer.game.errors import GameError
from scorer.game.replay import replay
from scorer.request import score_request
from vision.errors import ModelError, PhotoError, VisionError
from webui.errors import RequestError

ROOT = Path(__file__).resolve().parents[2]
CLASSES = {
    "McrError": McrError,
    "ScoreError": ScoreError,
    "GameError": GameError,
    "VisionError": VisionError,
    "PhotoError": PhotoError,
    "ModelError": ModelError,
    "RequestError": RequestError,
}
#: helpers that raise the error of their module's layer with a message id
HELPERS = {"_fail": ScoreError}


def _fields(text: str) -> set[str]:
    return {
        name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(text) if name
    }


def _catalogues():
    for cls in (ScoreError, GameError, VisionError, RequestError):
        for message_id, texts in cls.catalogue().items():
            yield cls, message_id, texts


@pytest.mark.parametrize("cls,message_id,texts", list(_catalogues()), ids=lambda x: str(x)[:40])
def test_every_message_has_the_three_languages(cls, message_id, texts):
    assert set(texts) == set(LANGS), message_id
    assert all(texts[lang].strip() for lang in LANGS)
    # the translations need no parameter the English text does not have
    assert _fields(texts["zh"]) <= _fields(texts["en"]), message_id
    assert _fields(texts["zh-Hant"]) <= _fields(texts["en"]), message_id
    # no internal field names (snake_case words) in the Chinese texts
    for lang in ("zh", "zh-Hant"):
        assert not re.search(r"[a-z]+_[a-z]+", texts[lang]), (message_id, texts[lang])
    assert texts["zh"] != texts["en"] and texts["zh-Hant"] != texts["en"]


def _raise_sites():
    """(file, line, class, message id) of every product raise with a literal message id."""
    for package in ("scorer", "vision", "webui"):
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                cls = CLASSES.get(name) or HELPERS.get(name)
                if cls is None or not node.args:
                    continue
                first = node.args[0]
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                assert len(node.args) == 1, f"{where}: a message comes from the catalogue"
                if isinstance(first, ast.Constant):
                    yield where, cls, first.value
                elif isinstance(first, ast.JoinedStr):  # f"bad_meld_number.{kind}"
                    prefix = (
                        first.values[0].value if isinstance(first.values[0], ast.Constant) else ""
                    )
                    yield where, cls, prefix


def test_every_raised_error_is_in_its_catalogue():
    sites = list(_raise_sites())
    assert len(sites) > 100  # the walk finds the product's errors
    for where, cls, message_id in sites:
        ids = cls.catalogue()
        if message_id.endswith("."):
            assert any(i.startswith(message_id) for i in ids), where
        else:
            assert message_id in ids, f"{where}: {message_id} has no message in {cls.__name__}"


def test_code_is_the_stable_part_of_the_message_id():
    exc = ScoreError("contradictory_flags.no_kong")
    assert exc.code == "contradictory_flags"
    assert exc.to_json("zh")["error"]["code"] == "contradictory_flags"


def test_language_tags():
    assert pick_lang("zh") == "zh"
    assert pick_lang("zh-CN") == "zh"
    assert pick_lang("zh-Hans") == "zh"
    assert pick_lang("zh-Hant") == "zh-Hant"
    assert pick_lang("zh-TW") == "zh-Hant"
    assert pick_lang("zh_HK") == "zh-Hant"
    # the script decides before the region, as the page's i18n.js does
    assert pick_lang("zh-Hans-HK") == "zh" and pick_lang("zh-Hans-TW") == "zh"
    assert pick_lang("zh-Hant-CN") == "zh-Hant"
    assert pick_lang("en-GB") == "en"
    # Mandarin and Cantonese by their own subtags; Cantonese reads traditional unless told
    assert pick_lang("cmn-Hant-TW") == "zh-Hant" and pick_lang("cmn-Hans") == "zh"
    assert pick_lang("cmn") == "zh" and pick_lang("yue-HK") == "zh-Hant"
    assert pick_lang("yue") == "zh-Hant" and pick_lang("yue-Hans") == "zh"
    assert pick_lang("yue-CN") == "zh" and pick_lang("yue-Hant-CN") == "zh-Hant"
    assert pick_lang("both") == "en"
    assert pick_lang(None) == "en"


def test_field_names_read_as_a_player_says_them():
    exc = ScoreError("bad_type.flag", field="self_drawn", got="1")
    assert "'self_drawn'" in exc.message_in("en")
    assert "自摸" in exc.message_in("zh") and "self_drawn" not in exc.message_in("zh")
    exc = ScoreError("bad_wind", field="seat_wind", got="'X'")
    assert exc.message_in("zh").startswith("门风") and exc.message_in("zh-Hant").startswith("門風")


def _batch(request: dict) -> dict:
    return answer_line(json.dumps(request, ensure_ascii=False))


def test_batch_messages_follow_the_request_lang():
    bad = {"hand": "123m456p789s123sEW", "id": 7}  # not a winning hand
    en = _batch(bad)["error"]
    zh = _batch({**bad, "lang": "zh"})["error"]
    hant = _batch({**bad, "lang": "zh-Hant"})["error"]
    assert en["code"] == zh["code"] == hant["code"] == "not_winning"
    assert en["message"].startswith("these tiles do not make a winning hand")
    assert zh["message"].startswith("这些牌不成和牌")
    assert hant["message"].startswith("這些牌不成和牌")
    assert _batch({**bad, "lang": "both"})["error"]["message"] == en["message"]
    assert _batch({**bad, "lang": "zh"})["id"] == 7


def test_zh_hant_request_gets_traditional_fan_names():
    resp = score_request({"hand": "[123p,1][345s,2][999s,3]66mEEE", "lang": "zh-Hant"})
    names = {f["name_zh"]: f["name_zh_hant"] for f in resp["fans"]}
    assert all(names.values())
    assert "合計" in resp["explanation"]
    plain = score_request({"hand": "[123p,1][345s,2][999s,3]66mEEE"})
    assert "name_zh_hant" not in plain["fans"][0]  # the contract response is unchanged


def test_game_errors_name_their_place_in_every_language():
    game = {"players": ["A", "B", "C", "D"], "hands": [{"result": "draw"}, {"result": "nap"}]}
    with pytest.raises(GameError) as err:
        replay(game)
    assert err.value.code == "bad_result"
    assert err.value.message_in("en").startswith("hand 2: result must be")
    assert err.value.message_in("zh").startswith("第 2 盘：")
    assert err.value.message_in("zh-Hant").startswith("第 2 盤：")


def test_every_layer_derives_from_the_one_base():
    for cls in (ScoreError, GameError, PhotoError, ModelError, RequestError):
        assert issubclass(cls, McrError)
    assert not issubclass(PhotoError, ScoreError)  # a photo is not a score request


def test_an_id_too_long_to_echo_is_refused_and_not_echoed():
    """A batch line's `id` comes back with its answer (CONTRACTS.md); one longer than
    the limit is the error itself, and its answer line stays short."""
    answer = _batch({"hand": "123m456p789s123sEE", "id": "x" * 100_000})
    assert answer["error"]["code"] == "too_long" and "id" not in answer
    assert len(json.dumps(answer)) < 500


def test_unknown_fields_are_named_but_never_echoed_whole():
    """A typo is named; a hostile key (100,000 characters, or hundreds of keys) is cut."""
    many = {f"k{i:04}": 1 for i in range(500)}
    answer = _batch({"hand": "123m456p789s123sEE", "z" * 100_000: 1, **many})
    assert answer["error"]["code"] == "unknown_field"
    assert "'k0000'" in answer["error"]["message"]
    assert len(answer["error"]["message"]) < 600
    assert (
        "'selfdrawn'" in _batch({"hand": "123m456p789s123sEE", "selfdrawn": 1})["error"]["message"]
    )


def test_a_message_whose_tiles_are_a_list_is_still_worded():
    """`scorer.forms` names tile indices as a list: every language words it."""
    exc = ScoreError("bad_tile.indices", tiles=[40])
    for lang in LANGS:
        assert "40" in exc.message_in(lang)
