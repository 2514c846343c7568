"""Art variation must change how faces look without moving or destroying the glyph."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from datasets import render
from datasets.scene.artvary import INK_SCALE, ArtVariation, small_art_of
from datasets.scene.faces import FaceSet, builtin_faces, face_background

CODES = ("1m", "5p", "9s", "E", "C", "P", "3f")


def _ink(face: np.ndarray, bg: np.ndarray) -> np.ndarray:
    return np.abs(face.astype(np.float32) - bg).sum(axis=2) / INK_SCALE > 0.5


def _active(seed: int) -> ArtVariation:
    """The first variation from `seed` on that is switched on."""
    for k in range(100):
        v = ArtVariation.draw(np.random.default_rng([seed, k]))
        if v.active:
            return v
    raise AssertionError("no active variation drawn")


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    return float((a & b).sum() / max((a | b).sum(), 1))


def _coarse(mask: np.ndarray) -> np.ndarray:
    """Where ink is at the scale of a glyph's parts (a few pixels' shift does not count)."""
    return cv2.GaussianBlur(mask.astype(np.float32), (0, 0), 8) > 0.1


@pytest.mark.parametrize("seed", range(20))
def test_variation_keeps_the_ink_where_it_was(seed: int) -> None:
    v = _active(seed)
    unscaled = dataclasses.replace(v, scale=1.0, shear=0.0)
    faces = builtin_faces()
    for code in CODES:
        face = faces[code]
        bg = face_background(face)
        new_bg = v.paper_for(bg) if v.paper_for(bg) is not None else bg
        before = _ink(face, bg)
        # strokes, wobble, colours and marks keep the pixels of the ink
        iou = _iou(before, _ink(unscaled.apply(face, bg, code), new_bg))
        assert iou >= 0.5, f"{code}: ink IoU {iou:.2f} with {v}"
        # and with the set's scale and shear the glyph's parts stay in place
        iou = _iou(_coarse(before), _coarse(_ink(v.apply(face, bg, code), new_bg)))
        assert iou >= 0.5, f"{code}: coarse ink IoU {iou:.2f} with {v}"


def test_variation_changes_faces_in_most_scenes() -> None:
    faces = builtin_faces()
    changed = 0
    for seed in range(40):
        fs = FaceSet(faces, np.random.default_rng(seed), max_px=300)
        plain = FaceSet(faces, np.random.default_rng(seed), max_px=300, vary=False)
        assert plain.variation.active is False
        changed += not np.array_equal(fs.mips("5m")[0], plain.mips("5m")[0])
    # about three scenes in four are varied
    assert 22 <= changed <= 38


def test_variation_is_deterministic_and_order_free() -> None:
    faces = builtin_faces()
    seed = next(s for s in range(100) if ArtVariation.draw(np.random.default_rng(s)).active)
    a = FaceSet(faces, np.random.default_rng(seed))
    b = FaceSet(faces, np.random.default_rng(seed))
    a.mips("1m")
    assert np.array_equal(a.mips("7s")[0], b.mips("7s")[0])  # b built 7s first
    assert np.array_equal(a.mips("1m")[0], b.mips("1m")[0])


def test_flag_off_draws_the_art_unchanged() -> None:
    faces = builtin_faces()
    varied = 0
    for seed in range(10):
        for vary in (False, True):
            fs = FaceSet(faces, np.random.default_rng(seed), max_px=300, vary=vary)
            plate = fs.plate("4p")[0]
            h, w = faces["4p"].shape[:2]
            ry, rx = (plate.shape[0] - h) // 2, (plate.shape[1] - w) // 2
            same = np.array_equal(plate[ry : ry + h, rx : rx + w], faces["4p"])
            assert same or vary
            varied += not same
    assert varied >= 5


def test_scenes_differ_only_in_faces_when_flag_off() -> None:
    differ = 0
    for index in range(6):
        on = render.render_scene(render.scene_rng(7, index), "builtin", 320, "hand")
        off = render.render_scene(
            render.scene_rng(7, index), "builtin", 320, "hand", art_variation=False
        )
        assert on.meta == off.meta  # same layout, camera and labels
        differ += not np.array_equal(on.image, off.image)
    assert differ >= 2


def test_command_line_flag(tmp_path) -> None:
    args = ["--count", "2", "--styles", "builtin", "--seed", "3", "--size", "256"]
    assert render.main([*args, "--out", str(tmp_path / "a"), "--no-art-variation"]) == 0
    assert render.main([*args, "--out", str(tmp_path / "b")]) == 0
    assert len(list((tmp_path / "a" / "images").glob("*.jpg"))) == 2


def _painted(bg: tuple[int, int, int], inks: list[tuple[int, int, int]]) -> np.ndarray:
    """A face of colour `bg` with one thick ring per ink, side by side (as pips are drawn)."""
    face = np.full((256, 192, 3), bg, np.uint8)
    for k, ink in enumerate(inks):
        cv2.circle(face, (96, 60 + 70 * k), 26, ink, 12)
    return face


@pytest.mark.parametrize("stroke", [2, -1])
def test_bolder_or_thinner_strokes_keep_each_inks_colour(stroke: int) -> None:
    # a set's green and red pips stay green and red when only the stroke weight changes
    green, red = (40, 150, 30), (30, 30, 190)
    face = _painted((246, 246, 246), [green, red])
    v = dataclasses.replace(
        _active(0),
        recolour="none",
        stroke=stroke,
        paper=None,
        scale=1.0,
        shear=0.0,
        wobble=0.0,
        focus=0.0,
        mark=False,
    )
    out = v.apply(face, face_background(face), "2p").astype(np.float32)
    for ink in (green, red):
        where = np.all(face == ink, axis=2)
        mean = out[where].mean(axis=0)
        assert np.abs(mean - ink).max() < 40, f"ink {ink} came out {mean.round()}"


@pytest.mark.parametrize("recolour", ["none", "permute", "hue", "mono"])
@pytest.mark.parametrize("stroke", [0, 2, -1])
def test_light_ink_on_a_dark_face_stays_legible(recolour: str, stroke: int) -> None:
    # jade-like sets carry white glyphs on a dark face; no variation may paint them out
    face = _painted((0, 16, 122), [(255, 255, 255), (255, 255, 255)])
    bg = face_background(face)
    v = dataclasses.replace(
        _active(1), recolour=recolour, stroke=stroke, scale=1.0, shear=0.0, wobble=0.0, mark=False
    )
    iou = _iou(_ink(face, bg), _ink(v.apply(face, bg, "2p"), bg))
    assert iou >= 0.5, f"ink IoU {iou:.2f} with {v}"


def _redness(face: np.ndarray, bg: np.ndarray) -> float:
    """How much the face's ink is redder than it is green or blue (BGR means)."""
    b, g, r = face[_ink(face, bg)].astype(float).mean(axis=0)
    return float(r - max(g, b))


