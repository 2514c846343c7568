"""Pack what a training run on a borrowed GPU machine needs into one small folder.

Such a machine starts bare and takes at most 64 MiB of files, so the bundle
holds the usable cmd-v4 training photos and a small valid subset re-encoded
as WebP, the tile art of the training styles (WebP faces, index rewritten),
and the checkpoints to continue from. `datasets/gpu_train.sh` renders
scenes there and trains. Run: `python -m datasets.gpu_bundle --out .gpu`.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import cv2

from datasets.art import DEFAULT_CACHE, load_index
from datasets.cmdv4 import load_split
from datasets.label_check import usable
from datasets.styles import TRAIN_STYLES


def _webp(src: Path, dst: Path, quality: int) -> None:
    img = cv2.imread(str(src), cv2.IMREAD_COLOR)
    ok, buf = cv2.imencode(".webp", img, [cv2.IMWRITE_WEBP_QUALITY, quality])
    if not ok:
        raise RuntimeError(f"could not encode {src}")
    dst.write_bytes(buf.tobytes())


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
            _webp(s.image_path, out / split / "images" / (s.image_path.stem + ".webp"), quality)
            lbl = s.image_path.parent.parent / "labels" / (s.image_path.stem + ".txt")
            shutil.copyfile(lbl, out / split / "labels" / lbl.name)
            n += 1
    return n


def pack_art(out: Path, cache: Path) -> None:
    index = load_index(cache)
    styles = {}
    for style in TRAIN_STYLES:
        entry = dict(index["styles"][style])
        faces = {}
        for code, rel in entry["faces"].items():
            dst = Path(rel).with_suffix(".webp")
            (out / dst).parent.mkdir(parents=True, exist_ok=True)
            _webp(cache / rel, out / dst, 92)
            faces[code] = str(dst)
        entry["faces"] = faces
        styles[style] = entry
    (out / "index.json").write_text(json.dumps({**index, "styles": styles}, indent=1))


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--out", default=".gpu")
    p.add_argument("--data", default=None, help="cmd-v4 root (default ../shared/datasets/cmd-v4)")
    p.add_argument("--cache", default=str(DEFAULT_CACHE), help="art cache folder")
    p.add_argument("--valid-images", type=int, default=40)
    p.add_argument("--quality", type=int, default=75, help="WebP quality of the photos")
    p.add_argument("--init", nargs="*", default=[], help="checkpoints (.pt) to copy into init/")
    a = p.parse_args(argv)
    out = Path(a.out)
    if out.exists():
        shutil.rmtree(out)
    n = pack_cmd(out / "cmd", a.data, a.valid_images, a.quality)
    pack_art(out / "art", Path(a.cache))
    (out / "init").mkdir()
    for ck in a.init:
        shutil.copyfile(ck, out / "init" / Path(ck).name)
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    print(f"{n} photos, art of {len(TRAIN_STYLES)} styles -> {out} ({size / 2**20:.1f} MiB)")


if __name__ == "__main__":
    main()
