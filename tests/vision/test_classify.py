"""Classifier: crop geometry, output contract and accuracy on real labelled tiles."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from datasets.cmdv4 import default_root, load_split
from scorer.tiles import CODES
from tests.vision.photo_fixtures import tilted_row
from vision.classify import (
    DEFAULT_MODEL,
    INPUT,
    PARTNER_MODEL,
    READING_MODELS,
    SECOND_MODEL,
    Classifier,
    cut,
    read_crops,
    trained_model,
    turned_cut,
)  # fmt: skip
from vision.config import DEFAULT, TILE_ASPECT
from vision.rows import tile_rects
from vision.types import Detection, TileRead

#: every classifier the bundled reader runs: those it averages and its second opinion
BUNDLED = (*READING_MODELS, SECOND_MODEL)
#: a reader whose classifiers are averaged on every view, however sure the first
AVERAGED = replace(DEFAULT, classify=replace(DEFAULT.classify, partner_below=1.01))


@pytest.fixture(scope="module")
def classifier() -> Classifier:
    return Classifier()


def test_bundled_models_exist_and_are_small() -> None:
    """The reader's three classifiers ship as int8 files beside their float32 masters."""
    for model in BUNDLED:
        for path in (model, trained_model(model)):
            assert path.is_file()
            assert path.stat().st_size <= 20 * 1024 * 1024


def test_several_classifiers_given_are_averaged() -> None:
    """Given several classifiers, the reader averages their probabilities (on every view
    with `partner_below` over 1); the bundled first and second classifiers read apart
    (they were trained on different mixes, so the second's opinion on an unsure tile
    adds)."""
    crops = np.random.default_rng(3).integers(0, 255, (5, INPUT, INPUT, 3), dtype=np.uint8)
    first, second = Classifier(DEFAULT_MODEL), Classifier(SECOND_MODEL)
    both = Classifier([DEFAULT_MODEL, SECOND_MODEL], config=AVERAGED)
    want = (first.probs(crops) + second.probs(crops)) / 2
    np.testing.assert_allclose(both.probs(crops), want, atol=1e-5)
    assert np.abs(first.probs(crops) - second.probs(crops)).max() > 1e-3
    with pytest.raises(ValueError):
        Classifier([])


def test_the_partner_reads_the_views_the_first_doubts() -> None:
    """The bundled reader averages its first classifier with the partner on the views the
    first reads less sure than `ClassifyConfig.partner_below` and keeps the first's read
    elsewhere (the partner changes only the doubted views; the rest need not pay for it);
    one second opinion, and at a table the partner (its session shared, not loaded twice)."""
    noise = np.random.default_rng(3).integers(0, 255, (5, INPUT, INPUT, 3), dtype=np.uint8)
    plain = np.full((2, INPUT, INPUT, 3), 250, np.uint8)  # a blank face and a dark back
    plain[1] = 30
    crops = np.concatenate([noise, plain])
    first, partner = Classifier(DEFAULT_MODEL).probs(crops), Classifier(PARTNER_MODEL).probs(crops)
    doubted = first.max(axis=1) < DEFAULT.classify.partner_below
    assert doubted.any() and not doubted.all()
    reader = Classifier()
    want = np.where(doubted[:, None], (first + partner) / 2, first)
    np.testing.assert_allclose(reader.probs(crops), want, atol=1e-5)
    second = Classifier(SECOND_MODEL).probs(crops)
    np.testing.assert_allclose(reader.second_probs(crops), second, atol=1e-5)
    assert reader.table_second is not None and reader.table_second[0] is reader.models[1]
    averaged = Classifier(config=AVERAGED).probs(crops)
    np.testing.assert_allclose(averaged, (first + partner) / 2, atol=1e-5)


