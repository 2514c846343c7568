"""A readable fan table of a `ScoreResult`, for the command line and logs.

People check a score against the rulebook fan by fan, so the table lists
every counted fan with its points and count, then the fans left out and
why (不重复 and the other principles), then the total.
"""

from __future__ import annotations

from scorer.columns import display_width, pad
from scorer.engine import ScoreResult
from scorer.fans import FANS
from scorer.notation import format_tiles

_BELOW_EN = "below the 8-point minimum (flowers do not count)"

#: the table's captions in each language it speaks
_CAPTIONS = {
    "zh": ("合计", "未达起和8番 (花牌不计)", "不计:", "牌型 "),
    "zh-Hant": ("合計", "未達起和8番 (花牌不計)", "不計:", "牌型 "),
    "en": ("Total", _BELOW_EN, "Not counted:", "form "),
    "both": ("合计 Total", _BELOW_EN, "不计 Not counted:", "牌型 "),
}


def _name(fan, lang: str) -> str:
    if lang == "zh":
        return fan.name_zh
    if lang == "zh-Hant":
        return fan.name_zh_hant
    if lang == "en":
        return fan.name_en
    return f"{fan.name_zh} {fan.name_en}"


def _reason(ex, lang: str) -> str:
    """Why a fan is not counted; in the traditional table the fan it names is traditional too."""
    if lang != "zh-Hant" or ex.by is None:
        return ex.reason
    by = FANS[ex.by]
    return ex.reason.replace(by.name_zh, by.name_zh_hant)


def format_table(result: ScoreResult, lang: str = "zh") -> str:
    """The fan breakdown as aligned text; `lang` is "zh", "zh-Hant", "en" or "both"."""
    if lang not in _CAPTIONS:
        raise ValueError(f"lang must be one of {', '.join(_CAPTIONS)}, got {lang!r}")
    total, below, not_counted, form = _CAPTIONS[lang]
    rows = []
    for hit in result.fans:
        label = f"{hit.fan.id:>2} {_name(hit.fan, lang)}"
        times = f"x{hit.count}" if hit.count > 1 else ""
        rows.append(
            (label, f"{hit.fan.points}{times}", str(hit.fan.points * hit.count), hit.detail)
        )
    width = max([display_width(r[0]) for r in rows] + [10])
    lines = [
        f"{pad(label, width)}  {pts:>6}  {sub:>4}  {detail}".rstrip()
        for label, pts, sub, detail in rows
    ]
    lines.append(f"{pad(total, width)}  {'':>6}  {result.total:>4}")
    if not result.meets_minimum:
        lines.append(below)
    if result.excluded:
        lines.append(not_counted)
        for ex in result.excluded:
            lines.append(f"  {ex.fan.id:>2} {_name(ex.fan, lang)}: {_reason(ex, lang)}")
    sets = " ".join(
        f"[{format_tiles(s['tiles'])}]" if s["declared"] else format_tiles(s["tiles"])
        for s in result.sets
    )
    lines.append(form + f"{result.form}: {sets}")
    return "\n".join(lines)
