"""Tile face artwork: install the free tile sets and cache one PNG per face.

The renderer needs every face (42 codes + back) of several tile sets as
plain images of one size, so it never deals with SVG groups, sprite sheets
or fonts. `python -m datasets.art install` installs the sources (Debian
packages, two PyPI wheels downloaded without installing, one npm tarball)
and extracts them into the cache; nothing here is ever written into the
repository, because the artwork may not be shipped with the project.

Cache layout (default ``~/.cache/mcr/art``, or ``--cache``)::

    index.json            {"face_size": [w, h], "styles": {style: {
                             "faces": {code: "faces/<style>/<code>.png"},
                             "missing": [codes], "has_flowers": bool,
                             "source": "..."}}}
    faces/<style>/<code>.png   opaque BGR face, FACE_W x FACE_H

Paths in the index are relative to the cache folder.
"""

from __future__ import annotations

import argparse
import base64
import glob
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
import zipfile
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from scorer.tiles import BACK, CODES

FACE_W, FACE_H = 192, 256
DEFAULT_CACHE = Path(os.environ.get("MCR_CACHE", Path.home() / ".cache" / "mcr")) / "art"
APT_PACKAGES = (
    "kdegames-mahjongg-data-kf5",
    "librsvg2-bin",
    "gnome-mahjongg",
    "xmahjongg",
    "fonts-symbola",
    "fonts-noto-core",
    "fonts-arphic-ukai",  # CJK fonts the `fontface_*` styles write with (datasets.scene.fontfaces)
    "fonts-arphic-uming",
    "fonts-wqy-zenhei",
    "fonts-wqy-microhei",
    "fonts-cwtex-heib",
    "fonts-cwtex-fs",
    "fonts-lxgw-wenkai",
    "fonts-ipafont-mincho",
    "fonts-vlgothic",
    "fonts-kouzan-mouhitsu",  # brush hands
    "fonts-aoyagi-soseki",
    "fonts-cns11643-kai",
    "fonts-noto-cjk",
    "fonts-yozvox-yozfont-edu",  # pen hand
    "fonts-cwtex-yen",  # the check fonts (fontfaces.CHECK_FONTS), never trained on
    "fonts-klee",
    "fonts-hanazono",  # Hanazono Mincho and GNU Unifont draw the Unicode mahjong block
    "fonts-unifont",
)
PIP_PACKAGES = ("mahjong-learner", "mahjax")
NPM_TARBALLS = ("https://registry.npmjs.org/mj-tiles/-/mj-tiles-0.2.0.tgz",)
KDE_DIR = Path("/usr/share/kmahjongglib/tilesets")
GNOME_DIR = Path("/usr/share/gnome-mahjongg/themes")
XMJ_DIR = Path("/usr/share/games/xmahjongg/tiles")
FONTS = {
    "unicode_symbola": "/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf",
    "unicode_noto": "/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf",
    "unicode_hanamin": "/usr/share/fonts/truetype/hanazono/HanaMinA.ttf",
    "unicode_unifont": "/usr/share/fonts/opentype/unifont/unifont_upper.otf",
}
IVORY = (226, 240, 246)  # BGR

Face = np.ndarray
Extractor = Callable[[Path], dict[str, Face]]


class ArtError(RuntimeError):
    """The artwork could not be installed or found."""


# ---------------------------------------------------------------- helpers


def _composite(rgba: np.ndarray, bg: tuple[int, int, int]) -> np.ndarray:
    """Flatten a BGRA image onto a solid colour."""
    if rgba.ndim == 2:
        return cv2.cvtColor(rgba, cv2.COLOR_GRAY2BGR)
    if rgba.shape[2] == 3:
        return rgba
    a = rgba[..., 3:4].astype(np.float32) / 255.0
    out = rgba[..., :3].astype(np.float32) * a + np.array(bg, np.float32) * (1 - a)
    return out.astype(np.uint8)


