"""Text from outside the program: strict JSON, and standard input without a byte order mark.

Python's json module accepts more than JSON: NaN and Infinity, integers of any
size (past 4,300 digits int() refuses, naming an interpreter setting), and it
recurses once per nesting level. Whatever `loads_strict` returns can be written
back as JSON; the command line (`mcr score --batch`, `mcr game`) and the web API
(`webui.guard`) read through it and differ only in the parameters. Windows
editors and spreadsheets start a file with a byte order mark, which no JSON or
CSV reader here expects; `stdin_lines` drops it from standard input as
`encoding="utf-8-sig"` does from a file.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from typing import Any

#: the longest integer the command line reads, far past any field's bounds, which word
#: the refusal of anything shorter
MAX_INT_DIGITS = 100

BOM = "\ufeff"


class OutOfRange:
    """A number past the bounds, parsed as a marker rather than refused: the parse goes on,
    so the caller reads the rest of the value (the web API its `lang`) before refusing."""


OUT_OF_RANGE = OutOfRange()


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def loads_strict(
    text: str, *, max_int_digits: int = MAX_INT_DIGITS, mark_out_of_range: bool = False
) -> Any:
    """The JSON value of `text`; every refusal is a ValueError, too deep nesting included.

    A float that overflows or an integer of more than `max_int_digits` digits is refused,
    or, with `mark_out_of_range`, parsed as OUT_OF_RANGE for the caller to refuse.
    """

    def out_of_range(message: str) -> OutOfRange:
        if mark_out_of_range:
            return OUT_OF_RANGE
        raise ValueError(message)

    def parse_float(number: str) -> float | OutOfRange:
        value = float(number)
        if math.isinf(value):
            return out_of_range(f"the number {number[:20]} is out of range")
        return value

    def parse_int(number: str) -> int | OutOfRange:
        if len(number.lstrip("-")) > max_int_digits:
            return out_of_range(f"a number of more than {max_int_digits} digits is out of range")
        return int(number)

    try:
        return json.loads(
            text, parse_constant=_no_constant, parse_float=parse_float, parse_int=parse_int
        )
    except RecursionError:
        raise ValueError("nested too deeply") from None


def stdin_lines(stream: Iterable[str]) -> Iterator[str]:
    """The lines of standard input (or any text stream), a leading byte order mark left out."""
    lines = iter(stream)
    first = next(lines, None)
    if first is None:
        return
    yield first.removeprefix(BOM)
    yield from lines