def test_red_fives_print_only_the_fives_red_and_keep_the_scene() -> None:
    # Japanese-style sets print their fives in red: those faces turn red, every other face
    # and every other draw of the scene stay as they were (the bench sets stay reproducible)
    faces = builtin_faces()
    for seed in range(6):
        plain = FaceSet(faces, np.random.default_rng(seed), max_px=300)
        red = FaceSet(faces, np.random.default_rng(seed), max_px=300, red_fives=1.0)
        assert red.red is not None and plain.red is None
        assert red.variation == plain.variation and np.array_equal(red.tint, plain.tint)
        for code in ("1m", "4p", "9s", "E", "C"):
            assert np.array_equal(red.mips(code)[0], plain.mips(code)[0])
        for code in ("5m", "5p", "5s"):
            was, now = plain.mips(code)[0], red.mips(code)[0]
            bg = face_background(was).astype(np.float32)
            assert _redness(now, bg) > 40, (seed, code)  # whatever ink it had
            assert _iou(_coarse(_ink(now, bg)), _coarse(_ink(was, bg))) >= 0.8  # same glyph


def test_red_fives_on_a_dark_face_keep_their_glyph() -> None:
    # a jade-like set (light ink on a dark face) prints its red fives lighter than the face,
    # so the glyph stays where it was and reads red
    faces = {code: 255 - face for code, face in builtin_faces().items()}
    for seed in range(3):
        plain = FaceSet(faces, np.random.default_rng(seed), max_px=300, vary=False)
        red = FaceSet(faces, np.random.default_rng(seed), max_px=300, vary=False, red_fives=1.0)
        for code in ("5m", "5p", "5s"):
            was, now = plain.mips(code)[0], red.mips(code)[0]
            bg = face_background(was).astype(np.float32)
            assert _iou(_ink(now, bg), _ink(was, bg)) >= 0.8, (seed, code)
            assert _redness(now, bg) > 30, (seed, code)