def _ink_bbox(mask: np.ndarray) -> tuple[int, int, int, int] | None:
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return None
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


def fit_glyph(rgba: np.ndarray, bg: tuple[int, int, int], margin: float = 0.1) -> Face:
    """Centre a transparent glyph's ink on a face of the cache size.

    The glyph keeps its aspect ratio; `margin` is the free border as a
    fraction of the face, like the blank rim of a real engraved face.
    """
    box = _ink_bbox(rgba[..., 3] > 20)
    if box is None:
        raise ArtError("glyph has no ink")
    x1, y1, x2, y2 = box
    crop = rgba[y1:y2, x1:x2]
    avail_w, avail_h = FACE_W * (1 - 2 * margin), FACE_H * (1 - 2 * margin)
    scale = min(avail_w / crop.shape[1], avail_h / crop.shape[0])
    w, h = max(1, round(crop.shape[1] * scale)), max(1, round(crop.shape[0] * scale))
    crop = cv2.resize(crop, (w, h), interpolation=cv2.INTER_AREA)
    face = np.zeros((FACE_H, FACE_W, 4), np.uint8)
    ox, oy = (FACE_W - w) // 2, (FACE_H - h) // 2
    face[oy : oy + h, ox : ox + w] = crop
    return _composite(face, bg)


def _blank(bg: tuple[int, int, int]) -> Face:
    face = np.empty((FACE_H, FACE_W, 3), np.uint8)
    face[:] = bg
    return face


def fit_face(bgr: np.ndarray) -> Face:
    """Resize a cropped face (with its own background) to the cache size."""
    interp = cv2.INTER_AREA if bgr.shape[1] > FACE_W else cv2.INTER_CUBIC
    return cv2.resize(bgr, (FACE_W, FACE_H), interpolation=interp)


def fit_tile(bgr: np.ndarray, inset_x: float, inset_y: float) -> Face:
    """`fit_face` of a whole drawn tile, less its outline: `inset_x`/`inset_y` of the
    width/height cut off each side."""
    h, w = bgr.shape[:2]
    return fit_face(bgr[round(inset_y * h) : round((1 - inset_y) * h),
                        round(inset_x * w) : round((1 - inset_x) * w)])  # fmt: skip


def _rsvg(svg: Path, out_png: Path, group: str | None = None, zoom: float = 3.0) -> np.ndarray:
    cmd = ["rsvg-convert", "-z", str(zoom), "-o", str(out_png)]
    if group:
        cmd += ["-i", group]
    subprocess.run([*cmd, str(svg)], check=True, capture_output=True)
    img = cv2.imread(str(out_png), cv2.IMREAD_UNCHANGED)
    if img is None:
        raise ArtError(f"rsvg-convert produced nothing for {svg} {group}")
    return img


# ---------------------------------------------------------------- KDE

KDE_STYLES = ("default", "classic", "traditional", "jade")


def _kde_groups(flower_swap: bool) -> dict[str, str]:
    groups = {}
    for n in range(1, 10):
        groups[f"{n}m"] = f"CHARACTER_{n}"
        groups[f"{n}p"] = f"ROD_{n}"
        groups[f"{n}s"] = f"BAMBOO_{n}"
    groups.update({"N": "WIND_1", "S": "WIND_2", "E": "WIND_3", "W": "WIND_4"})
    groups.update({"P": "DRAGON_1", "F": "DRAGON_2", "C": "DRAGON_3"})
    flowers = ["FLOWER_2", "FLOWER_1"] if flower_swap else ["FLOWER_1", "FLOWER_2"]
    groups.update({"1f": flowers[0], "2f": flowers[1], "3f": "FLOWER_3", "4f": "FLOWER_4"})
    groups.update({f"{n + 4}f": f"SEASON_{n}" for n in range(1, 5)})
    return groups