def test_a_glance_asks_the_partner_where_the_first_doubts() -> None:
    """A whole table's glance (each box alone, unturned) averages the first classifier with
    the partner on the tiles the first doubts, as a whole reading does: the tiles outside
    the hand keep the glance's names, and the ponds' copies decide 和绝张."""
    image = np.random.default_rng(3).integers(0, 255, (80, 7 * 80, 3), dtype=np.uint8)
    image[:, 5 * 80 : 6 * 80] = 250  # a blank face
    image[:, 6 * 80 :] = 30  # a dark back
    detections = [Detection((k * 80 + 8.0, 8.0, k * 80 + 56.0, 72.0), 0.9) for k in range(7)]
    crops = np.stack([cut(image, d.box) for d in detections])
    reader = Classifier()
    first, partner = (read_crops(m, crops, False, len(CODES)) for m in reader.models[:2])
    doubted = first.max(axis=1) < DEFAULT.classify.partner_below
    doubted &= first.argmax(axis=1) != CODES.index("back")
    assert doubted.any() and not doubted.all()
    want = np.where(doubted[:, None], (first + partner) / 2, first)
    glanced = reader.glance(image, detections)
    np.testing.assert_allclose([r.probs for r in glanced], want, atol=1e-5)
    assert [r.chosen for r in glanced] == [CODES[int(k)] for k in want.argmax(axis=1)]


def test_a_glanced_back_stays_the_first_models_call(monkeypatch) -> None:
    """Whether a tile is a back (a wall's, a hand's seen from behind) stays the first
    classifier's call at a glance, however unsure: a partner reads some sets' pale backs
    as 白, which would take a wall's tiles for faces. A doubted face is averaged."""
    import vision.classify as classify

    image = np.full((80, 160, 3), 200, np.uint8)
    detections = [Detection((8.0, 8.0, 56.0, 72.0), 0.9), Detection((88.0, 8.0, 136.0, 72.0), 0.9)]
    first = np.concatenate([_sure_of("back", 0.55)(image[:1]), _sure_of("2m", 0.35)(image[:1])])
    monkeypatch.setattr(
        classify, "read_with_looks", lambda *a, **k: (first, np.zeros((2, 1, 0), np.float32))
    )
    monkeypatch.setattr(classify, "read_crops", lambda m, crops, *a: _sure_of("P", 0.95)(crops))
    back, face = Classifier().glance(image, detections)
    assert back.chosen == "back" and np.allclose(back.probs, first[0])
    assert face.chosen == "P"


