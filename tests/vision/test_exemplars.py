"""A table's own tile set: the tiles its players named steer the reading of later photos."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scorer.tiles import CODES, INDEX
from tests.vision.photo_fixtures import tilted_row
from vision.classify import Classifier
from vision.config import ExemplarConfig
from vision.errors import TileListError
from vision.exemplars import (
    NONE,
    Exemplars,
    adapted,
    decode_look,
    encode_look,
    is_look,
    parse_exemplars,
    unit,
)
from vision.types import Detection

TAG = "0123abcd"
DIM = 240
RNG = np.random.default_rng(5)


def _look(seed: int) -> np.ndarray:
    """A look as a model gives one: non-negative (after a ReLU), of unit length."""
    return unit(np.random.default_rng(seed).random(DIM).astype(np.float32) ** 4)


def _probs(code: str, p: float = 0.8) -> np.ndarray:
    out = np.full(len(CODES), (1 - p) / (len(CODES) - 1), np.float32)
    out[INDEX[code]] = p
    return out


def _mixed(a: np.ndarray, b: np.ndarray, cos: float) -> np.ndarray:
    """A unit vector whose cosine with unit `a` is `cos`, in the plane of `a` and `b`."""
    side = unit(b - (b @ a) * a)
    return (cos * a + np.sqrt(1 - cos**2) * side).astype(np.float32)


def test_a_look_survives_its_text_to_within_rounding() -> None:
    """The page keeps looks as text; one byte a number keeps a look's likeness to itself."""
    look = _look(1)
    text = encode_look(look, TAG)
    assert is_look(text) and len(text) < 400
    back = decode_look(text, TAG, DIM)
    assert back is not None and float(back @ look) > 0.999


def test_a_look_of_another_model_is_left_out_not_compared() -> None:
    """After the classifier is updated, the looks kept on a tablet mean nothing to it."""
    text = encode_look(_look(1), "ffffffff")
    assert decode_look(text, TAG, DIM) is None
    assert len(parse_exemplars([{"tile": "5m", "look": text}], TAG, DIM)) == 0


@pytest.mark.parametrize(
    "text",
    [
        "",
        "0123abcd",
        "0123abcd:",
        "0123ABCD:AAAA",  # the tag is lower-case hex
        "0123abcd:@@@@",
        "0123abcd:" + "A" * 2100,  # longer than any look
        "0123abcd:AAAA\n",
    ],
)
def test_text_that_is_not_a_look_is_refused(text: str) -> None:
    with pytest.raises(TileListError) as err:
        decode_look(text, TAG, DIM)
    assert err.value.code == "bad_exemplars"


def test_a_look_of_the_wrong_length_for_the_model_is_refused() -> None:
    text = encode_look(_look(1)[:100], TAG)
    with pytest.raises(TileListError):
        decode_look(text, TAG, DIM)


@pytest.mark.parametrize(
    "items",
    [
        {"tile": "5m"},
        "5m",
        [["5m"]],
        [{"tile": "back", "look": encode_look(_look(1), TAG)}],  # a back names no face
        [{"tile": "5x", "look": encode_look(_look(1), TAG)}],
        [{"tile": "5m", "look": encode_look(_look(1), TAG), "extra": 1}],
        [{"tile": "5m", "look": 7}],
        [{"tile": "5m", "look": encode_look(_look(1), TAG)}] * (ExemplarConfig().most + 1),
    ],
)
def test_malformed_exemplars_are_refused(items) -> None:
    with pytest.raises(TileListError) as err:
        parse_exemplars(items, TAG, DIM)
    assert err.value.code == "bad_exemplars"


def test_exemplars_parse_into_looks_and_classes() -> None:
    items = [
        {"tile": "6m", "look": encode_look(_look(1), TAG)},
        {"tile": "1f", "look": encode_look(_look(2), TAG)},
    ]
    got = parse_exemplars(items, TAG, DIM)
    assert got.codes.tolist() == [INDEX["6m"], INDEX["1f"]]
    assert got.looks.shape == (2, DIM)


def _memory(*pairs: tuple[str, np.ndarray]) -> Exemplars:
    return Exemplars(np.stack([look for _, look in pairs]), np.array([INDEX[c] for c, _ in pairs]))


