"""The referee check as the page asks for it: claimed fans and/or a claimed total.

`scorer.request.check_claim` judges either a fan list or a total; at the
table a player often announces both, so this adapter runs the fan check and
then compares the total too.
"""

from __future__ import annotations

from typing import Any

from webui.errors import RequestError


def _claim_text(claim: Any) -> str | None:
    """A claim as the scorer reads it: a comma list of fan names or numbers."""
    if claim is None:
        return None
    if isinstance(claim, str):
        return claim if claim.strip() else None
    if isinstance(claim, list) and all(
        isinstance(x, (str, int)) and not isinstance(x, bool) for x in claim
    ):
        return ",".join(str(x) for x in claim) or None
    raise RequestError("bad_claim")


def check_claim(request: dict, claim: list[int | str] | str | None, total: int | None) -> dict:
    """What differs between the claim and the real score (missing / extra / miscounted).

    Raises McrError for a bad request or claim (no claim and no total included).
    """
    from scorer.request import check_claim as scorer_check

    text = _claim_text(claim)
    if total is not None and (isinstance(total, bool) or not isinstance(total, int) or total < 0):
        raise RequestError("bad_total", got=repr(total))
    if text is None and total is None:
        raise RequestError("empty_claim")
    if text is None:
        rep = scorer_check(request, total=total)
        rep.update(missing=[], extra=[], miscounted=[], fans_checked=False)
    else:
        rep = scorer_check(request, claim=text)
        rep["fans_checked"] = True
        if total is not None:
            rep["claimed_total"] = total
            rep["correct"] = rep["correct"] and total == rep["total"]
    rep["total_ok"] = rep["claimed_total"] == rep["total"]
    return rep