def _kde_tile_colour(tile: np.ndarray) -> tuple[int, int, int]:
    """The face colour of a blank KDE tile body: the median of its centre."""
    h, w = tile.shape[:2]
    centre = tile[h // 3 : 2 * h // 3, w // 3 : 2 * w // 3, :3].reshape(-1, 3)
    return tuple(int(v) for v in np.median(centre, axis=0))


def extract_kde(style: str, tmp: Path) -> dict[str, Face]:
    svg = tmp / f"kde_{style}.svg"
    with gzip.open(KDE_DIR / f"{style}.svgz", "rb") as src:
        svg.write_bytes(src.read())
    bg = _kde_tile_colour(_rsvg(svg, tmp / "tile.png", "TILE_1", 2.0))
    faces = {}
    for code_, group in _kde_groups(flower_swap=(style == "classic")).items():
        glyph = _rsvg(svg, tmp / "g.png", group, 3.0)
        if code_ == "P" and _ink_bbox(glyph[..., 3] > 20) is None:
            faces[code_] = _blank(bg)  # a plain white dragon
            continue
        faces[code_] = fit_glyph(glyph, bg, margin=0.09)
    return faces


# ---------------------------------------------------------------- GNOME

# column of each code in the 43-column sprite sheets
GNOME_COLUMNS: dict[str, int] = {
    **{f"{n}p": n - 1 for n in range(1, 10)},
    "N": 9, "W": 10, "S": 11, "E": 12, "C": 13, "F": 14,
    **{f"{n}m": 14 + n for n in range(1, 10)},
    **{f"{n}s": 23 + n for n in range(1, 10)},
    "2f": 33, "3f": 34, "1f": 35, "4f": 36, "P": 37,
    **{f"{n + 4}f": 37 + n for n in range(1, 5)},
}  # fmt: skip


def _sheet_faces(sheet: np.ndarray, columns: dict[str, int], inset: tuple[float, ...]) -> dict:
    """Cut faces from a one-row sprite strip; `inset` = left, top, right, bottom fractions."""
    cw = sheet.shape[1] / 43
    h = sheet.shape[0]
    li, ti, ri, bi = inset
    faces = {}
    for code_, col in columns.items():
        x0 = col * cw
        crop = sheet[
            round(ti * h) : round((1 - bi) * h), round(x0 + li * cw) : round(x0 + (1 - ri) * cw)
        ]
        faces[code_] = fit_face(crop)
    return faces


def extract_gnome_smooth(tmp: Path) -> dict[str, Face]:
    img = cv2.imread(str(GNOME_DIR / "smooth.png"), cv2.IMREAD_UNCHANGED)
    row = _composite(img[: img.shape[0] // 2], IVORY)
    return _sheet_faces(row, GNOME_COLUMNS, (0.13, 0.03, 0.03, 0.12))


def extract_gnome_postmodern(tmp: Path) -> dict[str, Face]:
    """Postmodern: its flowers are unlabelled pictures and its white dragon a logo: left out."""
    img = _rsvg(GNOME_DIR / "postmodern.svg", tmp / "pm.png", None, 3.0)
    row = _composite(img[: img.shape[0] // 2], IVORY)
    cols = {c: i for c, i in GNOME_COLUMNS.items() if not c.endswith("f") and c != "P"}
    return _sheet_faces(row, cols, (0.15, 0.03, 0.04, 0.12))


# ---------------------------------------------------------------- xmahjongg


def _read_gif(path: Path) -> np.ndarray:
    from PIL import Image

    with Image.open(path) as im:
        return cv2.cvtColor(np.asarray(im.convert("RGB")), cv2.COLOR_RGB2BGR)


XMJ_REAL_GRID: dict[str, tuple[int, int]] = {
    **{f"{n}p": (0, n - 1) for n in range(1, 10)},
    **{f"{n}s": (1, n - 1) for n in range(1, 10)},
    **{f"{n}m": (2, n - 1) for n in range(1, 10)},
    **{f"{n + 4}f": (3, n - 1) for n in range(1, 5)},
    "N": (3, 4), "S": (3, 5), "E": (3, 6), "W": (3, 7),
    **{f"{n}f": (4, n - 1) for n in range(1, 5)},
    "F": (4, 4), "P": (4, 5), "C": (4, 6),
}  # fmt: skip


def _grid_faces(
    img: np.ndarray,
    grid: dict[str, tuple[int, int]],
    cols: int,
    rows: int,
    x_span: tuple[float, float],
    y_span: tuple[float, float],
) -> dict[str, Face]:
    """Cut the faces out of a sprite sheet of equal cells.

    `x_span`/`y_span` are the part of each cell (as fractions) that holds
    the face, leaving out the sheet's drawn tile edges and index labels.
    """
    cw, ch = img.shape[1] / cols, img.shape[0] / rows
    faces = {}
    for code_, (r, c) in grid.items():
        x0, y0 = c * cw, r * ch
        crop = img[
            round(y0 + y_span[0] * ch) : round(y0 + y_span[1] * ch),
            round(x0 + x_span[0] * cw) : round(x0 + x_span[1] * cw),
        ]
        faces[code_] = fit_face(crop)
    return faces


def extract_xmj_real(tmp: Path) -> dict[str, Face]:
    """real.gif: a photograph of a tile set, 9 x 5 cells."""
    img = _read_gif(XMJ_DIR / "real.gif")
    return _grid_faces(img, XMJ_REAL_GRID, 9, 5, (0.06, 0.94), (0.05, 0.95))


XMJ_DOROTHY: dict[str, tuple[int, int]] = {
    **{f"{n}p": (0, n - 1) for n in range(1, 10)},
    "N": (0, 9), "W": (0, 10), "S": (0, 11), "E": (0, 12), "C": (0, 13), "F": (0, 14),
    **{f"{n}m": (0, 14 + n) for n in range(1, 7)},
    "7m": (1, 0), "8m": (1, 1), "9m": (1, 2),
    **{f"{n}s": (1, 2 + n) for n in range(1, 10)},
    "5f": (1, 12), "6f": (1, 13), "7f": (1, 14), "8f": (1, 15), "P": (1, 16),
    "4f": (1, 17), "2f": (1, 18), "1f": (1, 19), "3f": (1, 20),
}  # fmt: skip


def extract_xmj_dorothy(tmp: Path) -> dict[str, Face]:
    """dorothys.gif: a Western set with English index labels, 21 x 4 cells of 64 x 80."""
    img = _read_gif(XMJ_DIR / "dorothys.gif")
    return _grid_faces(img, XMJ_DOROTHY, 21, 4, (0.14, 0.96), (0.04, 0.86))


XMJ_GNOME: dict[str, tuple[int, int]] = {
    code_: cell for code_, cell in XMJ_DOROTHY.items() if not code_.endswith("f")
}  # its flower cells hold calligraphy that names no MCR flower: left out
XMJ_GNOME2: dict[str, tuple[int, int]] = {
    **{f"{n}s": (0, n - 1) for n in range(1, 10)},
    **{c: XMJ_DOROTHY[c] for c in ("N", "W", "S", "E", "C", "F", "P")},
    **{f"{n}m": XMJ_DOROTHY[f"{n}m"] for n in range(1, 10)},
    **{f"{n}p": (1, 2 + n) for n in range(1, 10)},
}  # fmt: skip


def extract_xmj_gnome(sheet: str, grid: dict[str, tuple[int, int]]) -> dict[str, Face]:
    """gnome.gif / gnome2.gif: small pixel sets with simplified 万, 21 x 4 cells of 40 x 56.

    Only the top two rows (light faces) are used; their flower cells carry no
    picture of an MCR flower, so flowers are left out.
    """
    img = _read_gif(XMJ_DIR / sheet)
    return _grid_faces(img, grid, 21, 4, (0.12, 0.94), (0.03, 0.88))


# ---------------------------------------------------------------- Unicode


def _unicode_codes() -> dict[str, int]:
    cps = {"E": 0x1F000, "S": 0x1F001, "W": 0x1F002, "N": 0x1F003}
    cps.update({"C": 0x1F004, "F": 0x1F005, "P": 0x1F006})
    for n in range(1, 10):
        cps[f"{n}m"] = 0x1F006 + n
        cps[f"{n}s"] = 0x1F00F + n
        cps[f"{n}p"] = 0x1F018 + n
    cps.update({"1f": 0x1F022, "2f": 0x1F023, "4f": 0x1F024, "3f": 0x1F025})
    cps.update({f"{n + 4}f": 0x1F025 + n for n in range(1, 5)})
    cps[BACK] = 0x1F02B
    return cps


def extract_unicode(font_path: str, tmp: Path) -> dict[str, Face]:
    """Line drawings of the Unicode mahjong block; the drawn tile outline is cut off."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(font_path, 400)
    faces = {}
    for code_, cp in _unicode_codes().items():
        canvas = Image.new("L", (700, 700), 0)
        ImageDraw.Draw(canvas).text((50, 50), chr(cp), font=font, fill=255)
        ink = np.asarray(canvas)
        box = _ink_bbox(ink > 40)
        if box is None:
            continue
        x1, y1, x2, y2 = box
        w, h = x2 - x1, y2 - y1
        if h < 1.15 * w:  # not a tile-shaped glyph (a notdef box): skip
            continue
        dx, dy = round(0.08 * w), round(0.06 * h)
        inner = ink[y1 + dy : y2 - dy, x1 + dx : x2 - dx]
        face = np.empty((*inner.shape, 3), np.uint8)
        ink_f = inner.astype(np.float32)[..., None] / 255.0
        face[:] = (np.array(IVORY, np.float32) * (1 - ink_f) + 30 * ink_f).astype(np.uint8)
        if code_ == BACK:
            continue  # a back drawn as hatching is no use: backs are procedural
        faces[code_] = fit_face(face)
    return faces


# ---------------------------------------------------------------- PyPI wheels


def _downloaded(pattern: str, downloads: Path) -> Path:
    found = sorted(downloads.glob(pattern))
    if not found:
        raise ArtError(f"{pattern} not in {downloads}: run `python -m datasets.art install`")
    return found[-1]


LEARNER_NAMES = {
    **{f"{n}m": f"Man{n}" for n in range(1, 10)},
    **{f"{n}p": f"Pin{n}" for n in range(1, 10)},
    **{f"{n}s": f"Sou{n}" for n in range(1, 10)},
    "E": "Ton", "S": "Nan", "W": "Shaa", "N": "Pei", "C": "Chun", "F": "Hatsu", "P": "Haku",
}  # fmt: skip


def extract_learner(downloads: Path, tmp: Path) -> dict[str, Face]:
    whl = _downloaded("mahjong_learner-*.whl", downloads)
    faces = {}
    with zipfile.ZipFile(whl) as zf:
        for code_, name in LEARNER_NAMES.items():
            data = np.frombuffer(zf.read(f"mahjong_learner/tiles_img/{name}.png"), np.uint8)
            img = cv2.imdecode(data, cv2.IMREAD_UNCHANGED)
            if code_ == "P":  # blank white dragon: an empty face of the set's colour
                faces[code_] = _blank(IVORY)
                continue
            faces[code_] = fit_glyph(img, IVORY, margin=0.1)
    return faces


MAHJAX_NAMES = {
    **{f"{n}{s}": f"{n}{s}" for n in range(1, 10) for s in "mps"},
    "E": "east", "S": "south", "W": "west", "N": "north", "C": "rd", "F": "gd", "P": "white",
}  # fmt: skip


def extract_mahjax(downloads: Path, tmp: Path) -> dict[str, Face]:
    """mahjax's Japanese line-art set; each SVG is a whole tile with its outline."""
    whl = _downloaded("mahjax-*.whl", downloads)
    faces = {}
    with zipfile.ZipFile(whl) as zf:
        for code_, name in MAHJAX_NAMES.items():
            svg = tmp / f"mx_{name}.svg"
            svg.write_bytes(zf.read(f"mahjax/_src/assets/tiles/ja/{name}.svg"))
            img = _rsvg(svg, tmp / "mx.png", None, 4.0)
            faces[code_] = fit_tile(_composite(img, IVORY), 0.09, 0.07)
    return faces


# mj-tiles' own parser names 5z 白 and 6z 發, but its pictures are the other way round:
# 5z shows 發 and 6z a blank face, so the faces are taken by what they show
MJ_TILES_NAMES = {
    **{f"{n}{s}": f"{n}{s}" for n in range(1, 10) for s in "mps"},
    "E": "1z", "S": "2z", "W": "3z", "N": "4z", "P": "6z", "F": "5z", "C": "7z",
}  # fmt: skip


def extract_mj_tiles(downloads: Path, tmp: Path) -> dict[str, Face]:
    """npm mj-tiles (MIT): a Japanese set of small 66 x 90 WebP tiles inlined as data URIs."""
    tgz = _downloaded("mj-tiles-*.tgz", downloads)
    with tarfile.open(tgz) as tf:
        member = tf.extractfile("package/dist/assets/generated.js")
        if member is None:
            raise ArtError(f"no generated.js in {tgz}")
        js = member.read().decode()
    upright = js.split("export const tilesRotated")[0]
    uris = dict(re.findall(r"'([^']+)': 'data:image/\w+;base64,([^']+)'", upright))
    faces = {}
    for code_, name in MJ_TILES_NAMES.items():
        img = cv2.imdecode(
            np.frombuffer(base64.b64decode(uris[name]), np.uint8), cv2.IMREAD_UNCHANGED
        )
        faces[code_] = fit_tile(_composite(img, IVORY), 0.07, 0.05)
    return faces


# ---------------------------------------------------------------- driver


def _extractors(downloads: Path) -> dict[str, tuple[str, Extractor]]:
    ex: dict[str, tuple[str, Extractor]] = {}
    for s in KDE_STYLES:
        ex[f"kde_{s}"] = (f"KDE {KDE_DIR}/{s}.svgz", lambda t, s=s: extract_kde(s, t))
    ex["gnome_smooth"] = (f"GNOME {GNOME_DIR}/smooth.png", extract_gnome_smooth)
    ex["gnome_postmodern"] = (f"GNOME {GNOME_DIR}/postmodern.svg", extract_gnome_postmodern)
    ex["xmj_real"] = (f"xmahjongg {XMJ_DIR}/real.gif", extract_xmj_real)
    ex["xmj_dorothy"] = (f"xmahjongg {XMJ_DIR}/dorothys.gif", extract_xmj_dorothy)
    ex["xmj_gnome"] = (
        f"xmahjongg {XMJ_DIR}/gnome.gif",
        lambda t: extract_xmj_gnome("gnome.gif", XMJ_GNOME),
    )
    ex["xmj_gnome2"] = (
        f"xmahjongg {XMJ_DIR}/gnome2.gif",
        lambda t: extract_xmj_gnome("gnome2.gif", XMJ_GNOME2),
    )
    for name, path in FONTS.items():
        ex[name] = (f"font {path}", lambda t, p=path: extract_unicode(p, t))
    ex["learner"] = ("PyPI mahjong-learner", lambda t: extract_learner(downloads, t))
    ex["mahjax"] = ("PyPI mahjax", lambda t: extract_mahjax(downloads, t))
    ex["mj_tiles"] = ("npm mj-tiles 0.2.0 (MIT)", lambda t: extract_mj_tiles(downloads, t))
    return ex


def extract(cache: Path = DEFAULT_CACHE, only: list[str] | None = None) -> dict:
    """Extract every available style into `cache`; returns the index written.

    A style whose source is not installed is reported and left out rather
    than failing the others.
    """
    cache.mkdir(parents=True, exist_ok=True)
    downloads = cache / "downloads"
    index_path = cache / "index.json"
    index = load_index(cache) if index_path.exists() else {"styles": {}}
    index["face_size"] = [FACE_W, FACE_H]
    for style, (source, fn) in _extractors(downloads).items():
        if only and style not in only:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            try:
                faces = fn(Path(tmp))
            except (OSError, ArtError, subprocess.CalledProcessError, KeyError) as exc:
                print(f"{style}: skipped ({exc})", file=sys.stderr)
                continue
        out = cache / "faces" / style
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        entry = {}
        for code_, face in faces.items():
            cv2.imwrite(str(out / f"{code_}.png"), face)
            entry[code_] = f"faces/{style}/{code_}.png"
        missing = [c for c in CODES if c not in entry and c != BACK]
        index["styles"][style] = {
            "faces": entry,
            "missing": missing,
            "has_flowers": all(f"{n}f" in entry for n in range(1, 9)),
            "source": source,
        }
        print(f"{style}: {len(entry)} faces, missing {missing or 'none'}")
    index_path.write_text(json.dumps(index, indent=1, sort_keys=True))
    return index


def load_index(cache: Path = DEFAULT_CACHE) -> dict:
    """The cache index; raises ArtError when the art is not installed."""
    path = Path(cache) / "index.json"
    if not path.exists():
        raise ArtError(f"no tile art at {cache}: run `python -m datasets.art install`")
    return json.loads(path.read_text())


def load_faces(style: str, cache: Path = DEFAULT_CACHE) -> dict[str, Face]:
    """All faces of one style as BGR arrays (code -> image)."""
    index = load_index(cache)
    if style not in index["styles"]:
        raise ArtError(f"style {style!r} not in the art cache (have: {sorted(index['styles'])})")
    faces = {}
    for code_, rel in index["styles"][style]["faces"].items():
        img = cv2.imread(str(Path(cache) / rel), cv2.IMREAD_COLOR)
        if img is None:
            raise ArtError(f"unreadable face {rel}")
        faces[code_] = img
    return faces


def install(cache: Path = DEFAULT_CACHE, apt: bool = True) -> dict:
    """Install the artwork packages, download the two wheels and the npm tarball, then extract."""
    if apt:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", *APT_PACKAGES], check=True, env=env)
    downloads = cache / "downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    if not glob.glob(str(downloads / "*.whl")) or len(glob.glob(str(downloads / "*.whl"))) < 2:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "-q",
                "--no-deps",
                "-d",
                str(downloads),
                *PIP_PACKAGES,
            ],
            check=True,
        )
    for url in NPM_TARBALLS:
        target = downloads / url.rsplit("/", 1)[1]
        if not target.exists():
            urllib.request.urlretrieve(url, target)
    return extract(cache)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m datasets.art", description=__doc__.split("\n")[0])
    ap.add_argument("action", choices=["install", "extract", "list"])
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="art cache folder")
    ap.add_argument("--no-apt", action="store_true", help="skip apt-get (packages already there)")
    ap.add_argument("--style", action="append", help="extract only this style (repeatable)")
    args = ap.parse_args(argv)
    try:
        if args.action == "install":
            install(args.cache, apt=not args.no_apt)
        elif args.action == "extract":
            extract(args.cache, args.style)
        else:
            for style, entry in load_index(args.cache)["styles"].items():
                print(f"{style}\t{len(entry['faces'])} faces\tflowers={entry['has_flowers']}")
    except (ArtError, subprocess.CalledProcessError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
