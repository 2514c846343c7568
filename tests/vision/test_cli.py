"""`mcr recognize` on the command line, with stand-in models."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.pipeline as pipeline
import vision.readers as readers
from vision.synthetic import GAP, probs_for, row
from vision.types import Detection, TileRead
from webui.cli import main

# a complete hand: [567m,1][222p,1] 345s 67p 99s + 8p, with a flower apart
TILES = row(["3s", "4s", "5s", "6p", "7p", "9s", "9s", GAP, "8p"], y=300, x0=20) + row(
    ["5m/", "6m", "7m", GAP, "2p/", "2p", "2p", GAP, "3f"], y=300, x0=420
)


def _detector(image: np.ndarray) -> list[Detection]:
    return [Detection(box, 0.9) for _, box in TILES]


def _classifier(image: np.ndarray, dets: list[Detection]) -> list[TileRead]:
    return [TileRead(d, probs_for(code)) for d, (code, _) in zip(dets, TILES, strict=True)]


def _orienter(image: np.ndarray, dets: list[Detection]) -> np.ndarray:
    return np.zeros((len(dets), 2))  # no idea which way the faces point


def _stacker(image: np.ndarray, dets: list[Detection]) -> np.ndarray:
    return np.zeros(len(dets))  # no tile lies on another


@pytest.fixture
def fake_models(monkeypatch):
    monkeypatch.setattr(readers, "_MODELS", (_detector, _classifier, _orienter, _stacker))


@pytest.fixture
def photos(tmp_path: Path) -> tuple[Path, Path]:
    good = tmp_path / "table.jpg"
    ok, buf = cv2.imencode(".jpg", np.full((400, 900, 3), 120, np.uint8))
    assert ok
    good.write_bytes(buf.tobytes())
    bad = tmp_path / "notes.jpg"
    bad.write_text("not a photo")
    return good, bad


def test_json_lines_and_bad_photo_goes_on(fake_models, photos, capsys) -> None:
    good, bad = photos
    status = main(["recognize", str(bad), str(good), "--json"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert status == 1
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert first["image"] == str(bad) and first["error"]["code"] == "not_an_image"
    assert second["image"] == str(good)
    assert second["hand"] == "[567m,1][222p,1]67p34599s8p"
    assert second["flowers"]["count"] == 1


@pytest.mark.parametrize(
    "carries, expected",
    [
        (0.0, ["hand: [567m,1][222p,1]67p34599s8p", "winning tile: 8p", "flowers: 1 (3f)"]),
        (  # a sideways tile read as carrying another: the pung is a promoted kong (加杠,
            # notation giver 5 = from the left); the chow's sideways tile stays one tile
            0.95,
            [
                "hand: [567m,1][2222p,5]67p34599s8p",
                "meld: [2222p,5]  (promoted kong, claimed from the left)",
                "meld: [567m,1]\n",
            ],
        ),
    ],
    ids=["plain", "promoted kong"],
)
def test_readable_summary(monkeypatch, photos, capsys, carries: float, expected: list[str]) -> None:
    def stacker(image: np.ndarray, dets: list[Detection]) -> np.ndarray:
        return np.array([carries if d.width > d.height else 0.0 for d in dets])

    monkeypatch.setattr(readers, "_MODELS", (_detector, _classifier, _orienter, stacker))
    good, _ = photos
    assert main(["recognize", str(good)]) == 0
    out = capsys.readouterr().out
    for line in expected:
        assert line in out


def test_bad_photo_message_on_stderr(fake_models, photos, capsys) -> None:
    _, bad = photos
    assert main(["recognize", str(bad)]) == 1
    captured = capsys.readouterr()
    assert "not a JPEG, PNG or WebP" in captured.err
    assert "Traceback" not in captured.err


def test_score_option(fake_models, photos, capsys) -> None:
    from scorer.request import score_request

    try:
        score_request({"hand": "[567m,1][222p,1]67p34599s8p"})
    except ImportError as exc:
        pytest.skip(f"the scorer is not complete yet: {exc}")
    good, _ = photos
    assert main(["recognize", str(good), "--json", "--score", "--seat-wind", "S"]) == 0
    result = json.loads(capsys.readouterr().out)
    score = result["score"]
    expected = score_request(
        {"hand": "[567m,1][222p,1]67p34599s8p", "flowers": 1, "seat_wind": "S"}
    )
    assert score == expected


def test_bad_wind_is_a_score_error_not_a_crash(fake_models, photos, capsys) -> None:
    good, _ = photos
    assert main(["recognize", str(good), "--score", "--seat-wind", "X"]) == 0
    out = capsys.readouterr().out
    assert "score:" in out and "Traceback" not in out


def test_missing_models_say_so(monkeypatch, photos, capsys) -> None:
    from vision.errors import ModelError

    def missing():
        raise ModelError("models_missing", detail="no model files")

    monkeypatch.setattr(pipeline, "models", missing)
    good, _ = photos
    assert main(["recognize", str(good)]) == 1
    assert "could not be loaded" in capsys.readouterr().err


def test_score_counts_the_last_tile_the_photo_shows() -> None:
    """和绝张 (seed 003, fan 58) is counted when the photo shows the other three copies of
    the winning tile, and not otherwise."""
    import argparse

    from vision.commands import _score

    args = argparse.Namespace(self_drawn=False, seat_wind="E", round_wind="E")
    result = {"hand": "12m456p789sEEENN3m", "flowers": {"count": 0}, "fourth_tile_seen": True}
    ids = {f["id"] for f in _score(result, args)["fans"]}
    assert 58 in ids
    result["fourth_tile_seen"] = False
    assert 58 not in {f["id"] for f in _score(result, args)["fans"]}


@pytest.mark.parametrize(
    ("lang", "note", "error"),
    [
        ("en", "warning: No tiles were found in the photo.", "not a JPEG, PNG or WebP"),
        ("zh", "warning: 照片里没有找到牌。", "不是 JPEG、PNG 或 WebP 照片"),
        ("zh-Hant", "warning: 照片裡沒有找到牌。", "不是 JPEG、PNG 或 WebP 照片"),
    ],
)
def test_notes_and_errors_in_the_language_asked(monkeypatch, photos, capsys, lang, note, error):
    nothing = (lambda image: [], lambda image, dets: [], _orienter, _stacker)
    monkeypatch.setattr(readers, "_MODELS", nothing)
    good, bad = photos
    assert main(["recognize", str(good), str(bad), "--lang", lang]) == 1
    captured = capsys.readouterr()
    assert note in captured.out and error in captured.err
    assert main(["recognize", str(good), "--json", "--lang", lang]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["warnings"] == [note.removeprefix("warning: ")]
    assert result["notes"] == [{"id": "no_tiles", "params": {}}]  # the same in every language


def test_an_unknown_language_is_refused(fake_models, photos, capsys) -> None:
    good, _ = photos
    with pytest.raises(SystemExit) as exited:
        main(["recognize", str(good), "--lang", "fr"])
    assert exited.value.code == 2
    assert "--lang" in capsys.readouterr().err


def test_the_summary_tells_what_the_table_showed_besides_the_hand() -> None:
    from vision.commands import summary

    result = {
        "image": "t.jpg", "tiles": [], "hand": None, "melds": [], "winning_tile": None,
        "flowers": {"count": 0, "tiles": []}, "warnings": [], "fourth_tile_seen": True,
        "ignored": [{"kind": "wall", "tiles": [{}] * 30}, {"kind": "discards", "tiles": [{}] * 12},
                    {"kind": "wall", "tiles": [{}] * 4}],
    }  # fmt: skip
    text = summary(result)
    assert "not the hand: 46 tiles (discards 12, wall 34)" in text
    assert "和绝张" in text


def test_the_summary_shows_a_misread_meld_as_its_tiles_not_as_a_face_down_kong() -> None:
    """A group laid out as a meld whose tiles read as no chow, pung or kong has no
    notation; the summary lists the tiles read so the user can correct them, and asks
    for a tile's name only where a concealed kong lies all face down (its tile unseen)."""
    from vision.commands import summary

    melds = [
        {"notation": None, "tiles": ["4p", "4p", "5p", "5p"], "concealed": False,
         "promoted": False, "giver": "right", "needs_name": False},
        {"notation": None, "tiles": ["back"] * 4, "concealed": True, "promoted": False,
         "giver": None, "needs_name": True},
        {"notation": None, "tiles": ["back", "5p", "6p", "back"], "concealed": True,
         "promoted": False, "giver": None, "needs_name": False},
    ]  # fmt: skip
    result = {
        "image": "t.jpg", "tiles": [], "hand": None, "melds": melds, "winning_tile": None,
        "flowers": {"count": 0, "tiles": []}, "warnings": [],
    }  # fmt: skip
    lines = summary(result).splitlines()
    assert (
        lines[2]
        == "  meld: 4p 4p 5p 5p (not read as a chow, pung or kong)  (claimed from the right)"
    )
    assert lines[3] == "  meld: concealed kong, face down: name its tile"
    assert lines[4] == "  meld: concealed kong back 5p 6p back (not read as a chow, pung or kong)"


