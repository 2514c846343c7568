"""The one exception type the scorer raises for bad input.

Every malformed or impossible request ends in a ScoreError with a stable
machine code (for the JSON `error.code`) and a message a person can act on.
"""

from __future__ import annotations


class ScoreError(ValueError):
    """A request that cannot be scored; `code` is stable, `message` readable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict:
        return {"error": {"code": self.code, "message": self.message}}
