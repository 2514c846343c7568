"""The JSON API: score, recognize, check, the fan table and a health probe.

Bodies and answers follow CONTRACTS.md; bad input is a 4xx with
`{"error": {"code", "message"}}`, never a traceback: a view lets the error
through and `webui.errors` gives its status and words its message.
"""

from __future__ import annotations

import logging
import threading

from flask import Blueprint, current_app, jsonify, request
from flask.typing import ResponseReturnValue
from werkzeug.datastructures import FileStorage

from scorer.errors import ScoreError
from vision.config import DEFAULT
from vision.exemplars import LOOK_CHARS
from webui.errors import (
    HALL_SET_PATH,
    PHOTO_PATH,
    TEACH_PATH,
    RequestError,
    error_response,
    remember_lang,
    request_lang,
)
from webui.guard import MAX_JSON_BYTES, parse_json, parse_object
from webui.hallset import hall_set, with_hall
from webui.i18n import option_reason
from webui.photos import Busy, PhotoReader

#: the largest photo read (larger uploads are refused before this by MAX_CONTENT_LENGTH)
MAX_BYTES = 25 * 1024 * 1024
#: the largest `exemplars` field of an upload: `ExemplarConfig.most` of the longest looks
#: (`vision.exemplars.LOOK_CHARS`; the classifier's are a third as long), under the
#: form's own 500 kB
MAX_EXEMPLAR_BYTES = DEFAULT.exemplars.most * (LOOK_CHARS + 48)
#: the largest regroup body: a whole table's tiles (about 150) sent back, each with its
#: alternatives and, for a face, its look
MAX_REGROUP_BYTES = 400 * 1024

bp = Blueprint("api", __name__)
_READER_LOCK = threading.Lock()
log = logging.getLogger(__name__)

#: flags the page offers; `/api/options` says which of them the hand makes impossible
FLAGS = ("self_drawn", "fourth_tile", "kong", "last_tile")


def _score_request(obj: dict) -> dict:
    from scorer.request import score_request

    return score_request(obj)


def _read_json_object(most_bytes: int = MAX_JSON_BYTES) -> dict:
    """The request body as a JSON object (bounded by `webui.guard`), or a RequestError."""
    return parse_object(request.get_data(cache=True), most_bytes)


@bp.post("/api/score")
def score():
    return jsonify(_score_request(_read_json_object()))


@bp.post("/api/options")
def options():
    """For each situation flag, whether flipping it keeps the request scorable.

    The scorer's own validation decides (its error codes), so the page can
    disable an option with the scorer's reason instead of guessing. When the
    request itself is refused and flipping a flag would mend it (an option
    ticked before the hand changed), that flag is marked `mends` with the
    reason in the page's words, and `base_message` words the refusal so.
    """
    from scorer.request import check_shape

    obj = _read_json_object()
    check_shape(obj)  # a mistyped flag is the request's error, not an option to mend
    lang = request_lang()
    base = None
    try:
        _score_request(obj)
    except ScoreError as exc:
        base = exc
    base_message = option_reason(base, lang) if base is not None else None
    flags = {}
    for flag in FLAGS:
        flipped = {**obj, flag: not bool(obj.get(flag, False))}
        try:
            _score_request(flipped)
            flags[flag] = {"possible": True}
            if base is not None:
                flags[flag].update(mends=True, message=base_message)
        except ScoreError as exc:
            possible = base is not None and exc.code == base.code
            flags[flag] = {
                "possible": possible,
                "code": exc.code,
                "message": option_reason(exc, lang),
            }
    code = base.code if base is not None else None
    return jsonify({"base_error": code, "base_message": base_message, "flags": flags})


def photo_reader() -> PhotoReader:
    """The app's photo reader, made on first use (readers as configured, else one per core)."""
    reader = current_app.extensions.get("mcr_photos")
    if reader is None:
        with _READER_LOCK:
            reader = current_app.extensions.get("mcr_photos")
            if reader is None:
                reader = PhotoReader(
                    current_app.config.get("MCR_READERS"),
                    current_app.config.get("MCR_PHOTO_QUEUE"),
                    current_app.config.get("MCR_RECOGNIZE"),
                )
                current_app.extensions["mcr_photos"] = reader
    return reader


def _photo_upload() -> FileStorage:
    """The request's uploaded `photo` (a multipart form), or a RequestError saying what
    is wrong with the form, or that photos are not read here (`MCR_READERS` 0)."""
    files = request.files  # parses the form, which sets `form_problem` (webui.app.FormRequest)
    if getattr(request, "form_problem", None):
        raise RequestError("bad_form")
    if not files:
        raise RequestError("no_photo", fields=", ".join(sorted(request.form))[:200] or "none")
    upload = files.get("photo")
    if upload is None:
        raise RequestError("no_photo.field", names=", ".join(sorted(files))[:200])
    if current_app.config.get("MCR_READERS") == 0:
        raise RequestError("recognizer_off")
    return upload


