"""The JSON API: score, recognize, check, the fan table and a health probe.

Bodies and answers follow CONTRACTS.md; bad input is a 4xx with
`{"error": {"code", "message"}}`, never a traceback: a view lets the error
through and `webui.errors` gives its status and words its message.
"""

from __future__ import annotations

import json
import logging

from flask import Blueprint, current_app, jsonify, request

from scorer.errors import ScoreError
from webui.errors import RequestError, error_response, remember_lang

bp = Blueprint("api", __name__)
log = logging.getLogger(__name__)

#: flags the page offers; `/api/options` says which of them the hand makes impossible
FLAGS = ("self_drawn", "fourth_tile", "kong", "last_tile")


def _score_request(obj: dict) -> dict:
    from scorer.request import score_request

    return score_request(obj)


def _read_json_object() -> dict:
    """The request body as a JSON object, or a RequestError naming what is wrong."""
    data = request.get_data(cache=True)
    if not data.strip():
        raise RequestError("empty_body")
    try:
        obj = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise RequestError("bad_json", detail=exc) from None
    if not isinstance(obj, dict):
        raise RequestError("not_object")
    remember_lang(obj)
    return obj


@bp.post("/api/score")
def score():
    return jsonify(_score_request(_read_json_object()))


@bp.post("/api/options")
def options():
    """For each situation flag, whether flipping it keeps the request scorable.

    The scorer's own validation decides (its error codes), so the page can
    disable an option with the scorer's reason instead of guessing.
    """
    obj = _read_json_object()
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
            message = exc.message_in(obj.get("lang") or "en")
            flags[flag] = {"possible": possible, "code": exc.code, "message": message}
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
        raise RequestError("no_photo", fields=", ".join(sorted(request.form)) or "none")
    upload = request.files.get("photo")
    if upload is None:
        raise RequestError("no_photo.field", names=", ".join(sorted(request.files)))
    data = upload.read()
    if not data:
        raise RequestError("empty_photo")
    try:
        recognize_fn = _recognizer()
    except ImportError as exc:
        log.warning("recognizer unavailable: %s", exc)
        return error_response(RequestError("recognizer_unavailable"))
    # a PhotoError (the photo) or ModelError (the installation) is answered by webui.errors
    return jsonify(recognize_fn(data, upload.filename or ""))


@bp.post("/api/check")
def check():
    """Referee check: body `{"request": {score request}, "claim": [...]|"a, b", "total": N}`.

    The score request's fields may also be given at the top level.
    """
    from webui.check import check_claim

    obj = _read_json_object()
    req = obj.get("request")
    if req is None:
        req = {k: v for k, v in obj.items() if k not in ("claim", "total")}
    if not isinstance(req, dict):
        raise RequestError("not_object.request")
    remember_lang(req)
    return jsonify(check_claim(req, obj.get("claim"), obj.get("total")))


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
