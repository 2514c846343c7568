"""Rule-aware decoding: legal hands from uncertain tile reads, overrides marked."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.notation import parse_hand
from scorer.tiles import CODES
from vision.config import DEFAULT
from vision.decode import decode
from vision.layout import read_layout
from vision.synthetic import GAP, full_layout, probs_for, reads_for, row, simple_layout
from vision.types import Detection, Group, Layout, TileRead


def _run(tiles, seconds=None):
    reads = reads_for(tiles, seconds=seconds)
    result = decode(reads, read_layout(reads))
    return result.reads, result


def test_clean_reads_give_the_hand() -> None:
    reads, result = _run(full_layout())
    assert result.notation == "[345s,2][999m,3][EEEE,6][7777p]CC"
    assert parse_hand(result.notation) == result.hand
    assert not any(r.overridden for r in reads)
    assert result.drop == 0.0
    backs = [r.chosen for r in reads if r.chosen == "back"]
    assert len(backs) == 2


def test_fifth_copy_is_fixed_by_the_second_guess() -> None:
    # five 9s: one read as 9s is really 8s (its second guess); 7 8 9 needs the 8s too
    tiles = row(
        ["1m", "1m", "1m", "7s", "8s", "9s", "9s", "9s", "9s", "2p", "2p", "E", "E", GAP, "E"],
        y=300,
    )
    seconds = {4: ("9s", "8s")}
    reads, result = _run(tiles, seconds)
    assert result.notation is not None
    assert result.hand.all_tiles.count(CODES.index("9s")) <= 4
    assert reads[4].chosen == "8s" and reads[4].overridden
    assert sum(r.overridden for r in reads) == 1


def test_non_chow_meld_is_fixed() -> None:
    # the 6m of the chow looks like an 8m: 5-8-7 is no meld, 5-6-7 is
    seconds = {9: ("8m", "6m")}
    reads, result = _run(simple_layout(), seconds)
    assert result.notation == "[567m,1][222p,1]67p34599s8p"
    assert reads[9].chosen == "6m" and reads[9].overridden
    assert [i for i, r in enumerate(reads) if r.overridden] == [9]


def test_incomplete_hand_is_completed_when_cheap() -> None:
    # 3s read as 2s with 3s second: 2s4s5s is no set, 3s4s5s completes the hand
    reads, result = _run(simple_layout(), {0: ("2s", "3s")})
    assert result.notation == "[567m,1][222p,1]67p34599s8p"
    assert reads[0].overridden


def test_hopeless_reads_keep_first_guesses_and_no_hand() -> None:
    seconds = {0: ("E", "W"), 1: ("N", "C"), 2: ("1p", "9p")}
    reads, result = _run(simple_layout(), seconds)
    assert result.hand is None and result.notation is None
    assert result.warnings
    assert [r.chosen for r in reads[:3]] == ["E", "N", "1p"]
    assert not any(r.overridden for r in reads)


def test_wrong_tile_count_is_explained() -> None:
    tiles = row(["1m", "2m", "3m", "5p", GAP, "5p"], y=300)
    _, result = _run(tiles)
    assert result.hand is None
    assert "needs 14" in str(result.warnings[0])


def test_seven_pairs_and_thirteen_orphans() -> None:
    pairs = row(
        ["1m", "1m", "3p", "3p", "5s", "5s", "E", "E", "C", "C", "9s", "9s", "2m", GAP, "2m"], y=300
    )
    hand = _run(pairs)[1].hand
    assert hand is not None and len(hand.concealed) == 13 and hand.winning_tile == 1
    orphans = row(
        ["1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "W", "N", "C", "F", "P", GAP, "P"], y=300
    )
    assert _run(orphans)[1].hand is not None


def test_concealed_kong_kind_from_its_face_up_tiles() -> None:
    tiles = row(["back", "3p", "3p", "back"], y=100) + row(
        ["1m", "2m", "3m", "4s", "5s", "6s", "E", "E", "E", "N", GAP, "N"], y=300
    )
    reads, result = _run(tiles, {1: ("2p", "3p")})  # one face-up tile misread
    assert result.notation == "[3333p]123m456sEEENN"
    assert reads[1].chosen == "3p" and reads[1].overridden


def test_face_down_kong_leaves_the_rest_decoded() -> None:
    # seed 003 实战细节 五: a concealed kong may lie all face down; the photo cannot name it,
    # but it is still one of the hand's four sets, so the rest is decoded as usual
    tiles = row(["back", "back", "back", "back"], y=100) + row(
        ["1m", "2m", "3m", "4s", "5s", "6s", "E", "E", "E", "N", GAP, "N"], y=300
    )
    reads, result = _run(tiles, {8: ("4s", "5s")})  # 4s 4s 6s is no set; 4s 5s 6s is
    assert result.hand is None and result.notation is None
    assert result.partial == "123m456sEEENN"
    assert len(result.unnamed) == 1
    assert reads[8].chosen == "5s" and reads[8].overridden
    assert result.waits is None


@pytest.mark.parametrize(
    "kong", [["back", "3p", "3p"], ["3p", "3p", "back"], ["back", "3p", "back"]]
)
def test_a_concealed_kong_missing_one_tile_is_still_read(kong: list[str]) -> None:
    """seed 003 实战细节 五: a concealed kong shows face-down tiles at its ends. When the
    photo shows only three of its tiles (one hidden or not found), it is still the kong
    its face-up tiles name, with a warning to check it."""
    tiles = row(kong, y=100) + row(
        ["1m", "2m", "3m", "4s", "5s", "6s", "E", "E", "E", "N", GAP, "N"], y=300
    )
    reads = reads_for(tiles)
    layout = read_layout(reads)
    assert any("fourth tile" in str(w) for w in layout.warnings)
    result = decode(reads, layout)
    assert result.notation == "[3333p]123m456sEEENN"


def test_three_face_down_tiles_are_a_kong_to_name() -> None:
    tiles = row(["back", "back", "back"], y=100) + row(
        ["1m", "2m", "3m", "4s", "5s", "6s", "E", "E", "E", "N", GAP, "N"], y=300
    )
    reads = reads_for(tiles)
    result = decode(reads, read_layout(reads))
    assert result.partial == "123m456sEEENN" and len(result.unnamed) == 1


def test_three_tiles_that_cannot_be_one_kong_are_not_taken_for_one() -> None:
    for group in (["back", "3p", "4p"], ["3p", "back", "3p"]):
        tiles = row(group, y=100) + row(
            ["1m", "2m", "3m", "4s", "5s", "6s", "E", "E", "E", "N", GAP, "N"], y=300
        )
        layout = read_layout(reads_for(tiles))
        assert not any(g.role == "concealed_kong" for g in layout.groups)
        assert any("face-down ones lie together" in str(w) for w in layout.warnings)


def test_unknown_groups_give_no_hand() -> None:
    reads = [TileRead(Detection((0, 0, 30, 40), 0.9), probs_for("1m"))]
    result = decode(reads, Layout(groups=[Group(role="unknown", tiles=[0])]))
    assert result.hand is None and result.warnings


def test_decoding_is_fast_even_when_hopeless() -> None:
    rng = np.random.default_rng(0)
    tiles = row([CODES[k] for k in rng.integers(0, 34, 13)] + [GAP, "E"], y=300)
    reads = reads_for(tiles)
    for r in reads:  # flat, uncertain reads: many near-equal assignments
        p = rng.dirichlet(np.ones(43) * 0.5)
        r.probs = p
    layout = read_layout(reads)
    start = time.perf_counter()
    result = decode(reads, layout)
    assert time.perf_counter() - start < 1.0
    assert 0 < result.steps <= DEFAULT.decode.max_steps


def test_a_busy_machine_reads_the_same_hand(monkeypatch) -> None:
    """The search is bounded by steps, not seconds: a photo read again on a machine busy
    with other work (here a clock that jumps a second at every look) gives the same hand."""

    def read() -> tuple[str | None, list[str], int]:
        rng = np.random.default_rng(1)
        reads = reads_for(simple_layout())
        for r in reads:  # unsure reads: the hand lies thousands of steps deep
            p = rng.dirichlet(np.ones(43) * 0.3) * 0.9
            p[int(r.probs.argmax())] += 0.1
            r.probs = p / p.sum()
        result = decode(reads, read_layout(reads))
        return result.notation, [r.chosen for r in result.reads], result.steps

    calm = read()
    assert calm[0] is not None and calm[2] > 1000
    clock = iter(range(10**6))
    monkeypatch.setattr(time, "monotonic", lambda: float(next(clock)))
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(clock)))
    assert read() == calm


def test_waiting_hand_lists_its_waits() -> None:
    tiles = row(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E", "2s"], y=300)
    _, result = _run(tiles)
    assert result.hand is None
    assert [CODES[t] for t in result.waits] == ["2s"]


def test_a_tile_is_never_forced_into_a_class_it_clearly_is_not() -> None:
    # the 5m of the chow reads as E with no doubt: no chow/pung within reach
    reads = reads_for(simple_layout(), seconds={8: ("E", None)})
    reads[8].probs = probs_for("E", p_first=0.999)
    result = decode(reads, read_layout(reads))
    assert result.hand is None and not any(r.overridden for r in result.reads)


@settings(max_examples=120, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.just(GAP), st.sampled_from(CODES), st.sampled_from(CODES).map(lambda c: c + "/")
        ),
        max_size=18,
    ),
    st.lists(st.sampled_from(CODES[:34]), max_size=14),
    st.sampled_from([0, 90, 180, 270]),
)
def test_any_table_decodes_without_error(front, hand, rotation) -> None:
    tiles = row(front, y=100) + row([*hand, GAP, "E"], y=300)
    reads = reads_for(tiles, rotation=rotation, jitter=3.0, shuffle=True)
    result = decode(reads, read_layout(reads))
    if result.hand is not None:
        assert parse_hand(result.notation) == result.hand


def test_unsure_flower_counts_as_a_flower() -> None:
    """Which flower is unsure, that it is one is not: it is named by its likeliest flower and
    the hand is read without it."""
    from scorer.tiles import INDEX

    tiles = row(
        ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E", "N", GAP, "N"], y=300
    ) + row(["1f"], y=100, x0=600)
    reads = reads_for(tiles)
    p = np.full(len(CODES), 0.0)
    p[INDEX["1f"] : INDEX["1f"] + 8] = 0.08
    p[INDEX["3f"]] = 0.12
    p[INDEX["N"]] = 0.24  # the likeliest single class is a playing tile
    reads[-1].probs = p / p.sum()
    result = decode(reads, read_layout(reads))
    assert result.notation == "123m456p789sEEENN"
    assert result.reads[-1].chosen == "3f"


def test_two_flowers_read_alike_get_different_names() -> None:
    """A set holds each flower once (rules seed 003: the eight flowers 春夏秋冬梅兰竹菊):
    two tiles both read as 春 cannot both be it, so the less sure takes its next most likely
    flower and is marked for the player to check; the surer keeps its name."""
    from scorer.tiles import INDEX

    tiles = row(
        ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E", "N", GAP, "N"], y=300
    ) + row(["1f", "1f"], y=100, x0=600)
    reads = reads_for(tiles)
    sure, unsure = np.full(len(CODES), 0.001), np.full(len(CODES), 0.001)
    sure[INDEX["1f"]] = 0.9
    unsure[INDEX["1f"]], unsure[INDEX["4f"]] = 0.5, 0.4
    reads[-2].probs, reads[-1].probs = sure / sure.sum(), unsure / unsure.sum()
    result = decode(reads, read_layout(reads))
    assert result.notation == "123m456p789sEEENN"
    assert [r.chosen for r in result.reads[-2:]] == ["1f", "4f"]
    assert result.reads[-1].overridden and not result.reads[-2].overridden


def test_distinct_flowers_best_joint_naming() -> None:
    """The names are the best all-different assignment, not first come first served: the
    first tile, torn between 1f and 2f, takes 2f because the second is surely 1f. More
    tiles than flowers (a misread layout) keep their own likeliest names."""
    from vision.decode import distinct_flowers

    p = np.full((2, 8), 0.01)
    p[0, 0], p[0, 1] = 0.5, 0.45
    p[1, 0] = 0.95
    assert distinct_flowers(p) == [1, 0]
    more = np.full((9, 8), 0.01)
    more[np.arange(9), [0, 0, 1, 2, 3, 4, 5, 6, 7]] = 0.9
    assert distinct_flowers(more) == [0, 0, 1, 2, 3, 4, 5, 6, 7]
