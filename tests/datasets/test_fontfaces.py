"""Font-written tile styles: complete sets whose writing differs from style to style.

Skips where the fonts, pillow (a training extra) or the drawn art the dots
and bamboos come from are absent (`python -m datasets.art install`).
"""

from __future__ import annotations

import numpy as np
import pytest

from datasets.art import DEFAULT_CACHE, FACE_H, FACE_W
from datasets.scene import fontfaces
from datasets.scene.faces import available_styles, style_faces
from datasets.styles import TRAIN_STYLES, resolve_styles
from scorer.tiles import BACK, CODES

pytest.importorskip("PIL", reason="pillow is a training extra")
NAMES = fontfaces.style_names()
pytestmark = pytest.mark.skipif(
    not NAMES or not set(fontfaces.DRAWN) <= set(available_styles()),
    reason="CJK fonts or tile art not installed: python -m datasets.art install",
)
WRITTEN = [f"{n}m" for n in range(1, 10)] + ["E", "S", "W", "N", "C", "F"]


def test_every_font_style_is_a_whole_set_of_training_art() -> None:
    """Each style gives all 42 faces at the art's size, and none is a held-out one's: the
    held-out styles stay unseen (`datasets.styles`)."""
    assert resolve_styles("fonts") == NAMES
    for name in NAMES[:: fontfaces.VARIANTS]:
        faces = style_faces(name)
        assert set(faces) == {c for c in CODES if c != BACK}
        assert all(f.shape == (FACE_H, FACE_W, 3) for f in faces.values())
        for code in WRITTEN:  # a font lacking a glyph would draw nothing or a box
            assert (faces[code].astype(int).sum(axis=2) < 500).mean() > 0.01, (name, code)
    assert set(fontfaces.DRAWN) <= set(TRAIN_STYLES)


def test_the_check_fonts_keep_their_drawn_dots() -> None:
    """A check style takes its dots and bamboos from the drawn set its place among the
    fonts names; fonts added to training keep that place's set, so a check render made
    before reads the same after and runs stay comparable."""
    if not fontfaces.style_names(check=True):
        pytest.skip("check fonts not installed: python -m datasets.art install")
    for k, drawn in ((0, "xmj_dorothy"), (1, "kde_classic"), (5, "xmj_real")):
        mine, theirs = style_faces(f"fontface_cwyen_{k}"), style_faces(drawn)
        assert all(np.array_equal(mine[c], theirs[c]) for c in ("5p", "6s", "9s")), k


def test_the_check_fonts_never_write_a_training_style() -> None:
    """The `checkfonts` styles judge a run on writing it has never seen (`train_classifier
    --check-render`): no training spec names them, and each is a whole set whose
    characters carry ink (a font lacking a glyph would draw nothing or a box)."""
    check = fontfaces.style_names(check=True)
    if not check:
        pytest.skip("check fonts not installed: python -m datasets.art install")
    assert resolve_styles("checkfonts") == check
    assert not set(check) & set(resolve_styles("train,fonts,pips,index"))
    for name in check[:: fontfaces.VARIANTS]:
        faces = style_faces(name)
        assert set(faces) == {c for c in CODES if c != BACK}
        for code in WRITTEN:
            assert (faces[code].astype(int).sum(axis=2) < 500).mean() > 0.01, (name, code)


def test_characters_are_written_and_told_apart() -> None:
    """The written faces carry ink, no two of a style alike; the same tile differs from
    one font style to another (that is the point: other hands for the same character)."""
    a, b = style_faces(NAMES[0]), style_faces(NAMES[-1])
    for faces in (a, b):
        for code in WRITTEN:
            ink = (faces[code].astype(int).sum(axis=2) < 500).mean()
            assert ink > 0.01, code
        stack = np.stack([faces[c].astype(np.int16) for c in WRITTEN])
        diffs = [np.abs(stack[i] - stack[j]).mean() for i in range(len(WRITTEN)) for j in range(i)]
        assert min(diffs) > 1.0
    assert np.abs(a["6m"].astype(int) - b["6m"].astype(int)).mean() > 5.0


