"""Errors of the recognizer, shaped like the scorer's so callers handle both alike.

A bad photo (not an image, truncated, too large) must end in a clear
message for the person who sent it, never in a traceback; `code` is stable
for the JSON `error.code`.
"""

from __future__ import annotations

from scorer.errors import ScoreError


class PhotoError(ScoreError):
    """A photo that cannot be read; same `.code`, `.message`, `.to_json()` as ScoreError."""


class ModelError(ScoreError):
    """The recognition models are missing or unusable (an installation problem, not the photo's)."""
