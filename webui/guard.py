"""Reading a JSON body safely: size, depth, numbers and text bounded before use.

Python's own parser recurses once per nesting level and accepts NaN,
Infinity, integers of any size and lone UTF-16 surrogates; each of those
once ended in a 500 somewhere further down (the scorer, SQLite, the JSON
encoder). Here the nesting depth is measured by a linear scan of the text
before it is parsed (by `scorer.textinput`, as the command line parses), and
the parsed value is walked once (iteratively) to refuse what no endpoint can use.
"""

from __future__ import annotations

import re
from typing import Any

from scorer.textinput import OUT_OF_RANGE, loads_strict
from webui.errors import RequestError, remember_lang

#: the largest JSON body any endpoint takes (a score request is ~100 bytes)
MAX_JSON_BYTES = 64 * 1024
#: deepest nesting of arrays and objects (a check request is 3 deep)
MAX_DEPTH = 10
#: longest string anywhere in a body; each endpoint bounds its own fields further
MAX_STRING = 2000
#: SQLite's integer range, which is also the widest any field is stored in
INT_MIN, INT_MAX = -(2**63), 2**63 - 1
#: the most digits an integer in that range has; a longer one is not even converted
INT_DIGITS = len(str(INT_MAX))

_SPECIAL = re.compile(r'["\\\[\]{}]')
_SURROGATE = re.compile("[\ud800-\udfff]")


def nesting_depth(text: str) -> int:
    """How deep arrays and objects nest in JSON `text`, counted without recursion.

    One pass over the characters that matter (quotes, backslashes,
    brackets); a bracket inside a string does not nest.
    """
    depth = deepest = 0
    in_string = False
    escaped_at = -1
    for m in _SPECIAL.finditer(text):
        i = m.start()
        ch = text[i]
        if i == escaped_at:
            continue
        if in_string:
            if ch == "\\":
                escaped_at = i + 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _check_values(value: Any) -> None:
    """Refuse integers past SQLite's range, over-long strings and lone surrogates."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            if len(item) > MAX_STRING:
                raise RequestError("too_long")
            if _SURROGATE.search(item):
                raise RequestError("bad_text")
        elif item is OUT_OF_RANGE or (
            isinstance(item, int) and not isinstance(item, bool) and not INT_MIN <= item <= INT_MAX
        ):
            raise RequestError("number_out_of_range")


def parse_json(data: bytes, most_bytes: int = MAX_JSON_BYTES) -> Any:
    """The JSON value of a request body (at most `most_bytes`), or a RequestError naming
    what is wrong (in the body's `lang` where the body parses)."""
    if len(data) > most_bytes:
        raise RequestError("body_too_large")
    if not data.strip():
        raise RequestError("empty_body")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RequestError("bad_json", detail="not UTF-8 text") from None
    if nesting_depth(text) > MAX_DEPTH:
        raise RequestError("too_deep")
    try:  # a number out of range is refused below, once the body's `lang` is known
        value = loads_strict(text, max_int_digits=INT_DIGITS, mark_out_of_range=True)
    except ValueError as exc:
        raise RequestError("bad_json", detail=str(exc)[:100]) from None
    remember_lang(value)  # the refusals below speak the body's language
    _check_values(value)
    return value


def parse_object(data: bytes, most_bytes: int = MAX_JSON_BYTES) -> dict[str, Any]:
    """`parse_json`, and the value must be an object."""
    value = parse_json(data, most_bytes)
    if not isinstance(value, dict):
        raise RequestError("not_object")
    return value
