"""The hand notation of CONTRACTS.md: parsing, every error, round trip, fuzz."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scorer.errors import ScoreError
from scorer.hand import Hand, Meld, MeldKind
from scorer.notation import format_hand, normalized, parse_hand, parse_tiles
from scorer.tiles import index


def t(code: str) -> int:
    return index(code)


def tiles(*codes: str) -> tuple[int, ...]:
    return tuple(index(c) for c in codes)


def test_contract_example_melds_and_winning_tile():
    hand = parse_hand("[123p,1][345s,2][999s,3]66mEEE")
    assert hand.melds == (
        Meld(MeldKind.CHOW, t("1p"), 1),
        Meld(MeldKind.CHOW, t("3s"), 2),
        Meld(MeldKind.PUNG, t("9s"), 3),
    )
    assert hand.concealed == tiles("6m", "6m", "E", "E")
    assert hand.winning_tile == t("E")


def test_runs_share_one_suit_letter_and_honors():
    hand = parse_hand("123m456p789sESWNP")
    assert hand.concealed == tiles(
        "1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "S", "W", "N"
    )
    assert hand.winning_tile == t("P")
    assert parse_tiles("CF") == [t("C"), t("F")]


def test_meld_numbers_with_and_without_comma_and_defaults():
    a = parse_hand("[567m,2][999s3][EEE][8888p,1]CC")
    b = parse_hand("[567m2][999s,3][EEE,1][8888p1]CC")
    assert a == b
    assert a.melds[0] == Meld(MeldKind.CHOW, t("5m"), 2)
    assert a.melds[2] == Meld(MeldKind.PUNG, t("E"), 1)
    assert a.melds[3] == Meld(MeldKind.KONG, t("8p"), 1)
    assert parse_hand("[567m][111p][222p][333p]CC").melds[0].claimed == 1


def test_kong_numbers_concealed_melded_promoted():
    hand = parse_hand("[SSSS][1111m,2][2222m,7][3333m0]CC")
    assert hand.melds[0] == Meld(MeldKind.KONG, t("S"), 0)
    assert hand.melds[0].concealed
    assert hand.melds[1] == Meld(MeldKind.KONG, t("1m"), 2)
    assert hand.melds[2] == Meld(MeldKind.KONG, t("2m"), 3, promoted=True)
    assert hand.melds[3] == Meld(MeldKind.KONG, t("3m"), 0)


def test_chow_written_out_of_order_is_read_ascending():
    assert parse_hand("[576m,2]111p222p333s55s") == parse_hand("[567m,2]111p222p333s55s")


def test_whitespace_is_tolerated():
    assert parse_hand(" [123p, 1] [345s ,2]\t[999s,3]\n66m EE E ") == parse_hand(
        "[123p,1][345s,2][999s,3]66mEEE"
    )


def test_waiting_hand_has_no_winning_tile():
    hand = parse_hand("[123p,1]456m789s11pEE", waiting=True)
    assert hand.winning_tile is None
    assert len(hand.concealed) == 10


def test_parse_tiles_plain_list():
    assert parse_tiles("19m E") == [t("1m"), t("9m"), t("E")]
    with pytest.raises(ScoreError) as err:
        parse_tiles("[111m]")
    assert err.value.code == "bad_meld"


@pytest.mark.parametrize(
    ("text", "code", "fragment"),
    [
        ("123m456p789s123sEx", "bad_character", "'x' at position 18"),
        ("123m456p789s123sE\u4e00", "bad_character", "position 18"),
        ("123m456p789s123s,E", "bad_character", "',' at position 17"),
        # a terminal escape or an invisible space is named, not printed as it is
        ("12\x1b[2J3m456p789s123sEE", "bad_character", "character U+001B at position 3"),
        ("12\u200b3m456p789s123sEE", "bad_character", "character U+200B at position 3"),
        ("123m456p789s123E", "missing_suit", "'123' at position 13"),
        ("123m456p789s12", "missing_suit", "at the end"),
        ("[123m456p789s123sEE", "unclosed_bracket", "position 1"),
        ("[123m[456p]789s123sEE", "unclosed_bracket", "position 6"),
        ("123m]456p789s123sEE", "unmatched_bracket", "position 5"),
        ("[124m]456p789s11sEE", "bad_meld", "1m 2m 4m"),
        ("[12m3p]456p789s11sEE", "bad_meld", "chow"),
        ("[EWS]456p789s11sEE", "bad_meld", "E W S"),
        ("[11m]456p789s11sEE", "bad_meld", "1m 1m"),
        ("[11111m]456p789s11sEE", "bad_meld", "position 1"),
        ("[]456p789s11sEE", "bad_meld", "nothing"),
        ("[111m][222m][333m][444m][555m]E", "too_many_melds", "meld number 5"),
        ("11111m2345678p99s", "too_many_copies", "1m ×5"),
        ("[1111m]11m2345678p9s", "too_many_copies", "1m ×6"),
        ("123m456p789s123sE", "wrong_tile_count", "needs 14"),
        ("[123m]456p789s1234sEE", "wrong_tile_count", "needs 11 concealed tiles, got 12"),
        ("[123m,4]456p789s1sEE", "bad_meld_number", "number 4"),
        ("[123m,0]456p789s1sEE", "bad_meld_number", "number 0"),
        ("[999s,12]456p789s1sEE", "bad_meld_number", "number 12"),
        ("[9999s,4]456p789s1sEE", "bad_meld_number", "number 4"),
        ("[9999s,8]456p789s1sEE", "bad_meld_number", "number 8"),
        ("[999s,]456p789s1sEE", "bad_meld_number", "no number"),
        ("[999s,1,]456p789s1sEE", "bad_meld_number", "position 8"),
        ("[999s,E]456p789s1sEE", "bad_meld_number", "'E'"),
        ("123m[456p]789s123sEE", "meld_after_tiles", "position 5"),
        ("0m123456789p123sE", "bad_tile", "'0' at position 1"),
        ("m123456789p123sEE", "missing_digits", "'m' at position 1"),
        ("1f123m456p789s123sE", "flower_in_hand", "'1f'"),
        ("", "empty_hand", "empty"),
        ("   ", "empty_hand", "empty"),
        ("1m" * 200, "too_long", "at most"),
    ],
)
def test_every_error_names_the_problem(text, code, fragment):
    with pytest.raises(ScoreError) as err:
        parse_hand(text)
    assert err.value.code == code
    assert fragment in err.value.message


def test_waiting_count_error_and_non_string():
    with pytest.raises(ScoreError) as err:
        parse_hand("123m456p789s123sEE", waiting=True)
    assert err.value.code == "wrong_tile_count" and "waiting" in err.value.message
    with pytest.raises(ScoreError) as err:
        parse_hand(123)  # type: ignore[arg-type]
    assert err.value.code == "bad_type"


def test_format_is_canonical():
    hand = parse_hand("[567m2][999s][SSSS][8888p,5]C C")
    assert format_hand(hand) == "[567m,2][999s,1][SSSS][8888p,5]CC"
    assert format_hand(parse_hand("1 2 3m 4 5 6 p 7 8 9 s 1 2 3 s E E")) == "123m456p789123sEE"
    assert format_hand(parse_hand("1112345678999m5m")) == "1112345678999m5m"


def test_normalized_sorts_concealed_keeps_winning_tile():
    hand = normalized(parse_hand("EE321m654p987s321s"))
    assert format_hand(hand) == "123m456p23789sEE1s"


# -- round trip and fuzz ---------------------------------------------------------

_MELD = st.one_of(
    st.builds(
        lambda s, r, c: Meld(MeldKind.CHOW, s * 9 + r, c),
        st.integers(0, 2),
        st.integers(0, 6),
        st.integers(1, 3),
    ),
    st.builds(lambda x, c: Meld(MeldKind.PUNG, x, c), st.integers(0, 33), st.integers(1, 3)),
    st.builds(
        lambda x, c, p: Meld(MeldKind.KONG, x, c, promoted=p and c > 0),
        st.integers(0, 33),
        st.integers(0, 3),
        st.booleans(),
    ),
)


@st.composite
def hands(draw, waiting=False):
    melds = tuple(draw(st.lists(_MELD, max_size=4)))
    in_melds = Counter(x for m in melds for x in m.tiles)
    assume(max(in_melds.values(), default=0) <= 4)
    n = (13 if waiting else 14) - 3 * len(melds)
    # distinct places in the pool of copies left: never more than 4 of a tile
    free = [x for x in range(34) for _ in range(4 - in_melds[x])]
    places = draw(st.lists(st.integers(0, len(free) - 1), min_size=n, max_size=n, unique=True))
    concealed = [free[i] for i in places]
    if waiting:
        return Hand(melds, tuple(concealed), None)
    return Hand(melds, tuple(concealed[:-1]), concealed[-1])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands())
def test_round_trip_winning_hands(hand):
    assert parse_hand(format_hand(hand)) == hand


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(waiting=True))
def test_round_trip_waiting_hands(hand):
    assert parse_hand(format_hand(hand), waiting=True) == hand


_ALPHABET = "0123456789mpsfESWNCFP[],, x\u4e00"


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=40) | st.text(max_size=20))
def test_fuzz_parser_raises_only_score_error(text):
    for waiting in (False, True):
        try:
            hand = parse_hand(text, waiting=waiting)
        except ScoreError as exc:
            assert exc.code and exc.message
        else:
            assert parse_hand(format_hand(hand), waiting=waiting) == hand
