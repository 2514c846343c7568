"""The table bench's 和绝张 truth: what the photo shows, not what the table holds."""

from __future__ import annotations

import re

import pytest

from bench.bench_table import REGION_OF, fourth_in_view


def _meta(fourth: bool, shares: list[float], group: str = "discards") -> dict:
    winning = {"code": "5s", "group": "winning", "visible": 1.0}
    copies = [{"code": "5s", "group": group, "visible": v} for v in shares]
    return {"fourth_tile": fourth, "tiles": [winning, *copies]}


def test_three_copies_in_view_show_the_last_tile() -> None:
    assert fourth_in_view(_meta(True, [1.0, 0.9, 0.6])) is True
    assert fourth_in_view(_meta(True, [1.0, 1.0, 1.0], "meld0")) is True  # the winner's melds


def test_copies_out_of_the_photo_show_nothing() -> None:
    """The table shows the three copies, but one lies outside the photo: the photo cannot
    tell, and the reader rightly says it did not see them."""
    assert fourth_in_view(_meta(True, [1.0, 1.0, 0.0])) is False
    assert fourth_in_view(_meta(False, [1.0, 1.0])) is False


def test_a_copy_mostly_hidden_leaves_it_open() -> None:
    assert fourth_in_view(_meta(True, [1.0, 1.0, 0.3])) is None
    assert fourth_in_view({"tiles": []}) is None  # not a whole table


def test_the_oracle_tells_a_tile_lying_on_another_as_the_stacker_would() -> None:
    """The oracle stands for perfect models, the stacker among them: the box of a promoted
    kong's fourth tile, lying on the claimed one, holds two tiles; other boxes one. Without
    it a promoted kong reads as a pung however right every other model is."""
    from bench.bench_heldout import oracle_read

    corners = [[0, 0], [30, 0], [30, 40], [0, 40]]
    tile = {"code": "5p", "face_down": False, "corners": corners}
    on_top = oracle_read({**tile, "stacked": True}, [0, 0, 40, 30])
    alone = oracle_read({**tile, "stacked": False}, [0, 0, 30, 40])
    assert on_top.stacked == 1.0
    assert alone.stacked == 0.0
    assert int(on_top.probs.argmax()) == int(alone.probs.argmax())


def test_a_table_detector_run_is_read_by_the_whole_reader_without_touching_models(
    tmp_path, capsys
) -> None:
    """`--table-model` judges a detector run through the whole reader: the bundled file
    under another name reads the scene as the bundled one does, another model not."""
    from bench.bench_table import main
    from datasets.render import main as render
    from vision.detect import DEFAULT_MODEL, TABLE_MODEL

    render(["--styles", "builtin", "--kind", "table", "--count", "1", "--seed", "3",
            "--size", "800", "--workers", "1", "--out", str(tmp_path / "t")])  # fmt: skip
    copy = tmp_path / "run.onnx"
    copy.write_bytes(TABLE_MODEL.read_bytes())
    assert main([str(tmp_path / "t")]) == 0
    bundled = capsys.readouterr().out
    assert main([str(tmp_path / "t"), "--table-model", str(copy)]) == 0
    run = capsys.readouterr().out
    assert "tiles found: recall" in run
    drop_time = [line for line in run.splitlines() if not line.startswith("seconds")]
    assert drop_time == [line for line in bundled.splitlines() if not line.startswith("seconds")]
    assert main([str(tmp_path / "t"), "--table-model", str(DEFAULT_MODEL)]) == 0
    assert capsys.readouterr().out.splitlines()[:8] != bundled.splitlines()[:8]
    with pytest.raises(SystemExit):  # a file given is a file read, never skipped
        main([str(tmp_path / "t"), "--table-model", str(tmp_path / "none.onnx")])


def test_tiles_are_binned_by_the_share_of_them_in_view() -> None:
    """A wall's lower tile showing a strip of itself is counted apart from tiles in full
    view; a posed hand's tiles (no share given) are in full view."""
    from bench.bench_table import _shown_bin

    assert _shown_bin({"visible": 0.1}) == "in view 0.08-0.25"
    assert _shown_bin({"visible": 0.25}) == "in view 0.25-0.85"
    assert _shown_bin({"visible": 0.84}) == "in view 0.25-0.85"
    assert _shown_bin({"visible": 0.85}) == _shown_bin({}) == "in view 0.85+"


def test_dump_writes_each_scene_as_the_summary_counts_it(tmp_path, capsys) -> None:
    """`--dump` gives one line per scene, so two runs can be compared scene by scene; its
    lines add up to the summary's figures."""
    import json

    from bench.bench_table import main
    from datasets.render import main as render

    render(["--styles", "builtin", "--kind", "table", "--count", "2", "--seed", "5",
            "--size", "800", "--workers", "1", "--out", str(tmp_path / "t")])  # fmt: skip
    dump = tmp_path / "scenes.jsonl"
    assert main([str(tmp_path / "t"), "--dump", str(dump)]) == 0
    summary = capsys.readouterr().out
    lines = [json.loads(x) for x in dump.read_text().splitlines()]
    assert [x["scene"] for x in lines] == ["5_000000", "5_000001"]
    metas = [json.loads(p.read_text()) for p in sorted((tmp_path / "t" / "meta").glob("*.json"))]
    assert [x["true_hand"] for x in lines] == [m["hand"] for m in metas]
    found, labels = sum(x["found"] for x in lines), sum(x["labels"] for x in lines)
    assert f"recall {found / labels:.3f}" in summary
    named, false = sum(x["named"] for x in lines), sum(x["false"] for x in lines)
    assert f"kinds named right: {named}/{found} " in summary
    assert f"precision {1 - false / max(1, found + false):.3f}" in summary
    block = summary.split("regions the tiles found were put in:\n")[1].split(
        "\nwinner's hand exact"
    )[0]
    put = [int(n) for row in block.splitlines() for n in re.findall(r" (\d+)(?:,|$)", row)]
    assert sum(put) == found  # every tile found is counted once, under where it lies
    as_they_lie = sum(
        int(n)
        for row in block.splitlines()
        if (place := re.match(r"  (\S.*?)\s{2,}", row)) and place[1] in REGION_OF
        for region, n in re.findall(r"(\w+) (\d+)(?:,|$)", row)
        if region == REGION_OF[place[1]]
    )
    assert f"named as they lie: {as_they_lie}/{found} " in summary
    shown = summary.split("(a wall's lower tile: a strip):\n")[1].split("\nkinds named")[0]
    by_share = [re.match(r"\s+in view \S+\s+(\d+)/(\d+)", row) for row in shown.splitlines()]
    assert sum(int(m[1]) for m in by_share) == found  # the same tiles, binned otherwise
    assert sum(int(m[2]) for m in by_share) == labels
    right = sum(x["right"] for x in lines)
    assert f"winner's hand right (a kong lying face down marked to be named): {right}/2" in summary
    with pytest.raises(SystemExit):
        main([str(tmp_path / "t"), "--detector-only", "--dump", str(dump)])