def _read_photo(
    upload: FileStorage, task: str, exemplars: list | None = None
) -> ResponseReturnValue:
    """The reader's answer for the upload (`webui.photos.TASKS`), or 503 with Retry-After
    when every reader is busy. A PhotoError (the photo) or ModelError (the installation)
    is answered by webui.errors."""
    try:
        return jsonify(_answer(upload, task, exemplars))
    except Busy as exc:
        return _busy(exc)


def _answer(upload: FileStorage, task: str, exemplars: list | None = None) -> dict:
    """The reader's answer for the upload, in the request's language (Busy when every
    reader is busy)."""
    name = (upload.filename or "")[:200]
    return _worded(photo_reader().read(upload.stream, name, MAX_BYTES, exemplars, task))


def _busy(exc: Busy) -> ResponseReturnValue:
    """503 with Retry-After: every reader is busy."""
    response, status = error_response(RequestError(exc.code))
    response.headers["Retry-After"] = str(exc.retry_after)
    return response, status


@bp.post(PHOTO_PATH)
def recognize():
    """Read the uploaded photo, leaning on the table's named tiles where sent."""
    upload = _photo_upload()
    return _read_photo(upload, "recognize", with_hall(_exemplars()))


@bp.get(HALL_SET_PATH)
def hall_set_count():
    """How many tiles the hall's set holds (0: none taught)."""
    return jsonify({"count": len(hall_set().tiles())})


@bp.post(HALL_SET_PATH)
def teach_hall():
    """Teach the hall's set from a photo of it laid out in order: every table's photos lean
    on it from now on (the hall PIN is needed, `webui.security`)."""
    upload = _photo_upload()
    try:
        taught = _answer(upload, "teach")
    except Busy as exc:
        return _busy(exc)
    hall_set().keep([{"tile": t["tile"], "look": t["look"]} for t in taught["set"]])
    return jsonify({**taught, "hall": True})


@bp.delete(HALL_SET_PATH)
def forget_hall():
    """Forget the hall's set (the hall changed sets)."""
    hall_set().forget()
    return jsonify({"count": 0})


@bp.post(TEACH_PATH)
def teach():
    """Read a photo of the table's set laid out in order into the set it teaches
    (`vision.tileset`); the page keeps it and sends it with every photo after."""
    upload = _photo_upload()
    return _read_photo(upload, "teach")


def _exemplars() -> list | None:
    """The upload's `exemplars` field (the tiles the table's players named, as JSON:
    `vision.exemplars`), checked before the photo waits for a reader; None when absent."""
    from vision.exemplars import parse_exemplars

    text = request.form.get("exemplars")
    if text is None:
        return None
    try:
        value = parse_json(text.encode("utf-8", "surrogatepass"), MAX_EXEMPLAR_BYTES)
    except RequestError as exc:
        if exc.code != "bad_json":
            raise
        raise RequestError("bad_json.exemplars", **exc.params) from None  # the field, not the body
    parse_exemplars(value, None, 0)  # its shape; the reader then compares the looks
    return value


@bp.post("/api/regroup")
def regroup():
    """Read the tiles the page sends as the hand (a tap on another group of the photo), the
    groups it sends as `ignored` kept as they are: `vision.regroup.read_group`."""
    from vision.regroup import read_group

    return jsonify(_worded(read_group(_read_json_object(MAX_REGROUP_BYTES))))


def _worded(result: dict) -> dict:
    """A recognition result with the reader's notes as `warnings` in the request's language,
    and each note's `texts` in every language, so the page follows its language switch."""
    from vision.notes import all_texts, in_lang

    out = in_lang(result, request_lang())
    if out is not result:  # notes it could word: each of them in every language too
        out["notes"] = [{**n, "texts": all_texts(n)} for n in out["notes"]]
    return out


#: a check's own fields; with `request`, nothing else but `lang` may stand beside them
CHECK_FIELDS = frozenset({"request", "claim", "total"})


@bp.post("/api/check")
def check():
    """Referee check: body `{"request": {score request}, "claim": [...]|"a, b", "total": N}`.

    The score request's fields may also be given at the top level, but not both ways:
    beside `request`, a flag at the top level would be dropped and the claim judged
    against another hand than the referee meant.
    """
    from webui.check import check_claim

    obj = _read_json_object()
    req = obj.get("request")
    if req is None:
        req = {k: v for k, v in obj.items() if k not in CHECK_FIELDS}
    else:
        ScoreError.refuse_unknown(obj, CHECK_FIELDS | {"lang"})
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
                "name_zh_hant": f.name_zh_hant,
                "points": f.points,
                "excludes": list(f.excludes),
            }
            for f in sorted(FANS.values(), key=lambda f: f.id)
        ]
    )


@bp.get("/healthz")
def healthz():
    return jsonify({"status": "ok"})