def test_named_tiles_go_to_the_reader(monkeypatch, photos, tmp_path, capsys) -> None:
    """`--named FILE`: the tiles a table's players named (as the page keeps them) go with
    each photo to the reader."""
    from vision.exemplars import encode_look

    good, _ = photos
    named = [{"tile": "6m", "look": encode_look(np.linspace(0, 1, 240), "0123abcd")}]
    file = tmp_path / "named.json"
    file.write_text(json.dumps(named))
    seen = []

    def reader(path, exemplars=None):
        seen.append(exemplars)
        return {"image": str(path), "tiles": [], "hand": None, "ignored": [], "warnings": []}

    monkeypatch.setattr(pipeline, "recognize_path", reader)
    assert main(["recognize", str(good), str(good), "--json", "--named", str(file)]) == 0
    assert seen == [named, named]


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("[{", "'exemplars' must be a list"),
        ('[{"tile": "back", "look": "x"}]', "tile code (not a back)"),
        (None, "Cannot read"),
    ],
)
def test_a_bad_file_of_named_tiles_reads_no_photo(
    fake_models, photos, tmp_path, capsys, content, words
) -> None:
    good, _ = photos
    file = tmp_path / "named.json"
    if content is not None:
        file.write_text(content)
    assert main(["recognize", str(good), "--named", str(file)]) == 1
    out = capsys.readouterr()
    assert out.out == "" and words in out.err


