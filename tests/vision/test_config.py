"""The recognizer's one frozen configuration (`vision.config`) and how it is passed down."""

from __future__ import annotations

import dataclasses

import pytest

from vision.config import DEFAULT, DetectConfig, Reading, VisionConfig
from vision.layout import NOTHING_SET_APART, read_layout
from vision.readers import BoxesOnly, TileFinder, as_finder
from vision.synthetic import GAP, reads_for, row
from vision.types import Detection

HAND = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E", "N", GAP, "N"]


def test_the_configuration_cannot_be_changed_in_place() -> None:
    """Every stage reads the same values: changing one makes a new configuration."""
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULT.detect.threshold = 0.1  # type: ignore[misc]
    stricter = dataclasses.replace(DEFAULT, detect=DetectConfig(threshold=0.9))
    assert stricter.detect.threshold == 0.9 and DEFAULT.detect.threshold == 0.5


def test_another_reading_changes_the_layout_thresholds_only() -> None:
    loose = DEFAULT.reading(Reading(gap_split=0.5, gap_over_usual=0.5))
    assert loose.layout.reading.gap_split == 0.5 and loose.rows == DEFAULT.rows
    assert DEFAULT.layout.reading == Reading()


def test_the_layout_reads_the_gaps_it_is_given() -> None:
    """The winning tile lies 1.3 tile widths apart: read with the usual thresholds it is
    set apart; read with gaps and a step to the tile set apart far wider than that, the
    row is one and its last tile is taken as the winning tile, with the warning that
    says so."""
    reads = reads_for(row(HAND, y=300))
    assert NOTHING_SET_APART not in read_layout(reads).warnings
    wide = DEFAULT.reading(Reading(gap_split=5.0, gap_over_usual=5.0, set_apart_step=9.0))
    assert NOTHING_SET_APART in read_layout(reads, wide).warnings


def test_a_plain_function_is_a_tile_finder_that_looks_once() -> None:
    boxes = [Detection((0, 0, 10, 14), 0.9)]
    finder = as_finder(lambda image: boxes)
    assert isinstance(finder, BoxesOnly) and isinstance(finder, TileFinder)
    assert finder.look(None) == (boxes, (1.0, 1.0)) and finder.faint(None, 0.3) == []
    assert as_finder(finder) is finder
    assert isinstance(VisionConfig(), VisionConfig)