def test_font_styles_baked_into_a_bundle_render_without_the_fonts(tmp_path, monkeypatch) -> None:
    """A borrowed GPU machine has none of the CJK fonts: `gpu_bundle --fonts` bakes the font
    styles' faces into the bundle's art, and there `fonts` and each style read from it."""
    from datasets.gpu_bundle import pack_art

    pack_art(tmp_path, DEFAULT_CACHE, fonts=True)
    want = style_faces(NAMES[0])
    monkeypatch.setattr(fontfaces, "FONTS", {})  # as on a machine without the fonts
    assert fontfaces.style_names() == []
    assert sorted(resolve_styles("fonts", tmp_path)) == sorted(NAMES)
    got = style_faces(NAMES[0], tmp_path)
    assert set(got) == set(want)
    assert np.abs(got["6m"].astype(int) - want["6m"].astype(int)).mean() < 3.0
    # the dots two styles take from one drawn set are one file (the bundle stays small)
    import json

    styles = json.loads((tmp_path / "index.json").read_text())["styles"]
    twin = f"fontface_{NAMES[0].split('_')[1]}_{len(fontfaces.DRAWN)}"
    assert twin in styles and styles[twin]["faces"]["5p"] == styles[NAMES[0]]["faces"]["5p"]
    assert (
        np.abs(style_faces(twin, tmp_path)["5p"].astype(int) - want["5p"].astype(int)).mean() < 3.0
    )


def test_flowers_are_drawn_as_sets_print_them() -> None:
    """A font style's eight flowers are its own (not its drawn style's): each a picture in
    colour, no two alike, so the character and number, not one set's art, tell them apart."""
    for name in NAMES[:: fontfaces.VARIANTS]:
        faces = style_faces(name)
        flowers = [faces[c].astype(np.int16) for c in fontfaces.FLOWERS]
        for face in flowers:
            colour = (face.max(axis=2) - face.min(axis=2) > 60).mean()
            assert colour > 0.005, name  # a pale pink star is about the least
        diffs = [np.abs(flowers[i] - flowers[j]).mean() for i in range(8) for j in range(i)]
        assert min(diffs) > 1.0, name
    drawn = style_faces(fontfaces.DRAWN[0])
    mine = style_faces(NAMES[0])
    assert np.abs(drawn["1f"].astype(int) - mine["1f"].astype(int)).mean() > 5.0


def test_flower_pictures_vary_and_keep_to_their_area() -> None:
    """Real sets' flowers show blossoms, one large flower, a bird, a figure, the sun or a
    leaf: each kind is drawn, in colour, inside the picture's area only, where the character and number
    (which tell the flower) are not."""
    rng = np.random.default_rng(0)
    area = fontfaces.FLOWER_PLACES[0][0]
    x0, y0, x1, y1 = area
    kinds = set()
    for _ in range(60):
        face = fontfaces._blank()
        kinds.add(fontfaces._picture(face, rng, area))
        inked = np.abs(face.astype(int) - fontfaces.PAPER).sum(axis=2) > 30
        assert inked[y0:y1, x0:x1].mean() > 0.01
        inked[y0:y1, x0:x1] = False
        assert not inked.any()
    assert kinds == set(fontfaces.PICTURES)


def test_some_styles_name_their_flowers_in_latin_letters(monkeypatch) -> None:
    """Sets sold abroad write PLUM, SPRING... under the picture in place of the character:
    such a style's eight flowers each carry their own word in the band under the picture,
    and the picture keeps above it."""
    monkeypatch.setattr(fontfaces, "WORD_P", 1.0)
    font = fontfaces.FONTS[NAMES[0].split("_")[1]]
    faces = fontfaces._flowers(font, np.random.default_rng(3))
    (x0, y0, x1, y1), _, _ = fontfaces.WORD_PLACE
    bands = []
    for face in faces.values():
        inked = np.abs(face.astype(int) - fontfaces.PAPER).sum(axis=2) > 60
        band = inked[y1 + 5 :, x0:x1]
        assert band.mean() > 0.03
        bands.append(band)
    assert all((bands[i] != bands[j]).mean() > 0.02 for i in range(8) for j in range(i))
    monkeypatch.setattr(fontfaces, "WORD_P", 0.0)
    plain = fontfaces._flowers(font, np.random.default_rng(3))
    assert any(not np.array_equal(plain[c], faces[c]) for c in faces)


def test_every_other_layout_draws_its_own_pips() -> None:
    """Most training scenes are font styles: were all their dots and bamboos a few drawn
    sets', a classifier would learn those sets' arrangements (six bamboos in three columns)
    rather than count, and read a set's six in two columns of three as 4s. Odd layouts
    draw them in a pip design; even ones keep their drawn style's."""
    stem = NAMES[0].split("_")[1]
    even, odd = style_faces(f"fontface_{stem}_0"), style_faces(f"fontface_{stem}_1")
    drawn = {s: style_faces(s) for s in fontfaces.DRAWN}

    def from_drawn(faces: dict, code: str) -> bool:
        return any(np.array_equal(faces[code], d[code]) for d in drawn.values())

    for code in ("2p", "6p", "9p", "2s", "6s", "8s"):
        assert from_drawn(even, code), code
        assert not from_drawn(odd, code), code