def test_cut_turns_wide_boxes_upright() -> None:
    img = np.zeros((100, 200, 3), np.uint8)
    img[:, :100] = (0, 0, 255)  # left half red
    img[:, 100:] = (255, 0, 0)  # right half blue
    crop = cut(img, (40.0, 30.0, 160.0, 70.0))  # wide: 120 x 40
    assert crop.shape == (INPUT, INPUT, 3)
    # turned a quarter counter-clockwise: the left (red) part is now at the bottom
    assert crop[-5, INPUT // 2, 2] == 255 and crop[5, INPUT // 2, 0] == 255
    tall = cut(img, (90.0, 0.0, 110.0, 100.0))
    assert tall[INPUT // 2, 2, 2] == 255 and tall[INPUT // 2, -3, 0] == 255


def test_cut_clamps_boxes_outside_the_image() -> None:
    img = np.full((50, 50, 3), 7, np.uint8)
    assert cut(img, (-20.0, -20.0, 10.0, 80.0)).shape == (INPUT, INPUT, 3)
    assert cut(img, (49.5, 49.5, 60.0, 60.0)).shape == (INPUT, INPUT, 3)


def test_output_contract(classifier: Classifier) -> None:
    rng = np.random.default_rng(1)
    img = rng.integers(0, 255, (240, 320, 3), dtype=np.uint8)
    dets = [Detection((10, 10, 50, 60), 0.9), Detection((100, 100, 180, 140), 0.8)]
    reads = classifier(img, dets)
    assert len(reads) == 2 and all(isinstance(r, TileRead) for r in reads)
    for r, d in zip(reads, dets, strict=True):
        assert r.detection is d
        assert r.probs.shape == (len(CODES),)
        assert r.probs.sum() == pytest.approx(1.0, abs=1e-4)
        assert r.chosen == CODES[int(r.probs.argmax())]
    assert classifier(img, []) == []


def test_bad_input_raises_value_error(classifier: Classifier) -> None:
    with pytest.raises(ValueError):
        classifier(np.zeros((10, 10, 3), np.float64), [Detection((0, 0, 5, 5), 1.0)])
    with pytest.raises(ValueError):
        classifier([[1, 2, 3]], [])


def test_missing_model_is_a_clear_error(tmp_path) -> None:
    with pytest.raises(FileNotFoundError):
        Classifier(tmp_path / "none.onnx")
    with pytest.raises(FileNotFoundError, match="classifier model not found"):
        Classifier(second_model=tmp_path / "none.onnx")


@pytest.mark.dataset
def test_reads_labelled_tiles_of_real_hand_photos(classifier: Classifier) -> None:
    if not (default_root() / "valid").is_dir():
        pytest.skip("cmd-v4 not found at ../shared/datasets (set MCR_DATASETS)")
    hands = [s for s in load_split("valid") if s.image_path.name.startswith("hand_")][:6]
    right = total = 0
    for s in hands:
        img = cv2.imread(str(s.image_path))
        h, w = img.shape[:2]
        dets = [Detection((b[0] * w, b[1] * h, b[2] * w, b[3] * h), 1.0) for b in s.boxes]
        for r, code in zip(classifier(img, dets), s.codes, strict=True):
            total += 1
            right += r.chosen == code
    assert right / total >= 0.9


@pytest.mark.dataset
@pytest.mark.parametrize("model", BUNDLED)
def test_each_int8_classifier_reads_as_the_model_it_was_quantized_from(model) -> None:
    """The reader runs int8 classifiers for speed (`datasets.quantize`); each must name the
    tiles of real photos as its float32 training master does, but for a few crops."""
    if not (default_root() / "valid").is_dir():
        pytest.skip("cmd-v4 not found at ../shared/datasets (set MCR_DATASETS)")
    assert model.name.endswith("_int8.onnx") and trained_model(model).is_file()
    crops = []
    for s in load_split("valid")[:40]:
        img = cv2.imread(str(s.image_path))
        h, w = img.shape[:2]
        crops += [cut(img, (b[0] * w, b[1] * h, b[2] * w, b[3] * h)) for b in s.boxes]
    crops = np.stack(crops)
    quantized = Classifier(model, second_model=None).probs(crops).argmax(axis=1)
    master = Classifier(trained_model(model), second_model=None).probs(crops).argmax(axis=1)
    assert len(crops) > 500
    assert (quantized == master).mean() >= 0.99


def _surer_when_red_on_top(crops: np.ndarray) -> np.ndarray:
    """Stand-in model: sure of 1m when the crop's top rows are red, unsure of 2m otherwise."""
    out = np.full((len(crops), len(CODES)), 0.01, np.float32)
    for k, c in enumerate(crops):
        red_top = c[:8, :, 2].mean() > 200 and c[:8, :, 0].mean() < 50
        out[k, CODES.index("1m" if red_top else "2m")] = 0.9 if red_top else 0.4
    return out / out.sum(axis=1, keepdims=True)


@pytest.mark.parametrize(("box", "read"), [((0, 0, 100, 96), "1m"), ((0, 0, 100, 60), "2m")])
def test_a_square_box_is_read_both_ways(classifier: Classifier, monkeypatch, box, read) -> None:
    """A box about square does not tell which way its tile lies (seen from low down): the
    crop is read turned both ways and the surer reading kept. A clearly wide box is turned
    one way only."""
    img = np.full((100, 100, 3), 255, np.uint8)
    img[:12, :] = (0, 0, 255)  # red along the top: on top only if the wide box is not turned
    monkeypatch.setattr(classifier, "_looked", _unlooked(_surer_when_red_on_top))
    (r,) = classifier(img, [Detection(box, 0.9)])
    assert r.chosen == read


def test_turned_cut_lines_a_tilted_tile_up_with_its_row() -> None:
    """The tile's own rectangle, turned square to its row: its face fills the crop and
    the top of the face (red) lies along the crop's top, not askew in a corner."""
    angle = np.radians(30)
    img, boxes = tilted_row(angle, n=1)
    x1, y1, x2, y2 = boxes[0]
    crop = turned_cut(img, ((x1 + x2) / 2, (y1 + y2) / 2), angle, 40.0, 40.0 * TILE_ASPECT)
    assert crop.shape == (INPUT, INPUT, 3)
    red = (crop[..., 2] > 200) & (crop[..., 0] < 60)
    assert red[:6].mean() > 0.9  # the band across the whole top
    assert red[-20:].mean() < 0.05 and (crop[-20:] > 200).all(axis=2).mean() > 0.9
    grey = (np.abs(crop.astype(int) - 128) < 20).all(axis=2)
    assert grey.mean() < 0.05  # no background: the crop holds the tile alone
    plain = cut(img, boxes[0])
    assert (np.abs(plain.astype(int) - 128) < 20).all(axis=2).mean() > 0.2  # the box does not


def test_tile_rects_reads_the_row_direction_and_tile_size_from_the_spacing() -> None:
    angle = np.radians(30)
    _, boxes = tilted_row(angle, n=6)
    found, along, across = tile_rects(np.array(boxes))
    assert abs(np.degrees(found) - 30) < 2
    assert np.allclose(along, 40.0, rtol=0.05)
    assert np.allclose(across, 40.0 * TILE_ASPECT, rtol=0.05)


def test_a_tile_on_a_tilted_row_is_read_from_its_turned_crop_too(
    classifier: Classifier, monkeypatch
) -> None:
    """The box crop of a tile on a row at 30 degrees shows its face askew among the
    background; the reading averages it with the crop turned square to the row."""
    img, boxes = tilted_row(np.radians(30))
    monkeypatch.setattr(classifier, "_looked", _unlooked(_surer_when_red_on_top))
    assert _surer_when_red_on_top(np.stack([cut(img, b) for b in boxes]))[:, 0].max() < 0.1
    reads = classifier(img, [Detection(b, 0.9) for b in boxes])
    assert [r.chosen for r in reads] == ["1m"] * 3


def test_boxes_found_twice_or_alone_are_still_read(classifier: Classifier) -> None:
    """The turned crop's rectangle comes from the row's spacing; two boxes on one spot
    (no spacing at all) or a lone box still give one reading each."""
    img, boxes = tilted_row(np.radians(20), n=1)
    for dets in ([Detection(boxes[0], 0.9)], [Detection(boxes[0], 0.9)] * 3):
        reads = classifier(img, dets)
        assert len(reads) == len(dets)
        for r in reads:
            assert np.isfinite(r.probs).all()
            assert r.probs.sum() == pytest.approx(1.0, abs=1e-4)


def _sure_when_framed_in_red(crops: np.ndarray) -> np.ndarray:
    """Stand-in model: sure of 1m (0.92) when a crop shows the red table around the tile,
    else unsure (2m at 0.49): the tile's face alone does not settle it."""
    out = np.full((len(crops), len(CODES)), 0.01, np.float32)
    for k, c in enumerate(crops):
        red = ((c[..., 2] > 200) & (c[..., 0] < 50)).mean() > 0.1
        out[k, CODES.index("1m" if red else "2m")] = 5.0 if red else 0.4
    return out / out.sum(axis=1, keepdims=True)


def test_an_unsure_tile_is_read_again_from_more_views(classifier: Classifier, monkeypatch) -> None:
    """A tile the box's and the row's views leave unsure is read again (`second_look`): here
    the widened box, which takes in the table around the tile, is sure of 1m and moves the
    reading towards it. A sure tile is not read again."""
    img = np.zeros((200, 200, 3), np.uint8)
    img[:] = (0, 0, 255)  # red table
    img[40:160, 60:140] = 255  # a white tile, its box exactly
    det = [Detection((60.0, 40.0, 140.0, 160.0), 0.9)]
    seen: list[int] = []

    def counted(model):
        def probs(crops: np.ndarray) -> np.ndarray:
            seen.append(len(crops))
            return model(crops)

        return probs

    monkeypatch.setattr(classifier, "_looked", _unlooked(counted(_sure_when_framed_in_red)))
    monkeypatch.setattr(classifier, "second", None)  # the views alone; the second model below
    (again,) = classifier(img, det)
    assert sum(seen) == 4  # box and row views, then the widened box and the tighter row
    monkeypatch.setattr(classifier, "again", False)
    (once,) = classifier(img, det)
    one = CODES.index("1m")
    assert again.probs[one] > once.probs[one] + 0.1
    assert again.probs.sum() == pytest.approx(1.0, abs=1e-4)

    seen.clear()
    monkeypatch.setattr(classifier, "again", True)
    img[:] = (0, 0, 255)  # every view now shows red: read surely as 1m
    (sure,) = classifier(img, det)
    assert sure.chosen == "1m" and sum(seen) == 2


def _unlooked(probs):
    """A stand-in model's probabilities as the classifier's first read gives them, with
    no looks (as a model without them)."""
    return lambda crops: (probs(crops), np.zeros((len(crops), 1, 0), np.float32))


def _sure_of(code: str, p: float):
    """Stand-in model: every crop reads `code` at probability `p`, the rest spread evenly."""

    def probs(crops: np.ndarray) -> np.ndarray:
        out = np.full((len(crops), len(CODES)), (1 - p) / (len(CODES) - 1), np.float32)
        out[:, CODES.index(code)] = p
        return out

    return probs


def test_the_second_classifier_settles_only_unsure_tiles(
    classifier: Classifier, monkeypatch
) -> None:
    """`second_look` asks the second classifier (`SECOND_MODEL`) about an unsure tile, from
    its box, row and widened views: where the first model hesitates (2m at 0.35) and the
    second is sure of 1m, the tile reads 1m. A tile the first model is sure of is not asked
    about, and without the second model the unsure tile keeps its first reading."""
    img = np.full((200, 200, 3), 90, np.uint8)
    img[40:160, 60:140] = 255
    det = [Detection((60.0, 40.0, 140.0, 160.0), 0.9)]
    asked: list[int] = []

    def second(crops: np.ndarray) -> np.ndarray:
        asked.append(len(crops))
        return _sure_of("1m", 0.95)(crops)

    monkeypatch.setattr(classifier, "second_probs", second)
    monkeypatch.setattr(classifier, "_looked", _unlooked(_sure_of("2m", 0.35)))
    (settled,) = classifier(img, det)
    assert settled.chosen == "1m" and asked == [3]  # box, row and widened views, one pass

    monkeypatch.setattr(classifier, "second", None)
    (alone,) = classifier(img, det)
    assert alone.chosen == "2m"

    asked.clear()
    monkeypatch.setattr(classifier, "second", object())
    monkeypatch.setattr(classifier, "_looked", _unlooked(_sure_of("2m", 0.97)))
    (sure,) = classifier(img, det)
    assert sure.chosen == "2m" and asked == []


def test_the_whole_reading_later_reads_as_at_once() -> None:
    """A table's tiles are glanced at and the hand's read whole later (`look_again`): those
    tiles then read as one whole reading reads them with the table's second opinion
    (`TABLE_SECOND_MODEL`, the partner), and no other tile changes."""
    from datasets import render
    from datasets.render import label_box
    from vision.classify import TABLE_SECOND_MODEL, Classifier

    scene = render.render_scene(np.random.default_rng(4), "builtin", 1280, "hand")
    boxes = [label_box(t, "hand") for t in scene.meta["tiles"]]
    detections = [Detection(tuple(float(v) for v in b), 0.9) for b in boxes]
    classifier = Classifier()
    assert TABLE_SECOND_MODEL == PARTNER_MODEL
    whole = Classifier(second_model=TABLE_SECOND_MODEL)(scene.image, detections)
    first = classifier.glance(scene.image, detections)
    every = list(range(len(detections)))
    later = classifier.look_again(scene.image, first, every)
    assert [r.chosen for r in later] == [r.chosen for r in whole]
    assert np.allclose([r.probs for r in later], [r.probs for r in whole], atol=1e-5)
    some = classifier.look_again(scene.image, first, every[:3])
    assert some[3:] == first[3:]


def test_crops_are_normalised_rgb_planes() -> None:
    """What the classifiers were trained on, value for value: BGR crops turned RGB,
    normalised with ImageNet's mean and deviation, channels first."""
    from vision.classify import to_input
    from vision.runtime import MEAN, STD

    crops = np.random.default_rng(3).integers(0, 256, (5, 64, 64, 3), dtype=np.uint8)
    want = ((crops[..., ::-1].astype(np.float32) - MEAN) / STD).transpose(0, 3, 1, 2)
    assert np.array_equal(to_input(crops), want)
    assert to_input(crops[:0]).shape == (0, 3, 64, 64)
