"""Tile sets whose characters, winds and dragons are written in system CJK fonts.

The classifier fails most on tile sets whose writing it has not seen: one
held-out set's 六 and 九, written small beside an index numeral, are read
as each other, its 伍 (a formal 5) as 九, its framed 白 as 7p. The drawn
styles of the art cache offer a handful of hands; the fonts installed with
the art (`datasets.art.APT_PACKAGES`: kai, ming, hei, fangsong, serif,
Japanese mincho and gothic faces, brush and pen hands) write the
same characters in other hands, sizes and layouts. Each `fontface_*` style
is one font with one layout drawn from its name (numeral size and form,
萬 or 万, a corner index, the frame of 白, ink colours); its dots and
bamboos come from a drawn training style, so every style is complete, or in
every other layout are drawn in a pip design of `datasets.scene.pipfaces`:
most training scenes' pips would otherwise be a few drawn sets', and a
classifier learned their arrangements (a set's six bamboos in two columns of
three read as 4s) rather than to count.

Its flowers are drawn here too, as sets print them: a picture of stems and
petals in several colours, different on every tile, with the tile's
character (梅 蘭 菊 竹 春 夏 秋 冬), or its name in Latin letters under the
picture, and often its number 1-4 in a corner.
The picture tells nothing, the character and number tell which flower:
unfamiliar flower art, read as a playing tile, is the commonest misreading
on held-out sets. Training only: pillow draws the glyphs.
"""

from __future__ import annotations

import zlib
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from datasets.art import FACE_H, FACE_W

