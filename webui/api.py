"""The JSON API: score, recognize, check, the fan table and a health probe.

Bodies and answers follow CONTRACTS.md; bad input is a 4xx with
`{"error": {"code", "message"}}`, never a traceback.
"""

from __future__ import annotations

import json
import logging

from flask import Blueprint, current_app, jsonify, request

from scorer.errors import ScoreError
from webui.errors import json_error

bp = Blueprint("api", __name__)
log = logging.getLogger(__name__)

#: flags the page offers; `/api/options` says which of them the hand makes impossible
FLAGS = ("self_drawn", "fourth_tile", "kong", "last_tile")


def _score_request(obj: dict) -> dict:
    from scorer.request import score_request

    return score_request(obj)


def _read_json_object() -> dict:
    """The request body as a JSON object, or a ScoreError naming what is wrong."""
    data = request.get_data(cache=True)
    if not data.strip():
        raise ScoreError("empty_body", "the request body is empty; send a JSON object")
    try:
        obj = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ScoreError("bad_json", f"the request body is not valid JSON ({exc})") from None
    if not isinstance(obj, dict):
        raise ScoreError(
            "not_object", 'the request body must be a JSON object, e.g. {"hand": "..."}'
        )
    return obj


def _error(exc: ScoreError, status: int = 422):
    return json_error(exc.code, exc.message, status)


def _status_for(exc: ScoreError) -> int:
    return 400 if exc.code in ("empty_body", "bad_json", "not_object") else 422


@bp.post("/api/score")
def score():
    try:
        return jsonify(_score_request(_read_json_object()))
    except ScoreError as exc:
        return _error(exc, _status_for(exc))


@bp.post("/api/options")
def options():
    """For each situation flag, whether flipping it keeps the request scorable.

    The scorer's own validation decides (its error codes), so the page can
    disable an option with the scorer's reason instead of guessing.
    """
    try:
        obj = _read_json_object()
    except ScoreError as exc:
        return _error(exc, 400)
    base_code = None
    try:
        _score_request(obj)
    except ScoreError as exc:
        base_code = exc.code
    flags = {}
    for flag in FLAGS:
        flipped = {**obj, flag: not bool(obj.get(flag, False))}
        try:
            _score_request(flipped)
            flags[flag] = {"possible": True}
        except ScoreError as exc:
            possible = exc.code == base_code
            flags[flag] = {"possible": possible, "code": exc.code, "message": exc.message}
    return jsonify({"base_error": base_code, "flags": flags})


def _recognizer():
    fn = current_app.config.get("MCR_RECOGNIZE")
    if fn is not None:
        return fn
    from vision.pipeline import recognize

    return recognize


@bp.post("/api/recognize")
def recognize():
    if not request.files:
        fields = ", ".join(sorted(request.form)) or "none"
        return json_error(
            "no_photo",
            f"no photo was sent: upload the image in the form field 'photo' (fields received: {fields})",
            400,
        )
    upload = request.files.get("photo")
    if upload is None:
        names = ", ".join(sorted(request.files))
        return json_error(
            "no_photo", f"the photo must be in the form field 'photo', not {names}", 400
        )
    data = upload.read()
    if not data:
        return json_error("empty_photo", "the uploaded photo is empty (0 bytes)", 400)
    try:
        recognize_fn = _recognizer()
    except ImportError as exc:
        log.warning("recognizer unavailable: %s", exc)
        return json_error(
            "recognizer_unavailable",
            "photo reading is not installed; enter the hand with the tile keyboard",
            503,
        )
    try:
        result = recognize_fn(data, upload.filename or "")
    except ScoreError as exc:  # PhotoError (the photo) or ModelError (the installation)
        return _error(exc, _photo_status(exc))
    return jsonify(result)


def _photo_status(exc: ScoreError) -> int:
    """413 for a photo over a limit, 503 when the models are missing, else 422."""
    if type(exc).__name__ == "ModelError":
        return 503
    return 413 if "large" in exc.code else 422


@bp.post("/api/check")
def check():
    """Referee check: body `{"request": {score request}, "claim": [...]|"a, b", "total": N}`.

    The score request's fields may also be given at the top level.
    """
    from webui.check import check_claim

    try:
        obj = _read_json_object()
        req = obj.get("request")
        if req is None:
            req = {k: v for k, v in obj.items() if k not in ("claim", "total")}
        if not isinstance(req, dict):
            raise ScoreError("not_object", "'request' must be a JSON object (a score request)")
        return jsonify(check_claim(req, obj.get("claim"), obj.get("total")))
    except ScoreError as exc:
        return _error(exc, _status_for(exc))


@bp.get("/api/fans")
def fans():
    from scorer.fans import FANS

    return jsonify(
        [
            {
                "id": f.id,
                "name_zh": f.name_zh,
                "name_en": f.name_en,
                "points": f.points,
                "excludes": list(f.excludes),
            }
            for f in sorted(FANS.values(), key=lambda f: f.id)
        ]
    )


@bp.get("/healthz")
def healthz():
    return jsonify({"status": "ok"})
