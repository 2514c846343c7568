"""Error pages and JSON errors: the page never shows a traceback.

Under `/api/` (and `/healthz`) every failure is `{"error": {"code",
"message"}}` with a 4xx/5xx status, so the page's script can show the
message; elsewhere a short friendly page.
"""

from __future__ import annotations

import logging

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError

log = logging.getLogger(__name__)

#: readable messages for the HTTP errors a user can actually cause
MESSAGES = {
    400: "The request could not be read.",
    404: "There is no such page.",
    405: "This address does not accept that method.",
    413: "The photo is too large (the limit is 25 MB). Take it at a lower resolution.",
    500: "Something went wrong on the server. Please try again.",
}

#: the same in Chinese, shown under the English on the error page
MESSAGES_ZH = {
    400: "请求无法读取。",
    404: "没有这个页面。",
    405: "这个地址不接受这种请求。",
    413: "照片太大（上限 25 MB）。",
    500: "服务器出错了，请再试一次。",
}

CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    500: "internal_error",
}


def json_error(code: str, message: str, status: int):
    """A JSON error response in the contract's shape."""
    return jsonify({"error": {"code": code, "message": message}}), status


def wants_json() -> bool:
    path = request.path
    return path.startswith("/api/") or path == "/healthz" or "/api/" in path


def _handle_http(exc: HTTPException):
    status = exc.code or 500
    message = MESSAGES.get(status, exc.description or exc.name)
    if wants_json():
        return json_error(CODES.get(status, exc.name.lower().replace(" ", "_")), message, status)
    page = render_template(
        "error.html", status=status, message=message, message_zh=MESSAGES_ZH.get(status, "")
    )
    return page, status


def _handle_unexpected(exc: Exception):
    if isinstance(exc, HTTPException):
        return _handle_http(exc)
    log.exception("unhandled error on %s", request.path)
    return _handle_http(InternalServerError())


def register(app: Flask) -> None:
    """Install the handlers on the app (all HTTP errors and anything unexpected)."""
    app.register_error_handler(HTTPException, _handle_http)
    app.register_error_handler(Exception, _handle_unexpected)