def test_a_tile_like_the_named_six_is_read_six_not_nine() -> None:
    """The classifier reads this set's 六 as 九; the player named a 6m and a 9m. A tile
    that looks more like the 6m than like the 9m is read 6m."""
    six, nine = _look(1), _look(2)
    memory = _memory(("6m", six), ("9m", nine))
    tile = _mixed(six, nine, 0.9)
    assert float(tile @ nine) < 0.9 - ExemplarConfig().margin
    probs = np.stack([_probs("9m")])
    got = adapted(probs, tile[None], memory)
    assert CODES[int(got[0].argmax())] == "6m"
    assert CODES[int(probs[0].argmax())] == "9m"  # its input as it was


def test_a_tile_the_memory_has_not_seen_is_not_pulled_to_the_nearest_it_has() -> None:
    """Only 6m was named; the classifier reads 7m, of which no exemplar is kept: a
    passing likeness to the 6m (below `same`) does not make it one; a near copy does."""
    cfg = ExemplarConfig()
    six, other = _look(1), _look(3)
    memory = _memory(("6m", six))
    passing = _mixed(six, other, (cfg.near + cfg.same) / 2)
    copy = _mixed(six, other, (cfg.same + 1) / 2)
    got = adapted(np.stack([_probs("7m"), _probs("7m")]), np.stack([passing, copy]), memory)
    assert [CODES[int(p.argmax())] for p in got] == ["7m", "6m"]


def test_a_tile_read_as_a_back_stays_a_back() -> None:
    """A concealed kong's backs look like nothing the players named; even a back very like
    a named tile is left to the classifier, which tells backs from faces."""
    six = _look(1)
    got = adapted(np.stack([_probs("back")]), six[None], _memory(("6m", six)))
    assert CODES[int(got[0].argmax())] == "back"


def test_without_exemplars_the_reading_is_unchanged() -> None:
    probs = np.stack([_probs("9m")])
    assert adapted(probs, _look(1)[None], NONE) is probs


def test_an_upside_down_view_of_a_named_tile_counts() -> None:
    """A tile lies either way up: the likest of its views (as cut, turned) is compared."""
    six = _look(1)
    views = np.stack([[_look(7), six]])  # (1 tile, 2 views, DIM)
    got = adapted(np.stack([_probs("9m")]), views, _memory(("6m", six), ("9m", _look(2))))
    assert CODES[int(got[0].argmax())] == "6m"


@pytest.fixture(scope="module")
def classifier() -> Classifier:
    return Classifier()


def test_the_bundled_classifier_gives_each_tile_a_look(classifier: Classifier) -> None:
    image, boxes = tilted_row(0.0, n=3)
    reads = classifier(image, [Detection(tuple(b), 0.9) for b in boxes])
    assert classifier.tag is not None and classifier.look_size == DIM
    assert all(is_look(r.look) for r in reads)


def _faced_row(code: str) -> tuple[np.ndarray, list]:
    """Three upright tiles in a row, each showing the built-in face of `code`, and their
    boxes: tiles a classifier reads as faces, not backs (which no exemplar moves)."""
    from datasets.scene.faces import style_faces

    image, boxes = tilted_row(0.0, n=3)
    face = style_faces("builtin")[code]
    for b in boxes:
        x1, y1, x2, y2 = (int(round(v)) for v in b)
        image[y1:y2, x1:x2] = cv2.resize(face, (x2 - x1, y2 - y1), interpolation=cv2.INTER_AREA)
    return image, boxes


def test_a_named_tile_and_its_copies_are_read_as_named(classifier: Classifier) -> None:
    """A player names the first of three identical tiles: all three read so; a classifier
    holding exemplars of another model's looks reads as without any."""
    image, boxes = _faced_row("5p")
    detections = [Detection(tuple(b), 0.9) for b in boxes]
    first = classifier(image, detections)
    assert "back" not in [r.chosen for r in classifier.glance(image, detections)]
    named = "C" if first[0].chosen != "C" else "F"
    memory = parse_exemplars(
        [{"tile": named, "look": first[0].look}], classifier.tag, classifier.look_size
    )
    leaning = classifier.with_exemplars(memory)
    assert [r.chosen for r in leaning(image, detections)] == [named] * 3
    # a whole table's tiles are first glanced at (the box alone): they lean too
    assert [r.chosen for r in leaning.glance(image, detections)] == [named] * 3
    assert classifier.exemplars is NONE  # the shared classifier keeps none
    stale = parse_exemplars(
        [{"tile": named, "look": "ffffffff" + first[0].look[8:]}],
        classifier.tag,
        classifier.look_size,
    )
    plain = classifier.with_exemplars(stale)(image, detections)
    assert [r.chosen for r in plain] == [r.chosen for r in first]
