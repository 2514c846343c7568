"""Training views and label checks: the boxes a model learns from must sit on their tiles."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.augment import ink_hue, ink_width, line_art, rand_conv
from datasets.cmdv4 import Sample
from datasets.label_check import load_excluded, matched_share, overlap_share, suspicious, usable
from datasets.views import CROP, make_targets, random_view, warp_boxes
from vision.detect import STRIDE


def _photo_with_tiles() -> tuple[np.ndarray, np.ndarray]:
    """A dark photo with three bright, differently coloured 'tiles' and their boxes."""
    img = np.full((480, 640, 3), 30, np.uint8)
    boxes = np.array([[100, 150, 160, 230], [300, 60, 350, 130], [420, 300, 500, 400]], np.float32)
    for k, (x1, y1, x2, y2) in enumerate(boxes.astype(int)):
        img[y1:y2, x1:x2] = 0
        img[y1:y2, x1:x2, k] = 255
    return img, boxes


@pytest.mark.parametrize("seed", range(12))
def test_view_boxes_follow_the_tiles(seed: int) -> None:
    img, boxes = _photo_with_tiles()
    half = img[::2, ::2].copy()
    view, moved = random_view(img, boxes, np.random.default_rng(seed), half)
    assert view.shape == (CROP, CROP, 3)
    for k, (x1, y1, x2, y2) in enumerate(moved):
        ys, xs = np.nonzero((view[:, :, k] > 200) & (view.sum(2) - view[:, :, k].astype(int) < 120))
        inside = (x2 > 2) and (y2 > 2) and (x1 < CROP - 2) and (y1 < CROP - 2)
        if not inside or len(xs) < 20:
            continue  # the tile left the window
        # the coloured pixels lie within the moved box (1.5 px of interpolation slack) ...
        assert xs.min() >= x1 - 1.5 and xs.max() <= x2 + 1.5
        assert ys.min() >= y1 - 1.5 and ys.max() <= y2 + 1.5
        # ... and fill it when the box is whole inside the window and not tilted much
        if x1 > 0 and y1 > 0 and x2 < CROP and y2 < CROP:
            fill = len(xs) / max((x2 - x1) * (y2 - y1), 1)
            assert fill > 0.45


def test_quarter_turn_maps_boxes_exactly() -> None:
    m = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, 100.0]])  # (x, y) -> (y, 100 - x)
    out = warp_boxes(np.array([[10, 20, 30, 60]], np.float32), m)
    assert out.tolist() == [[20.0, 70.0, 60.0, 90.0]]


def test_targets_mark_one_peak_per_whole_tile_and_ignore_cut_ones() -> None:
    boxes = np.array(
        [[40, 40, 80, 100], [-30, 100, 10, 160]], np.float32
    )  # second is cut by the edge
    heat, reg, mask, ignore = make_targets(boxes, CROP)
    assert mask.sum() == 1
    iy, ix = np.argwhere(mask == 1)[0]
    assert (ix, iy) == (60 // STRIDE, 70 // STRIDE)
    assert np.isclose(np.exp(reg[0, iy, ix]) * STRIDE, 40) and np.isclose(
        np.exp(reg[1, iy, ix]) * STRIDE, 60
    )
    assert ignore[130 // STRIDE, 0] == 1  # the cut tile is neither positive nor negative


def test_label_check_flags_shifted_boxes_not_good_ones() -> None:
    grid = np.array(
        [[x, y, x + 40, y + 55] for x in range(0, 400, 42) for y in (0, 60)], np.float32
    )
    assert overlap_share(grid) == 0
    assert matched_share(grid, grid) == 1.0 and not suspicious(1.0, 0.0)
    shifted = grid + np.array(
        [15, 20, 60, 70], np.float32
    )  # boxes moved and inflated over neighbours
    assert overlap_share(shifted) > 0.2
    assert suspicious(matched_share(shifted, grid), overlap_share(shifted))


def test_excluded_list_matches_by_stem(tmp_path: Path) -> None:
    listing = tmp_path / "excluded.txt"
    listing.write_text("# comment\nphoto_a.jpg\n")
    assert load_excluded(listing) == {"photo_a"}
    kept = usable([Sample(Path("x/photo_a.webp")), Sample(Path("x/photo_b.jpg"))], listing)
    assert [s.image_path.name for s in kept] == ["photo_b.jpg"]


def test_batches_from_worker_processes_do_not_hang_after_opencv_work() -> None:
    torch = pytest.importorskip("torch", reason="torch is a training extra")
    import cv2

    from datasets.loader import stream

    big = np.random.default_rng(0).integers(0, 255, (1500, 1500, 3), dtype=np.uint8)
    cv2.GaussianBlur(big, (9, 9), 0)  # starts OpenCV's thread pool in this process

    def make(r: np.random.Generator):
        m = np.float32([[1, 0, r.uniform(0, 5)], [0, 1, 0]])
        return torch.from_numpy(cv2.GaussianBlur(cv2.warpAffine(big, m, (64, 64)), (5, 5), 0))

    batches = stream(make, workers=2, seed=1)
    got = [next(batches) for _ in range(4)]
    assert all(g.shape == (64, 64, 3) for g in got)


def test_a_shipped_classifier_fine_tunes_from_exactly_its_exported_function(tmp_path: Path) -> None:
    """The checkpoints behind `models/*.onnx` are not kept, so a fine-tune starts from the
    ONNX file (`train_classifier --init X.onnx`): its logits must be the exported model's,
    and training must leave the folded norms as they are."""
    torch = pytest.importorskip("torch", reason="torch is a training extra")
    pytest.importorskip("onnx", reason="onnx is a training extra")
    import onnxruntime as ort

    from datasets.onnx_init import freeze_norms
    from datasets.train_classifier import (
        STORE,
        WIDTHS,
        CropNet,
        evaluate,
        export_onnx,
        load_onnx_weights,
    )  # fmt: skip

    torch.manual_seed(0)
    trained = CropNet(WIDTHS["base"])
    for m in trained.modules():  # norms with statistics of their own, as after training
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 2.0)
            m.weight.data.uniform_(0.5, 1.5)
    path = tmp_path / "classifier.onnx"
    export_onnx(trained, path)
    x = np.random.default_rng(1).normal(size=(3, 3, 64, 64)).astype(np.float32)
    want = ort.InferenceSession(str(path)).run(None, {"crops": x})[0]

    model = CropNet(WIDTHS["base"])
    load_onnx_weights(model, path)
    model.eval()
    got = model(torch.from_numpy(x)).detach().numpy()
    np.testing.assert_allclose(got, want, atol=1e-4)

    model.train()
    freeze_norms(model)
    before = [m.running_var.clone() for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    model(torch.from_numpy(x)).sum().backward()
    after = [m.running_var for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    assert all(torch.equal(a, b) for a, b in zip(before, after, strict=True))
    crops = np.zeros((2, STORE, STORE, 3), np.uint8)
    evaluate(model, crops, np.array([0, 1]), np.array([[40.0, 60.0], [40.0, 60.0]]))
    norms = [m for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    assert model.training and not any(m.training for m in norms)  # still frozen after a check

    with pytest.raises(ValueError, match="width"):
        load_onnx_weights(CropNet(WIDTHS["wide"]), path)


def test_the_shipped_detector_fine_tunes_from_exactly_its_exported_function(
    tmp_path: Path,
) -> None:
    """`train_detector --init detector.onnx` starts from the exported function, and its
    progress check leaves the folded norms frozen."""
    torch = pytest.importorskip("torch", reason="torch is a training extra")
    pytest.importorskip("onnx", reason="onnx is a training extra")
    import onnxruntime as ort

    from datasets.onnx_init import freeze_norms, load_folded
    from datasets.train_detector import TileNet, evaluate, export_onnx

    torch.manual_seed(0)
    trained = TileNet()
    for m in trained.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 2.0)
            m.bias.data.uniform_(-0.2, 0.2)
    path = tmp_path / "detector.onnx"
    export_onnx(trained, path)
    x = np.random.default_rng(1).normal(size=(1, 3, 96, 128)).astype(np.float32)
    want = ort.InferenceSession(str(path)).run(None, {"image": x})[0]

    model = TileNet()
    load_folded(model, path, torch.zeros(1, 3, 64, 64))
    model.eval()
    np.testing.assert_allclose(model(torch.from_numpy(x)).detach().numpy(), want, atol=1e-4)

    model.train()
    freeze_norms(model)
    photo = tmp_path / "table.jpg"
    cv2.imwrite(str(photo), np.full((120, 160, 3), 90, np.uint8))
    evaluate(model, [Sample(photo, [(0.1, 0.1, 0.3, 0.4)], ["1m"])], [cv2.imread(str(photo))])
    norms = [m for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    assert model.training and not any(m.training for m in norms)

    with pytest.raises(ValueError, match="convolutions"):  # not the network it was exported from
        load_folded(torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3)), path, torch.zeros(1, 3, 8, 8))


@pytest.mark.parametrize(("file", "classes"), [("orientation.onnx", 4), ("stacked.onnx", 2)])
def test_a_crop_model_continues_from_its_exported_file(file: str, classes: int) -> None:
    """`train_orientation --init orientation.onnx` continues the shipped orienter, and
    `train_stacked --init stacked.onnx` the stacked-tile model (a retrain from scratch
    loses what it reads on built-in art): the probabilities are the exported model's,
    and the progress check leaves the folded norms frozen while the rest trains."""
    torch = pytest.importorskip("torch", reason="torch is a training extra")
    pytest.importorskip("onnx", reason="onnx is a training extra")
    import onnxruntime as ort

    from datasets.train_orientation import predict, start_model
    from vision.classify import softmax, to_input
    from vision.detect import MODEL_DIR

    path = MODEL_DIR / file
    crops = (np.random.default_rng(2).random((6, 64, 64, 3)) * 255).astype(np.uint8)
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    want = softmax(session.run(None, {session.get_inputs()[0].name: to_input(crops)})[0])

    model = start_model(str(path), classes=classes)
    np.testing.assert_allclose(predict(model, crops), want, atol=1e-4)
    norms = [m for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    assert model.training and norms and not any(m.training for m in norms)
    fresh = [m for m in start_model("", classes).modules() if isinstance(m, torch.nn.BatchNorm2d)]
    assert all(m.training for m in fresh)  # a new network's norms learn their statistics


def test_stacked_crops_at_the_detectors_boxes_take_the_label_beneath(monkeypatch) -> None:
    """`train_stacked --detector-boxes`: the detector boxes a promoted kong's pair as
    neither label box, so its own boxes are cut too, each labelled as the meld tile it
    overlaps most (IoU 0.5); a box on no meld tile is left out."""
    pytest.importorskip("torch", reason="torch is a training extra")
    from datasets import train_stacked

    pair, single = (100.0, 50.0, 160.0, 110.0), (170.0, 60.0, 210.0, 115.0)
    found = np.array([[98, 48, 163, 114], [171, 61, 209, 116], [400, 400, 440, 450]], float)
    monkeypatch.setattr(train_stacked, "_found_boxes", lambda img: found)
    image = np.zeros((500, 500, 3), np.uint8)
    out = train_stacked._as_found(image, [(pair, 1, True), (single, 0, False)])
    assert [(label, side) for _, label, side in out] == [(1, True), (0, False)]
    assert [tuple(box) for box, *_ in out] == [tuple(found[0]), tuple(found[1])]


def _engraved_face() -> np.ndarray:
    """A light 64 px face with one dark stroke 6 px wide."""
    face = np.full((64, 64, 3), 230, np.uint8)
    face[10:54, 29:35] = 40
    return face


def test_ink_width_thickens_or_thins_strokes_and_keeps_the_face() -> None:
    """Tile sets are engraved heavily or lightly: a training view's strokes are spread or
    thinned, the face left light and the input untouched."""
    face = _engraved_face()
    before = face.copy()
    widths = set()
    for seed in range(40):
        out = ink_width(face, np.random.default_rng(seed), chance=1.0)
        assert out.shape == face.shape and out.dtype == np.uint8
        widths.add(int((out[32, :, 0] < 128).sum()))
        assert (out[0:8] > 200).all()  # the plain face stays plain
    assert np.array_equal(face, before)
    assert min(widths) < 6 < max(widths)  # both thinner and thicker strokes occur


def test_ink_width_at_no_chance_leaves_the_view() -> None:
    face = _engraved_face()
    out = ink_width(face, np.random.default_rng(0), chance=0.0)
    assert np.array_equal(out, face)


def test_ink_hue_turns_coloured_ink_and_keeps_the_face_and_black_ink() -> None:
    """Sets print their pips in their own colours: a red stroke comes out another
    colour, while the ivory face and a black stroke keep theirs."""
    face = np.full((64, 64, 3), (215, 235, 245), np.uint8)  # ivory (BGR)
    face[10:54, 20:26] = (30, 30, 200)  # red ink
    face[10:54, 40:46] = (30, 30, 30)  # black ink
    before = face.copy()
    reds = set()
    for seed in range(20):
        out = ink_hue(face, np.random.default_rng(seed), chance=1.0)
        ink = tuple(int(c) for c in out[32, 22])
        assert np.abs(np.array(ink) - (30, 30, 200)).max() > 60  # another colour
        reds.add(ink)
        assert np.abs(out[0:8].astype(int) - face[0:8]).max() <= 3
        assert np.abs(out[32, 42].astype(int) - 30).max() <= 3
    assert np.array_equal(face, before) and len(reds) > 3
    rng, untouched = np.random.default_rng(0), np.random.default_rng(0)
    assert np.array_equal(ink_hue(face, rng, chance=0.0), face)
    assert rng.random() == untouched.random()  # a seeded run draws the same views as before


def test_rand_conv_recolours_a_face_and_keeps_its_shapes() -> None:
    """Another set's inks and shading must not name a tile: the filtered view comes out
    in other colours, yet its strokes still stand apart from the face where they were."""
    face = np.full((64, 64, 3), (215, 235, 245), np.uint8)
    face[10:54, 28:36] = (40, 140, 30)  # a green stroke
    before = face.copy()
    colours = set()
    for seed in range(20):
        out = rand_conv(face, np.random.default_rng(seed), chance=1.0)
        assert out.shape == face.shape and out.dtype == np.uint8
        stroke, ground = out[20:44, 30:34].mean(axis=(0, 1)), out[20:44, 4:12].mean(axis=(0, 1))
        assert np.abs(stroke - ground).max() > 20  # the stroke is still there
        colours.add(tuple(int(c) // 16 for c in stroke))
    assert np.array_equal(face, before) and len(colours) > 5
    rng, untouched = np.random.default_rng(0), np.random.default_rng(0)
    assert np.array_equal(rand_conv(face, rng, chance=0.0), face)
    assert rng.random() == untouched.random()  # a seeded run draws the same views as before


def test_line_art_draws_a_strokes_outline_in_one_ink_on_a_plain_face() -> None:
    """A set drawn in outline only must read as its filled strokes do: the view comes out
    in two colours, a light face and a dark ink, the ink along the stroke's edges and not
    inside a broad stroke nor far from it."""
    face = np.full((64, 64, 3), (215, 235, 245), np.uint8)
    face[10:54, 20:40] = (40, 140, 30)  # a broad green stroke
    before = face.copy()
    for seed in range(20):
        out = line_art(face, np.random.default_rng(seed), chance=1.0)
        assert out.shape == face.shape and out.dtype == np.uint8
        colours = np.unique(out.reshape(-1, 3), axis=0)
        assert len(colours) == 2 and colours.sum(axis=1).min() < 270 < colours.sum(axis=1).max()
        ink = out.sum(axis=2) < 270
        assert ink[30, 18:23].any() and ink[30, 37:42].any()  # the stroke's two edges
        assert not ink[30, 26:34].any() and not ink[30, 50:60].any()  # not its inside, not away
    assert np.array_equal(face, before)
    rng, untouched = np.random.default_rng(0), np.random.default_rng(0)
    assert np.array_equal(line_art(face, rng, chance=0.0), face)
    assert rng.random() == untouched.random()  # a seeded run draws the same views as before


def test_crops_cut_at_other_detectors_are_cached_apart() -> None:
    """A rerun in the same folder with another detector cuts its crops anew."""
    import argparse

    pytest.importorskip("torch")
    from datasets.train_classifier import _cache_name

    shipped = argparse.Namespace(detector=None, table_detector=None)
    run = argparse.Namespace(detector=None, table_detector="run8.onnx")
    assert _cache_name("det_crops", shipped) != _cache_name("det_crops", run)
    assert _cache_name("det_crops", run) == _cache_name("det_crops", run)


def test_the_run_log_names_the_detectors_whose_boxes_it_trained_on() -> None:
    """A classifier learns the boxes its crops were cut at: the run's log line says which
    detectors cut them, and nothing where no such crops were trained on."""
    pytest.importorskip("torch")
    from datasets.train_classifier import boxes_from, parser

    plain = parser().parse_args([])
    assert boxes_from(plain) is None
    bundled = parser().parse_args(["--detector-boxes"])
    assert boxes_from(bundled) == "bundled, tables bundled"
    other = parser().parse_args(["--detector-boxes", "--table-detector", "RUN15_int8.onnx"])
    assert boxes_from(other) == "bundled, tables RUN15_int8.onnx"


def test_a_check_of_unfamiliar_art_is_never_trained_on(tmp_path: Path) -> None:
    """`--check-render` reads scenes in art the run does not train on, to judge it on
    unfamiliar art: the same folder given to train on is refused, as is a folder with no
    scenes; a rendered folder gives its tiles' crops and labels."""
    pytest.importorskip("torch", reason="torch is a training extra")
    pytest.importorskip("tqdm", reason="tqdm is a training extra")
    from datasets.render import main as render
    from datasets.train_classifier import check_render_crops, parser

    for name, seed in (("train", "1"), ("check", "2")):
        render(["--styles", "builtin", "--kind", "hand", "--count", "2", "--seed", seed,
                "--size", "400", "--workers", "1", "--out", str(tmp_path / name)])  # fmt: skip
    rng = np.random.default_rng(0)
    args = parser().parse_args(["--render", str(tmp_path / "train")])
    assert check_render_crops(args, rng) is None  # no check asked
    same = parser().parse_args(
        ["--render", f"{tmp_path / 'check'},{tmp_path / 'train'}", "--check-render",
         str(tmp_path / "train" / ".." / "train")]
    )  # fmt: skip
    with pytest.raises(SystemExit, match="also trained on"):
        check_render_crops(same, rng)
    empty = parser().parse_args(["--check-render", str(tmp_path / "none")])
    with pytest.raises(SystemExit, match="no images"):
        check_render_crops(empty, rng)
    args = parser().parse_args(
        ["--render", str(tmp_path / "train"), "--check-render", str(tmp_path / "check")]
    )
    crops, labels, sizes = check_render_crops(args, rng)
    assert len(crops) == len(labels) == len(sizes) >= 28  # two hands of at least 14 tiles
    assert labels.min() >= 0 and labels.max() < 43


def test_hard_views_go_to_the_crops_the_starting_model_doubts() -> None:
    """`--hard-share` draws that share of views by the starting model's doubt: a crop it is
    sure of gets no extra views, a doubted one gets them, and with no share (or nothing
    doubted) the draw is the plain one."""
    pytest.importorskip("torch", reason="torch is a training extra")
    from datasets.train_classifier import hard_weights, view_weights

    labels = np.array([0, 0, 42, 42, 42, 33])
    rendered = np.array([False, False, True, True, True, True])
    plain = view_weights(labels, rendered, 0.4)
    doubt = np.array([0.0, 0.0, 0.9, 0.0, 0.0, 0.1])  # a back read as 白, 白 nearly sure
    mixed = hard_weights(plain, doubt, 0.3)
    assert mixed.sum() == pytest.approx(1.0)
    assert mixed[2] > plain[2] and mixed[3] < plain[3]
    assert mixed[2] - plain[2] > mixed[5] - plain[5]
    np.testing.assert_allclose(mixed[[0, 1]], 0.7 * plain[[0, 1]])
    np.testing.assert_array_equal(hard_weights(plain, doubt, 0.0), plain)
    np.testing.assert_array_equal(hard_weights(plain, np.zeros(6), 0.3), plain)