#: a set laid out in four rows, as `mcr teach` expects: the reader takes its 6s for a 4s
SET = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + list("ESWNCFP")
SET_TILES = [tile for r in range(4) for tile in row(SET[9 * r : 9 * r + 9], y=60 + 80 * r, x0=20)]


def _set_classifier(image: np.ndarray, dets: list[Detection]) -> list[TileRead]:
    read = ["4s" if code == "6s" else code for code, _ in SET_TILES]
    return [
        TileRead(d, probs_for(code), chosen=code, look=f"0123abcd:AAAA{k}")
        for k, (d, code) in enumerate(zip(dets, read, strict=True))
    ]


@pytest.fixture
def set_models(monkeypatch):
    detector = lambda image: [Detection(box, 0.9) for _, box in SET_TILES]  # noqa: E731
    monkeypatch.setattr(readers, "_MODELS", (detector, _set_classifier, _orienter, _stacker))


def test_teach_writes_the_set_named_by_place_for_recognize(set_models, photos, tmp_path, capsys):
    """`mcr teach`: each tile named by its place (the 6s the reader took for a 4s too),
    written as the named tiles `mcr recognize --named` reads."""
    good, _ = photos
    out = tmp_path / "set.json"
    assert main(["teach", str(good), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "34 tiles taught, 33 read so before" in printed and "6s (read 4s)" in printed
    named = json.loads(out.read_text())
    assert [n["tile"] for n in named] == SET
    assert named[SET.index("6s")]["look"] == f"0123abcd:AAAA{SET.index('6s')}"


def test_teach_refuses_a_photo_that_is_no_set_in_the_language_asked(fake_models, photos, capsys):
    good, bad = photos
    assert main(["teach", str(good), "--lang", "zh"]) == 1
    assert f"找到 {len(TILES)} 张牌" in capsys.readouterr().err
    assert main(["teach", str(bad)]) == 1
    assert "mcr teach:" in capsys.readouterr().err


def test_teach_says_when_it_cannot_write_the_file(set_models, photos, tmp_path, capsys):
    good, _ = photos
    assert main(["teach", str(good), "--out", str(tmp_path / "no" / "such" / "set.json")]) == 1
    assert "mcr teach:" in capsys.readouterr().err