def test_red_fives_come_at_their_chance() -> None:
    faces = builtin_faces()
    reds = sum(
        FaceSet(faces, np.random.default_rng(s), red_fives=0.3).red is not None for s in range(200)
    )
    assert 40 <= reds <= 80


def test_red_fives_option_is_checked(tmp_path, capsys) -> None:
    args = ["--count", "1", "--styles", "builtin", "--size", "256", "--out", str(tmp_path)]
    assert render.main([*args, "--red-fives", "1.5"]) == 2
    assert "--red-fives" in capsys.readouterr().err
    assert render.main([*args, "--red-fives", "1"]) == 0


def _ink_extent(face: np.ndarray, bg: np.ndarray) -> tuple[float, float]:
    ys, xs = np.nonzero(_ink(face, bg))
    return float(np.ptp(xs)), float(np.ptp(ys))


def _ink_centre(face: np.ndarray, bg: np.ndarray) -> np.ndarray:
    return np.argwhere(_ink(face, bg)).mean(axis=0)


def test_small_art_draws_the_glyph_smaller_about_the_centre_and_keeps_the_scene() -> None:
    # some sets engrave small pips on a wide face: the ink spans less of the face, centred
    # where it was, and the scene's other draws (tint, the variation's seed) stay
    faces = builtin_faces()
    for seed in range(6):
        plain = FaceSet(faces, np.random.default_rng(seed), max_px=300)
        small = FaceSet(faces, np.random.default_rng(seed), max_px=300, small_art=1.0)
        assert small.variation.active and small.variation.scale <= 0.85
        assert small.variation.seed == plain.variation.seed
        assert np.array_equal(small.tint, plain.tint)
        only_size = small_art_of(dataclasses.replace(plain.variation, active=False), 1.0)
        for code in ("5p", "9s", "C"):
            art = faces[code]
            bg = face_background(art).astype(np.float32)
            now = only_size.apply(art, bg, code)
            (w0, h0), (w1, h1) = _ink_extent(art, bg), _ink_extent(now, bg)
            scale = only_size.scale
            assert w1 < (scale + 0.05) * w0 and h1 < (scale + 0.05) * h0, (seed, code)
            moved = _ink_centre(now, bg) - _ink_centre(art, bg)
            assert np.abs(moved).max() < 0.05 * max(art.shape), (seed, code)


def test_small_art_on_a_set_left_as_drawn_changes_its_size_alone() -> None:
    plain = dataclasses.replace(_active(3), active=False)
    small = small_art_of(plain, 1.0)
    assert small.active and small.recolour == "none" and small.stroke == 0
    assert small.paper is None and small.mark is False and small.focus == 0.0
    assert small_art_of(plain, 0.0) is plain


def test_small_art_option_is_checked(tmp_path, capsys) -> None:
    args = ["--count", "1", "--styles", "builtin", "--size", "256", "--out", str(tmp_path)]
    assert render.main([*args, "--small-art", "-0.1"]) == 2
    assert "--small-art" in capsys.readouterr().err
    assert render.main([*args, "--small-art", "1"]) == 0
