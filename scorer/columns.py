"""Terminal column widths, so Chinese fan and player names line up.

East Asian wide characters take two columns in a terminal; every readable
table of the command line (fan breakdown, waits, game sheet) pads with these.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache


@lru_cache(maxsize=4096)
def display_width(text: str) -> int:
    """Columns `text` takes in a terminal (CJK characters count two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, width: int, right: bool = False) -> str:
    """`text` padded to `width` columns, on the left when `right` aligns it right."""
    fill = " " * max(0, width - display_width(text))
    return fill + text if right else text + fill
