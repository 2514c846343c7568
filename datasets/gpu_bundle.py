"""Pack what a training run on a borrowed GPU machine needs into one small folder.

Such a machine starts bare and takes at most 64 MiB of files, so the bundle
holds the usable cmd-v4 training photos and a small valid subset re-encoded
as WebP, the tile art of the training styles (WebP faces, index rewritten),
and the checkpoints to continue from. `datasets/gpu_train.sh` renders
scenes there and trains. Run: `python -m datasets.gpu_bundle --out .gpu`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
from pathlib import Path

import cv2
import numpy as np

from datasets.art import DEFAULT_CACHE, ArtError, load_index
from datasets.cmdv4 import load_split
from datasets.label_check import usable
from datasets.scene import fontfaces
from datasets.styles import TRAIN_STYLES, resolve_styles
from scorer.tiles import BACK, CODES

FACE_QUALITY = 92  # WebP quality of the tile faces (the photos' is --quality)


def _webp(img: np.ndarray, dst: Path, quality: int) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    ok, buf = cv2.imencode(".webp", img, [cv2.IMWRITE_WEBP_QUALITY, quality])
    if not ok:
        raise RuntimeError(f"could not encode {dst}")
    dst.write_bytes(buf.tobytes())


def _webp_file(src: Path, dst: Path, quality: int) -> None:
    _webp(cv2.imread(str(src), cv2.IMREAD_COLOR), dst, quality)


def pack_cmd(out: Path, data: str | None, valid_images: int, quality: int) -> int:
    n = 0
    for split in ("train", "valid"):
        samples = load_split(split, data)
        if split == "train":
            samples = usable(samples)
        else:
            samples = samples[:: max(1, len(samples) // valid_images)]
        (out / split / "images").mkdir(parents=True, exist_ok=True)
        (out / split / "labels").mkdir(parents=True, exist_ok=True)
        for s in samples:
            _webp_file(
                s.image_path, out / split / "images" / (s.image_path.stem + ".webp"), quality
            )
            lbl = s.image_path.parent.parent / "labels" / (s.image_path.stem + ".txt")
            shutil.copyfile(lbl, out / split / "labels" / lbl.name)
            n += 1
    return n


def pack_art(out: Path, cache: Path, fonts: bool = False) -> None:
    """The training styles' faces; with `fonts`, the font styles' faces baked in too,
    since the borrowed machine has none of the fonts they are written with."""
    index = load_index(cache)
    resolve_styles("train", cache)  # names any style a cache installed before it lacks
    styles = {}
    for style in TRAIN_STYLES:
        entry = dict(index["styles"][style])
        faces = {}
        for code, rel in entry["faces"].items():
            dst = Path(rel).with_suffix(".webp")
            _webp_file(cache / rel, out / dst, FACE_QUALITY)
            faces[code] = str(dst)
        entry["faces"] = faces
        styles[style] = entry
    baked: dict[bytes, str] = {}  # a face drawn alike for several font styles, written once
    for style in fontfaces.style_names() if fonts else []:
        faces = {}
        for code, face in fontfaces.font_faces(style).items():
            key = hashlib.sha1(face.tobytes()).digest()
            if key not in baked:
                dst = Path("faces") / style / f"{code}.webp"
                _webp(face, out / dst, FACE_QUALITY)
                baked[key] = str(dst)
            faces[code] = baked[key]
        missing = [c for c in CODES if c != BACK and c not in faces]
        styles[style] = {"faces": faces, "missing": missing, "has_flowers": "1f" in faces,
                         "source": "baked from datasets.scene.fontfaces"}  # fmt: skip
    (out / "index.json").write_text(json.dumps({**index, "styles": styles}, indent=1))


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--out", default=".gpu")
    p.add_argument("--data", default=None, help="cmd-v4 root (default ../shared/datasets/cmd-v4)")
    p.add_argument("--cache", default=str(DEFAULT_CACHE), help="art cache folder")
    p.add_argument("--valid-images", type=int, default=40)
    p.add_argument("--quality", type=int, default=75, help="WebP quality of the photos")
    p.add_argument(
        "--init", nargs="*", default=[], help="checkpoints (.pt, .onnx) to copy into init/"
    )
    p.add_argument("--fonts", action="store_true", help="bake the font styles' faces in too")
    a = p.parse_args(argv)
    out = Path(a.out)
    if out.exists():
        shutil.rmtree(out)
    n = pack_cmd(out / "cmd", a.data, a.valid_images, a.quality)
    try:
        pack_art(out / "art", Path(a.cache), a.fonts)
    except ArtError as exc:
        raise SystemExit(f"error: {exc}") from None
    (out / "init").mkdir()
    for ck in a.init:
        shutil.copyfile(ck, out / "init" / Path(ck).name)
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    print(f"{n} photos, art of {len(TRAIN_STYLES)} styles -> {out} ({size / 2**20:.1f} MiB)")


if __name__ == "__main__":
    main()
