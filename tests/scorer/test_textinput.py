"""`scorer.textinput`: the one strict JSON reader of the command line and the web API,
and standard input without a byte order mark."""

from __future__ import annotations

import io

import pytest

from scorer.textinput import MAX_INT_DIGITS, OUT_OF_RANGE, loads_strict, stdin_lines


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", '{"a": -Infinity}'])
def test_constants_json_has_not_are_refused_whatever_the_parameters(text):
    for mark in (False, True):
        with pytest.raises(ValueError, match="is not a JSON number"):
            loads_strict(text, mark_out_of_range=mark)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1e999", "the number 1e999 is out of range"),
        ("[-1e999]", "the number -1e999 is out of range"),
        ("9" * (MAX_INT_DIGITS + 1), f"more than {MAX_INT_DIGITS} digits"),
        ("-" + "9" * 5000, f"more than {MAX_INT_DIGITS} digits"),
    ],
)
def test_numbers_out_of_range_are_refused_by_default(text, message):
    with pytest.raises(ValueError, match=message):
        loads_strict(text)


def test_numbers_out_of_range_are_marked_when_asked_and_the_rest_is_parsed():
    """The caller gets the whole value back (its `lang` included) and refuses later."""
    text = '{"lang": "zh", "a": 1e999, "b": ' + "9" * 20 + ', "c": 12345}'
    value = loads_strict(text, max_int_digits=19, mark_out_of_range=True)
    assert value == {"lang": "zh", "a": OUT_OF_RANGE, "b": OUT_OF_RANGE, "c": 12345}


def test_integers_up_to_the_limit_and_finite_floats_are_read_exactly():
    assert loads_strict("9" * MAX_INT_DIGITS) == int("9" * MAX_INT_DIGITS)
    assert loads_strict("-" + "9" * 19, max_int_digits=19) == -int("9" * 19)
    assert loads_strict("[2.5e3, -0.0, 1e308]") == [2500.0, -0.0, 1e308]


def test_nesting_past_the_interpreter_limit_is_a_value_error():
    with pytest.raises(ValueError, match="nested too deeply"):
        loads_strict("[" * 100_000 + "]" * 100_000)


def test_other_bad_json_is_a_value_error():
    with pytest.raises(ValueError):
        loads_strict('{"hand": "1')


def test_stdin_lines_drop_only_the_mark_that_starts_the_input():
    stream = io.StringIO('\ufeff{"a": 1}\n\ufeff{"b": 2}\n')
    assert list(stdin_lines(stream)) == ['{"a": 1}\n', '\ufeff{"b": 2}\n']


@pytest.mark.parametrize("text", ["", "\ufeff", "x\n"])
def test_stdin_lines_of_short_input(text):
    assert "".join(stdin_lines(io.StringIO(text))) == text.removeprefix("\ufeff")