#: font file and face index in it, per style stem; only installed ones are offered
FONTS: dict[str, tuple[str, int]] = {
    "kai": ("/usr/share/fonts/truetype/arphic/ukai.ttc", 0),
    "ming": ("/usr/share/fonts/truetype/arphic/uming.ttc", 0),
    "zenhei": ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0),
    "microhei": ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0),
    "cwheib": ("/usr/share/fonts/truetype/cwtex/cwheib.ttf", 0),  # heavy hei
    "cwfs": ("/usr/share/fonts/truetype/cwtex/cwfs.ttf", 0),  # fangsong
    "wenkai": ("/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Regular.ttf", 0),
    "ipamincho": ("/usr/share/fonts/opentype/ipafont-mincho/ipam.ttf", 0),  # Japanese
    "vlgothic": ("/usr/share/fonts/truetype/vlgothic/VL-Gothic-Regular.ttf", 0),
    # brush and pen hands, as older and hand-painted sets write: six of them, so that
    # each check font's drawn pips (its place among the stems, modulo len(DRAWN)) stay
    "gyosho": ("/usr/share/fonts/truetype/kouzan-mouhitsu/kouzan-mouhitsu-gyosho.ttf", 0),
    "mouhitsu": ("/usr/share/fonts/truetype/kouzan-mouhitsu/kouzan-mouhitsu.ttf", 0),
    "soseki": ("/usr/share/fonts/truetype/aoyagi-soseki/aoyagi-soseki.ttf", 0),
    "twkai": ("/usr/share/fonts/truetype/cns11643/TW-Kai-98_1.ttf", 0),  # Taiwan's standard kai
    "serifbold": ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc", 3),  # TC heavy serif
    "yozpen": ("/usr/share/fonts/truetype/yozvox-yozfont/YOzRE_.ttf", 0),  # Japanese pen
}
#: fonts no training mix writes with: scenes in them are writing a run has never
#: seen (`train_classifier --check-render`), to choose among checkpoints without
#: the held-out sets; the `checkfonts` styles of `datasets.styles`
CHECK_FONTS: dict[str, tuple[str, int]] = {
    "cwyen": ("/usr/share/fonts/truetype/cwtex/cwyen.ttf", 0),  # rounded
    "klee": ("/usr/share/fonts/truetype/klee/KleeOne-SemiBold.ttf", 0),  # Japanese pen
}
#: layouts per font
VARIANTS = 10
#: where the dots, bamboos and flowers of each style come from (training styles with all 42)
DRAWN = ("kde_default", "gnome_smooth", "xmj_real", "xmj_dorothy", "kde_classic", "kde_jade")
NUMERALS = "一二三四五六七八九"
FORMAL_FIVE = "伍"
WINDS = {"E": "東", "S": "南", "W": "西", "N": "北"}
#: flower codes' characters (scorer.tiles: 1f-4f 梅兰菊竹, 5f-8f 春夏秋冬)
FLOWERS = dict(zip([f"{n}f" for n in range(1, 9)], "梅蘭菊竹春夏秋冬", strict=True))
#: the number sets print on each: 梅兰竹菊 and 春夏秋冬 count 1-4 in that order
NUMBERS = {"1f": 1, "2f": 2, "3f": 4, "4f": 3, "5f": 1, "6f": 2, "7f": 3, "8f": 4}
#: where a style's flowers put their picture (x0, y0, x1, y1) and their character
#: (centre and size as fractions of the face): the character at the top left with the
#: picture below, the picture above with the character at the bottom right, or the
#: character down the left side with the picture to its right
FLOWER_PLACES = (
    ((20, 70, FACE_W - 20, FACE_H - 20), (0.25, 0.14), (0.3, 0.2)),
    ((20, 20, FACE_W - 20, FACE_H - 80), (0.72, 0.86), (0.34, 0.2)),
    ((FACE_W // 3, 20, FACE_W - 15, FACE_H - 20), (0.17, 0.45), (0.26, 0.3)),
)
#: sets sold abroad write the flower's name under its picture in place of the character
WORDS = dict(zip([f"{n}f" for n in range(1, 9)], (
    "PLUM", "ORCHID", "MUM", "BAMBOO", "SPRING", "SUMMER", "AUTUMN", "WINTER"), strict=True))  # fmt: skip
WORD_P = 0.3  # share of styles that do
WORD_PLACE = ((20, 20, FACE_W - 20, FACE_H - 70), (0.5, 0.89), (0.86, 0.12))
PETALS = [(60, 60, 200), (150, 90, 230), (40, 170, 230), (180, 80, 60), (200, 200, 240)]  # BGR
PAPER = (236, 240, 242)
INDEX_SIZE = (30 / FACE_W, 36 / FACE_H)  # a corner index's box, as fractions of the face
INKS = {  # BGR
    "black": (30, 30, 30),
    "blue": (140, 60, 20),
    "green": (40, 120, 30),
    "red": (30, 30, 190),
}


def style_names(check: bool = False) -> list[str]:
    """The font styles whose font is installed: training ones, or with `check` those
    of `CHECK_FONTS`."""
    return [
        f"fontface_{stem}_{k}"
        for stem, (path, _) in (CHECK_FONTS if check else FONTS).items()
        if Path(path).exists()
        for k in range(VARIANTS)
    ]


def is_font_style(style: str) -> bool:
    return style.startswith("fontface_")


def _glyph(text: str, font: tuple[str, int], px: int) -> np.ndarray:
    """The text drawn at `px` pixels, cropped to its ink: an alpha mask (0..1)."""
    from PIL import Image, ImageDraw, ImageFont

    face = ImageFont.truetype(font[0], px, index=font[1])
    box = face.getbbox(text)
    w, h = max(box[2] - box[0], 1), max(box[3] - box[1], 1)
    img = Image.new("L", (w + 4, h + 4), 0)
    ImageDraw.Draw(img).text((2 - box[0], 2 - box[1]), text, font=face, fill=255)
    return np.asarray(img, np.float32) / 255.0


def _paint(face: np.ndarray, mask: np.ndarray, ink, cx: float, cy: float, w: int, h: int) -> None:
    """Paint `mask` scaled to fit w x h, centred at (cx, cy), in `ink`."""
    mh, mw = mask.shape
    s = min(w / mw, h / mh)
    nw, nh = max(1, int(mw * s)), max(1, int(mh * s))
    m = cv2.resize(mask, (nw, nh), interpolation=cv2.INTER_AREA)
    x0, y0 = int(cx - nw / 2), int(cy - nh / 2)
    x0, y0 = max(0, min(x0, FACE_W - nw)), max(0, min(y0, FACE_H - nh))
    region = face[y0 : y0 + nh, x0 : x0 + nw].astype(np.float32)
    a = m[..., None]
    face[y0 : y0 + nh, x0 : x0 + nw] = (region * (1 - a) + np.array(ink) * a).astype(np.uint8)


def _blank() -> np.ndarray:
    return np.full((FACE_H, FACE_W, 3), PAPER, np.uint8)


def _write(
    face: np.ndarray,
    text: str,
    font: tuple[str, int],
    ink: tuple[int, int, int],
    at: tuple[float, float],
    size: tuple[float, float],
    px: int = 160,
) -> None:
    """Write `text` in `ink`, fitted into `size` (fractions of the face) centred at `at`;
    `px` is the size the glyph is drawn at before it is fitted."""
    mask = _glyph(text, font, px)
    w, h = int(FACE_W * size[0]), int(FACE_H * size[1])
    _paint(face, mask, ink, FACE_W * at[0], FACE_H * at[1], w, h)


def _white_dragon(face: np.ndarray, rng: np.random.Generator, ink) -> None:
    """白: blank, a plain border, a double border or a chequered frame."""
    kind = int(rng.integers(4))
    m = int(rng.integers(22, 40))
    top, left, bottom, right = m + 8, m, FACE_H - m - 8, FACE_W - m
    if kind == 0:
        return
    t = int(rng.integers(4, 10))
    cv2.rectangle(face, (left, top), (right, bottom), ink, t)
    if kind == 2:
        g = t + int(rng.integers(6, 14))
        cv2.rectangle(face, (left + g, top + g), (right - g, bottom - g), ink, max(2, t // 2))
    if kind == 3:
        g = int(rng.integers(14, 24))
        cv2.rectangle(face, (left + g, top + g), (right - g, bottom - g), ink, max(2, t // 2))
        step = int(rng.integers(8, 14))
        for y in range(top, bottom, step):  # rungs across the frame's band
            cv2.line(face, (left, y), (left + g, y), ink, 2)
            cv2.line(face, (right - g, y), (right, y), ink, 2)
        for x in range(left, right, step):
            cv2.line(face, (x, top), (x, top + g), ink, 2)
            cv2.line(face, (x, bottom - g), (x, bottom), ink, 2)


#: the kinds of picture a flower tile may show (`_picture`)
PICTURES = ("blossoms", "head", "bird", "figure", "sun", "leaf")


def _picture(face: np.ndarray, rng: np.random.Generator, area: tuple[int, int, int, int]) -> str:
    """A flower tile's picture in `area` (x0, y0, x1, y1), of a kind drawn at random: sets
    print stems and small blossoms, one large flower head, a bird on a branch, a figure,
    the sun or a leaf of the season; only the character and number tell which flower it is. Nothing is
    drawn outside the area, where they are written. Returns the kind drawn."""
    kind = PICTURES[int(rng.integers(len(PICTURES)))]
    canvas = face.copy()
    if kind == "head":
        _stems(canvas, rng, area, 1)
        _head(canvas, rng, area)
    elif kind == "bird":
        bird(canvas, rng, area)
    elif kind == "figure":
        _figure(canvas, rng, area)
    elif kind == "sun":
        _sun(canvas, rng, area)
    elif kind == "leaf":
        _leaf(canvas, rng, area)
    else:
        _stems(canvas, rng, area, int(rng.integers(2, 5)))
        _blossoms(canvas, rng, area)
    x0, y0, x1, y1 = area
    face[y0:y1, x0:x1] = canvas[y0:y1, x0:x1]
    return kind


def _stems(face: np.ndarray, rng: np.random.Generator, area, count: int) -> None:
    """`count` curved stems with leaves, rising from the area's foot."""
    x0, y0, x1, y1 = area
    stem = INKS[str(rng.choice(["green", "black"]))]
    for _ in range(count):
        xs = rng.uniform(x0, x1) + np.cumsum(rng.uniform(-1, 1, 4) * (x1 - x0) / 8)
        ys = np.linspace(y1, rng.uniform(y0, (y0 + y1) / 2), 4)  # from the foot upwards
        pts = np.stack([np.clip(xs, x0, x1), ys], axis=1).astype(np.int32)
        cv2.polylines(face, [pts], False, stem, int(rng.integers(2, 6)), cv2.LINE_AA)
        for x, y in pts[1:]:
            axes = (int(rng.integers(6, 14)), int(rng.integers(3, 6)))
            angle = float(rng.uniform(0, 180))
            cv2.ellipse(face, (int(x), int(y)), axes, angle, 0, 360, INKS["green"], -1, cv2.LINE_AA)


def _blossoms(face: np.ndarray, rng: np.random.Generator, area) -> None:
    """Small five-petalled blossoms scattered over the area."""
    x0, y0, x1, y1 = area
    for _ in range(int(rng.integers(2, 7))):
        c = (int(rng.uniform(x0, x1)), int(rng.uniform(y0, y1)))
        r = int(rng.integers(5, 14))
        ink = PETALS[int(rng.integers(len(PETALS)))]
        for k in range(5):
            a = 2 * np.pi * k / 5
            p = (int(c[0] + r * np.cos(a)), int(c[1] + r * np.sin(a)))
            cv2.circle(face, p, max(3, r * 2 // 3), ink, -1, cv2.LINE_AA)
        cv2.circle(face, c, max(2, r // 3), (40, 190, 230), -1, cv2.LINE_AA)


def _head(face: np.ndarray, rng: np.random.Generator, area) -> None:
    """One large round flower head of many narrow petals, in the area's upper part."""
    x0, y0, x1, y1 = area
    r = int(min(x1 - x0, y1 - y0) * rng.uniform(0.25, 0.42))
    c = (int((x0 + x1) / 2 + rng.uniform(-0.1, 0.1) * (x1 - x0)), int(y0 + r + 4))
    ink = PETALS[int(rng.integers(len(PETALS)))]
    n = int(rng.integers(10, 24))
    for k in range(n):
        a = 2 * np.pi * k / n
        end = (int(c[0] + r * np.cos(a)), int(c[1] + r * np.sin(a)))
        cv2.line(face, c, end, ink, int(rng.integers(3, 7)), cv2.LINE_AA)
    cv2.circle(face, c, max(3, r // 4), (40, 190, 230), -1, cv2.LINE_AA)


def bird(face: np.ndarray, rng: np.random.Generator, area) -> None:
    """A bird perched on a branch: body, head, beak and tail."""
    x0, y0, x1, y1 = area
    w, h = x1 - x0, y1 - y0
    ink = PETALS[int(rng.integers(len(PETALS)))]
    cx, cy = int(x0 + w * rng.uniform(0.35, 0.65)), int(y0 + h * rng.uniform(0.35, 0.55))
    bw, bh = int(w * rng.uniform(0.18, 0.3)), int(h * rng.uniform(0.1, 0.16))
    cv2.line(face, (x0, cy + bh), (x1, cy + bh + int(h * 0.1)), (40, 70, 110), 4, cv2.LINE_AA)
    cv2.ellipse(face, (cx, cy), (bw, bh), float(rng.uniform(-25, 25)), 0, 360, ink, -1, cv2.LINE_AA)
    head = (cx + bw, cy - bh)
    cv2.circle(face, head, max(5, bh * 2 // 3), ink, -1, cv2.LINE_AA)
    beak = np.array([[head[0] + bh // 2, head[1] - 3], [head[0] + bh + 8, head[1]],
                     [head[0] + bh // 2, head[1] + 4]], np.int32)  # fmt: skip
    cv2.fillPoly(face, [beak], (40, 150, 220), cv2.LINE_AA)
    for k in range(3):
        tail = (cx - bw - int(w * 0.15), cy + int(h * (0.02 + 0.06 * k)))
        cv2.line(face, (cx - bw // 2, cy), tail, INKS["black"], 3, cv2.LINE_AA)


def _figure(face: np.ndarray, rng: np.random.Generator, area) -> None:
    """A standing figure in a robe, as season tiles show people at work."""
    x0, y0, x1, y1 = area
    w, h = x1 - x0, y1 - y0
    cx = int(x0 + w * rng.uniform(0.35, 0.65))
    robe = PETALS[int(rng.integers(len(PETALS)))]
    top, foot = int(y0 + h * 0.3), int(y1 - h * 0.05)
    half = int(w * rng.uniform(0.15, 0.25))
    cv2.fillPoly(face, [np.array([[cx - half // 3, top], [cx + half // 3, top],
                                  [cx + half, foot], [cx - half, foot]], np.int32)], robe)  # fmt: skip
    cv2.circle(face, (cx, top - int(h * 0.08)), max(6, int(h * 0.08)), (120, 170, 220), -1)
    arm = int(rng.choice([-1, 1]))
    hand = (cx + arm * int(w * 0.3), top + int(h * rng.uniform(0.0, 0.2)))
    cv2.line(face, (cx, top + int(h * 0.08)), hand, robe, 5, cv2.LINE_AA)
    cv2.line(face, hand, (hand[0], foot), (40, 70, 110), 3, cv2.LINE_AA)  # a staff or a hoe


def _sun(face: np.ndarray, rng: np.random.Generator, area) -> None:
    """A sun: a disc ringed by short rays."""
    x0, y0, x1, y1 = area
    r = int(min(x1 - x0, y1 - y0) * rng.uniform(0.14, 0.22))
    c = (int((x0 + x1) / 2), int((y0 + y1) / 2 + rng.uniform(-0.1, 0.1) * (y1 - y0)))
    ink = PETALS[int(rng.integers(len(PETALS)))]
    n = int(rng.integers(8, 16))
    for k in range(n):
        a = 2 * np.pi * k / n
        p0 = (int(c[0] + r * 1.3 * np.cos(a)), int(c[1] + r * 1.3 * np.sin(a)))
        p1 = (int(c[0] + r * 1.9 * np.cos(a)), int(c[1] + r * 1.9 * np.sin(a)))
        cv2.line(face, p0, p1, ink, int(rng.integers(2, 5)), cv2.LINE_AA)
    cv2.circle(face, c, r, (40, 190, 230), -1, cv2.LINE_AA)


def _leaf(face: np.ndarray, rng: np.random.Generator, area) -> None:
    """A lobed leaf (five to seven points) on a short stalk."""
    x0, y0, x1, y1 = area
    r = min(x1 - x0, y1 - y0) * rng.uniform(0.3, 0.45)
    c = np.array([(x0 + x1) / 2, (y0 + y1) / 2 - r * 0.1])
    lobes = int(rng.integers(5, 8))
    a = np.linspace(-np.pi, np.pi, 2 * lobes, endpoint=False) + np.pi / 2
    radius = np.where(np.arange(2 * lobes) % 2 == 0, r, r * rng.uniform(0.4, 0.6))
    pts = np.stack([c[0] + radius * np.cos(a), c[1] - radius * np.sin(a)], axis=1)
    ink = (PETALS + [INKS["green"]])[int(rng.integers(len(PETALS) + 1))]
    cv2.fillPoly(face, [pts.astype(np.int32)], ink, cv2.LINE_AA)
    stalk = (int(c[0]), int(min(y1 - 2, c[1] + r * 1.1)))
    cv2.line(face, (int(c[0]), int(c[1])), stalk, (40, 70, 110), 3, cv2.LINE_AA)


def _flowers(font: tuple[str, int], rng: np.random.Generator) -> dict[str, np.ndarray]:
    """The eight flowers of one style: a picture, the character and the number placed
    as the style places them (character in a top or bottom corner or down one side)."""
    place = int(rng.integers(len(FLOWER_PLACES)))
    char_ink = INKS[str(rng.choice(["red", "blue", "black", "green"]))]
    number = rng.random() < 0.7
    character = not number or rng.random() < 0.85  # one of the two tells the flower
    lan = str(rng.choice(["蘭", "兰"]))
    word = rng.random() < WORD_P
    area, at, size = WORD_PLACE if word else FLOWER_PLACES[place]
    faces = {}
    for code, char in FLOWERS.items():
        face = _blank()
        _picture(face, rng, area)
        if word:
            _write(face, WORDS[code], font, char_ink, at, size, 60)
        elif character:
            _write(face, lan if code == "2f" else char, font, char_ink, at, size)
        if number:
            _write(face, str(NUMBERS[code]), font, INKS["red"], (0.84, 0.12), INDEX_SIZE, 60)
        faces[code] = face
    return faces


@lru_cache(maxsize=64)
def font_faces(style: str) -> dict[str, np.ndarray]:
    """The faces of one font style (code -> BGR FACE_H x FACE_W), all 42 codes."""
    from datasets.scene.faces import style_faces

    _, stem, k = style.split("_")
    stems = {**FONTS, **CHECK_FONTS}
    font = stems[stem]
    rng = np.random.default_rng(zlib.crc32(style.encode()))
    faces = dict(style_faces(DRAWN[(list(stems).index(stem) + int(k)) % len(DRAWN)]))
    num_ink = INKS[str(rng.choice(["black", "blue", "black"]))]
    wind_ink = INKS[str(rng.choice(["black", "blue", "green"]))]
    wan = str(rng.choice(["萬", "萬", "万"]))
    formal_five = rng.random() < 0.3
    small = rng.random() < 0.4  # numeral small, the top half beside an index
    index = rng.random() < 0.5
    frame_ink = INKS[str(rng.choice(["blue", "black"]))]
    red = INKS["red"]
    for n in range(1, 10):
        face = _blank()
        digit = FORMAL_FIVE if n == 5 and formal_five else NUMERALS[n - 1]
        w, h = (0.45, 0.28) if small else (0.7, 0.36)
        _write(face, digit, font, num_ink, (0.5, 0.27), (w, h), 120)
        _write(face, wan, font, red, (0.5, 0.68), (0.72, 0.42), 120)
        if index:
            _write(face, str(n), font, red, (0.84, 0.12), INDEX_SIZE, 60)
        faces[f"{n}m"] = face
    for code, char in WINDS.items():
        face = _blank()
        _write(face, char, font, wind_ink, (0.5, 0.5), (0.78, 0.7))
        if index:
            _write(face, code, font, red, (0.84, 0.12), INDEX_SIZE, 60)
        faces[code] = face
    for code, char, ink in (("C", "中", red), ("F", "發", INKS["green"])):
        face = _blank()
        _write(face, char, font, ink, (0.5, 0.5), (0.78, 0.72))
        faces[code] = face
    face = _blank()
    _white_dragon(face, rng, frame_ink)
    faces["P"] = face
    faces.update(_flowers(font, rng))
    if int(k) % 2 and stem in FONTS:  # half the training layouts draw their pips too
        from datasets.scene.pipfaces import drawn_pips

        faces.update(drawn_pips(np.random.default_rng(zlib.crc32(f"{style} pips".encode()))))
    return faces
