"""Where the table detector's look loses tiles: each miss and false box told apart."""

from __future__ import annotations

import re

import numpy as np
import pytest

from bench.bench_table_losses import false_kind, miss_cause

TILE = np.array([100.0, 100.0, 130.0, 140.0])


def _shifted(dx: float) -> np.ndarray:
    return (TILE + [dx, 0, dx, 0]).reshape(1, 4)


def test_a_missed_tile_is_told_by_why() -> None:
    """A wall's lower tile shows a strip a few pixels high: the look may box it loosely,
    peak on it under the threshold, or drop its box for a surer neighbour's."""
    none = np.zeros((0, 4))
    loose = _shifted(12.0)  # IoU 0.43: a box found, too far off to match
    assert miss_cause(TILE, loose, none, np.zeros(0, bool)) == "boxed loosely"
    assert miss_cause(TILE, none, _shifted(2.0), np.array([True])) == "dropped by NMS"
    assert miss_cause(TILE, none, _shifted(2.0), np.array([False])) == "peak under threshold"
    assert miss_cause(TILE, none, _shifted(12.0), np.array([False])) == "weak peak, loose"
    assert miss_cause(TILE, none, _shifted(40.0), np.array([True])) == "no peak"


def test_false_boxes_are_told_by_what_they_lie_on() -> None:
    labels = np.array([TILE, TILE + [30, 0, 30, 0]])  # two tiles side by side
    second = _shifted(12.0)[0]
    assert false_kind(second, labels, found={0}) == ("second box on a found tile", 0)
    assert false_kind(second, labels, found=set()) == ("loose on a missed tile", 0)
    row = np.array([TILE + [30 * k, 0, 30 * k, 0] for k in range(4)])
    across = np.array([100.0, 100.0, 220.0, 140.0])  # a box over a run of four tiles
    assert false_kind(across, row, found={0, 1, 2, 3})[0] == "across several tiles"
    assert false_kind(np.array([105.0, 105.0, 115.0, 115.0]), labels, {0})[0] == "part of a tile"
    assert false_kind(np.array([400.0, 400.0, 430.0, 440.0]), labels, {0}) == ("on no tile", -1)
    assert false_kind(second, np.zeros((0, 4)), set()) == ("on no tile", -1)


def test_a_table_is_measured_at_each_setting_and_every_label_counted(tmp_path, capsys) -> None:
    """Each setting prints recall and precision by group over the same labels, a lower
    threshold finds as many tiles or more, and the causes account for every label."""
    from bench.bench_table_losses import main
    from datasets.render import main as render

    render(["--styles", "builtin", "--kind", "table", "--count", "1", "--seed", "3",
            "--size", "800", "--workers", "1", "--out", str(tmp_path / "t")])  # fmt: skip
    assert main([str(tmp_path / "t"), "--settings", "0.5:0.45,0.3:0.45", "--causes"]) == 0
    out = capsys.readouterr().out
    recalls = [float(r) for r in re.findall(r"recall ([0-9.]+)", out)]
    assert len(recalls) == 2 and recalls[1] >= recalls[0]
    rows = re.findall(r"^\s+(.+?)\s+(\d+)/(\d+)\s+[0-9.]+$", out, re.M)
    shares = [r for r in rows if r[0].startswith("in view")]
    groups = [r for r in rows if not r[0].startswith("in view")]
    first = groups[: len(groups) // 2]
    missed = sum(int(total) - int(hit) for _, hit, total in first)
    assert f"missed labels by group and cause ({missed})" in out
    # the same labels again by the share of each in view, found alike, at each setting
    n, m = len(groups) // 2, len(shares) // 2
    for by_group, by_share in ((groups[:n], shares[:m]), (groups[n:], shares[m:])):
        for k in (1, 2):
            assert sum(int(r[k]) for r in by_share) == sum(int(r[k]) for r in by_group)
    with pytest.raises(SystemExit):  # a file given is a file read, never the bundled one
        main([str(tmp_path / "t"), "--table-model", str(tmp_path / "none.onnx")])
