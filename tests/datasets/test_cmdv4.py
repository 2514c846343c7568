"""cmd-v4 label parsing on tiny files written here, plus a real-data check when present."""

from __future__ import annotations

from pathlib import Path

import pytest

from datasets.cmdv4 import CLASS_CODES, default_root, load_split, parse_line, read_labels
from scorer.tiles import CODES


def test_class_table_maps_to_project_codes() -> None:
    assert len(CLASS_CODES) == 42
    assert set(CLASS_CODES) == set(CODES) - {"back"}


def test_box_line() -> None:
    code, box = parse_line("4 0.5 0.25 0.2 0.1")
    assert code == "E"
    assert box == pytest.approx((0.4, 0.2, 0.6, 0.3))


def test_polygon_line_becomes_bounding_box() -> None:
    code, box = parse_line("39 0.1 0.2 0.3 0.15 0.35 0.4 0.12 0.45")
    assert code == "9m"
    assert box == pytest.approx((0.1, 0.15, 0.35, 0.45))


def test_box_is_clipped_to_image() -> None:
    _, box = parse_line("0 0.05 0.5 0.2 0.2")
    assert box[0] == 0.0


def test_bad_lines() -> None:
    assert parse_line("   ") is None
    with pytest.raises(ValueError):
        parse_line("x 0.1 0.1 0.1 0.1")
    with pytest.raises(ValueError):
        parse_line("99 0.1 0.1 0.1 0.1")
    with pytest.raises(ValueError):
        parse_line("3 0.1 0.1 0.1")


def _write(root: Path, split: str, name: str, text: str) -> None:
    (root / split / "images").mkdir(parents=True, exist_ok=True)
    (root / split / "labels").mkdir(parents=True, exist_ok=True)
    (root / split / "images" / f"{name}.jpg").write_bytes(b"")
    (root / split / "labels" / f"{name}.txt").write_text(text)


def test_load_split_skips_empty_label_files(tmp_path: Path) -> None:
    _write(tmp_path, "train", "a", "1 0.5 0.5 0.1 0.1\n20 0.1 0.1 0.2 0.1 0.2 0.2\n")
    _write(tmp_path, "train", "b", "")
    samples = load_split("train", tmp_path)
    assert [s.image_path.name for s in samples] == ["a.jpg"]
    assert samples[0].codes == ["1m", "1f"]
    boxes, codes = read_labels(tmp_path / "train" / "labels" / "a.txt")
    assert len(boxes) == 2 and codes == ["1m", "1f"]


def test_load_split_errors(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        load_split("test", tmp_path)
    with pytest.raises(FileNotFoundError):
        load_split("valid", tmp_path)


@pytest.mark.dataset
def test_real_valid_split() -> None:
    if not (default_root() / "valid").is_dir():
        pytest.skip("cmd-v4 not found at ../shared/datasets (set MCR_DATASETS)")
    samples = load_split("valid")
    assert len(samples) == 296
    assert sum(len(s.codes) for s in samples) == 6613
    hands = [s for s in samples if s.image_path.name.startswith("hand_")]
    assert len(hands) == 20
    assert all(len(s.codes) >= 9 for s in hands)


def test_label_fixes_replace_codes_and_check_what_they_replace(tmp_path: Path) -> None:
    from datasets.cmdv4 import Sample, with_fixes

    photo = Sample(tmp_path / "a.jpg", [(0, 0, 0.1, 0.1), (0.2, 0, 0.3, 0.1)], ["1p", "2m"])
    fixes = tmp_path / "fixes.txt"
    fixes.write_text("# header\na.jpg 0 1p 3s\n", encoding="utf-8")
    (fixed,) = with_fixes([photo], fixes)
    assert fixed.codes == ["3s", "2m"] and photo.codes == ["1p", "2m"]
    fixes.write_text("a.jpg 1 1p 3s\n", encoding="utf-8")  # box 1 is labelled 2m
    with pytest.raises(ValueError, match="box 1 of a.jpg is not 1p"):
        with_fixes([photo], fixes)


@pytest.mark.dataset
def test_the_valid_label_fixes_fit_the_published_labels() -> None:
    from datasets.cmdv4 import with_fixes

    if not (default_root() / "valid").is_dir():
        pytest.skip("cmd-v4 not found at ../shared/datasets (set MCR_DATASETS)")
    plain = load_split("valid")
    fixed = with_fixes(plain)
    changed = sum(
        a != b
        for p, f in zip(plain, fixed, strict=True)
        for a, b in zip(p.codes, f.codes, strict=True)
    )
    assert changed == 124
