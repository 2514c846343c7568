"""Which tile art styles train a model and which are kept to test it.

A model is only trustworthy on tile sets it has never seen if it is
measured on such sets, so two styles never enter a training mix:

- ``kde_traditional``: ivory faces with index numerals, all 42 faces;
- ``mahjax``: Japanese line art (34 faces, no flowers).

npm's ``riichi-mahjong-tiles`` (MIT, React components) is not taken as
training art either: it draws in colour the designs that ``mahjax``'s line
art traces (the same 1s peacock, the same 3m), so it would teach the
held-out set; nor is the GL-MahjongTile font (Gutenberg Labo, free to use,
in PyPI's ``mjx``), whose Unicode mahjong glyphs are those same drawings.

Every other style of the art cache trains (see `datasets.art`), and so do
the styles drawn here: `fonts` (`datasets.scene.fontfaces`), `pips`
(`datasets.scene.pipfaces`; `manypips` offers MANY_PIPS more pip designs, and any
`pipface_N` names one) and `index` (`datasets.scene.indexfaces`).
The `checkfonts` styles write with fonts no training mix uses; a run reads
them as unfamiliar writing (`train_classifier --check-render`).
"""

from __future__ import annotations

from pathlib import Path

from datasets.art import DEFAULT_CACHE, ArtError
from datasets.scene import fontfaces, indexfaces, pipfaces
from datasets.scene.faces import BUILTIN, available_styles

TRAIN_STYLES: tuple[str, ...] = (
    "kde_default", "kde_classic", "kde_jade", "gnome_smooth", "gnome_postmodern",
    "xmj_real", "xmj_dorothy", "unicode_symbola", "unicode_noto", "learner",
    "xmj_gnome", "xmj_gnome2", "mj_tiles", "unicode_hanamin", "unicode_unifont",
)  # fmt: skip
HELDOUT_STYLES: tuple[str, ...] = ("kde_traditional", "mahjax")
#: pip designs `manypips` offers, numbered after the `pips` styles
MANY_PIPS = 2000


def resolve_styles(spec: str, cache: Path = DEFAULT_CACHE) -> list[str]:
    """Style names from a comma list where `train` / `heldout` stand for the sets.

    Raises ArtError naming what is missing when a style is not installed.
    """
    names: list[str] = []
    for part in (p.strip() for p in spec.split(",")):
        if part == "train":
            names += TRAIN_STYLES
        elif part == "heldout":
            names += HELDOUT_STYLES
        elif part == "fonts":  # installed fonts, or their faces baked into the cache
            installed = fontfaces.style_names()
            baked = {s for s in available_styles(cache) if fontfaces.is_font_style(s)}
            names += installed + sorted(baked - set(installed))
        elif part == "checkfonts":  # fonts kept out of training, to check a run
            names += fontfaces.style_names(check=True)
        elif part == "pips":  # pip designs drawn by `datasets.scene.pipfaces`
            names += pipfaces.style_names()
        elif part == "manypips":  # a pip design a scene: no one drawing names a tile
            names += pipfaces.style_names(MANY_PIPS, pipfaces.COUNT)
        elif part == "index":  # training styles squeezed beside a large corner index
            names += indexfaces.style_names()
        elif part:
            names.append(part)
    if not names:
        raise ValueError("no style given")
    have = set(available_styles(cache)) | {BUILTIN} | set(fontfaces.style_names())
    have |= set(fontfaces.style_names(check=True))
    have |= set(indexfaces.style_names())
    missing = [n for n in names if n not in have and not pipfaces.is_pip_style(n)]
    if missing:
        raise ArtError(
            f"style(s) {', '.join(missing)} not in the art cache {cache}; "
            "run `python -m datasets.art install` (have: " + ", ".join(sorted(have)) + ")"
        )
    return list(dict.fromkeys(names))
