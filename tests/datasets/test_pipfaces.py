"""Pip-drawn tile styles: complete sets whose dots and bamboos differ from style to style.

Skips where the drawn art the other faces come from is absent
(`python -m datasets.art install`).
"""

from __future__ import annotations

import zlib

import cv2
import numpy as np
import pytest

from datasets.art import FACE_H, FACE_W
from datasets.scene import pipfaces
from datasets.scene.faces import available_styles, style_faces
from datasets.styles import HELDOUT_STYLES, MANY_PIPS, TRAIN_STYLES, resolve_styles
from scorer.tiles import BACK, CODES

NAMES = pipfaces.style_names()
pytestmark = pytest.mark.skipif(
    not set(pipfaces.DRAWN) <= set(available_styles()),
    reason="tile art not installed: python -m datasets.art install",
)


def _design(name: str) -> pipfaces._Design:
    return pipfaces._Design(np.random.default_rng(zlib.crc32(name.encode())))


def _blobs(face: np.ndarray) -> int:
    """Separate patches of ink on a face: one per pip when pips stand apart."""
    ink = (np.abs(face.astype(int) - np.array(pipfaces.PAPER)).sum(axis=2) > 60).astype(np.uint8)
    contours, _ = cv2.findContours(ink, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return len(contours)


def test_every_pip_style_is_a_whole_set_of_training_art() -> None:
    """`--styles pips` names every style; each gives all 42 faces at the art's size, takes
    its other faces from a training style, never from a held-out one."""
    assert resolve_styles("pips") == NAMES
    assert set(pipfaces.DRAWN) <= set(TRAIN_STYLES)
    assert not set(pipfaces.DRAWN) & set(HELDOUT_STYLES)
    for name in NAMES:
        faces = style_faces(name)
        assert set(faces) == {c for c in CODES if c != BACK}
        assert all(f.shape == (FACE_H, FACE_W, 3) for f in faces.values())


def test_many_pips_give_a_design_a_scene_apart_from_the_pip_styles() -> None:
    """`--styles manypips` names MANY_PIPS pip styles after the `pips` ones, each drawing a
    design of its own (a run meets a new design each scene, not forty drawings again);
    any number names a design, so a set of designs no run trained on (numbers past them
    all) checks a run."""
    many = resolve_styles("manypips")
    assert len(many) == len(set(many)) == MANY_PIPS
    assert not set(many) & set(NAMES)
    assert all(pipfaces.is_pip_style(n) for n in many)
    assert resolve_styles("pipface_90000") == ["pipface_90000"]
    assert not pipfaces.is_pip_style("pipface_x") and not pipfaces.is_pip_style("pipface_")
    sixes = {style_faces(n)["6s"].tobytes() for n in (many[0], many[1], "pipface_90000")}
    assert len(sixes) == 3


def test_a_dot_tile_shows_as_many_separate_dots_as_its_number() -> None:
    """The count is what tells 8p from 9p: every n-dots face shows n dots standing apart,
    in every design (rings included), jitter and all."""
    plain = [n for n in NAMES if not _design(n).index]  # a corner numeral is one more patch
    assert len(plain) >= 4
    for name in plain:
        faces = style_faces(name)
        assert [_blobs(faces[f"{n}p"]) for n in range(1, 10)] == list(range(1, 10)), name


def test_styles_draw_their_pips_differently() -> None:
    """The same tile differs between styles (that is the point: other drawings of the same
    count), and within a style no two bamboo or dot tiles are alike."""
    a, b = style_faces(NAMES[0]), style_faces(NAMES[1])
    for code in ("6s", "9p"):
        assert np.abs(a[code].astype(int) - b[code].astype(int)).mean() > 5.0
    for faces in (a, b):
        suit = [faces[f"{n}{s}"].astype(np.int16) for s in "ps" for n in range(2, 10)]
        diffs = [np.abs(suit[i] - suit[j]).mean() for i in range(len(suit)) for j in range(i)]
        assert min(diffs) > 1.0


def test_styles_use_each_arrangement_sets_draw() -> None:
    """Sets lay out some counts differently (six bamboos in two rows of three or in three
    rows of two, six dots as two columns of three or two over four): every arrangement
    is drawn by some style, so none of them alone is what the classifier learns a 6 by."""
    designs = [_design(n) for n in NAMES]
    for n, ways in pipfaces.STICKS.items():
        assert {d.sticks[n] for d in designs} == set(range(len(ways))), f"{n}s"
    for n, ways in pipfaces.DOTS.items():
        assert {d.dots[n] for d in designs} == set(range(len(ways))), f"{n}p"


def test_many_pip_styles_draw_their_own_one_of_bamboo_with_no_numeral() -> None:
    """A bird alone (or one stick) is the 1s in most sets, while flower tiles that show a
    bird carry their character or number: at least half the styles draw their own 1s,
    in several ways, with nothing in the corner where an index numeral goes."""
    own = []
    for k, name in enumerate(NAMES):
        one = style_faces(name)["1s"]
        if not np.array_equal(one, style_faces(pipfaces.DRAWN[k % len(pipfaces.DRAWN)])["1s"]):
            own.append(one)
    assert len(own) >= len(NAMES) // 2
    assert len({f.tobytes() for f in own}) == len(own)
    for face in own:
        corner = face[:40, FACE_W - 44 :].astype(int)
        assert (np.abs(corner - np.array(pipfaces.PAPER)).sum(axis=2) < 30).all()
        assert _blobs(face) >= 1


def _column_gap(face: np.ndarray, x: int) -> int:
    """The longest run of paper down a stick column, between its first and last ink."""
    ink = (np.abs(face.astype(int) - np.array(pipfaces.PAPER)).sum(axis=2) > 60)[:, x - 1 : x + 2]
    rows = ink.any(axis=1)
    ys = np.flatnonzero(rows)
    gap = best = 0
    for filled in rows[ys[0] : ys[-1] + 1]:
        gap = 0 if filled else gap + 1
        best = max(best, gap)
    return best


def test_some_styles_pack_their_sticks_end_to_end() -> None:
    """Sets that pack short capped sticks end to end show a column as one long jointed
    stick, and a classifier that only saw sticks standing apart reads three such rows as
    two. Among the styles drawing six bamboos as three rows of two (solid sticks, plain
    or capped), packed ones leave at most a jitter's gap down each column, the others a
    clear one; only capped sticks are packed, whose caps show where one ends."""
    packed, apart = [], []
    for name in NAMES:
        design = _design(name)
        if design.stick not in (1, 3) or design.sticks[6] != 1:
            continue
        face = style_faces(name)["6s"]
        mx = design.area[0]
        gaps = [_column_gap(face, int(FACE_W * (mx + (1 - 2 * mx) * x))) for x in (0.3, 0.7)]
        if design.packed:
            assert design.stick == 3, name
            packed.append(max(gaps))
        elif design.stick_len < 0.9:
            apart.append(min(gaps))
    assert packed and apart
    assert max(packed) <= 3 < 6 <= min(apart)


def test_some_styles_draw_capped_sticks_with_a_dark_outline() -> None:
    """Bamboos drawn as slim sticks flaring at their ends and joint, edged in a dark line,
    are a drawing of their own: some styles use it, and the rim of their sticks' ink is
    the outline's colour."""
    capped = [n for n in NAMES if _design(n).stick == 3]
    assert len(capped) >= 4
    for name in capped:
        face = style_faces(name)["2s"].astype(int)
        ink = (np.abs(face - np.array(pipfaces.PAPER)).sum(axis=2) > 60).astype(np.uint8)
        rim = ink.astype(bool) & ~cv2.erode(ink, np.ones((3, 3), np.uint8)).astype(bool)
        dark = np.abs(face[rim] - np.array(pipfaces.OUTLINE)).sum(axis=1) < 60
        assert dark.mean() > 0.5, name
