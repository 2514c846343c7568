"""Who may talk to the server and who may change a game sheet.

- `Host` allow-list: a page on another site that points its own name at
  this laptop (DNS rebinding) is refused; loopback names always pass, the
  server adds the names and addresses it listens on (`MCR_ALLOWED_HOSTS`).
- A request that changes something (any method but GET/HEAD/OPTIONS) must
  come from the server's own page: a foreign `Origin`/`Referer` is refused,
  and a game sheet change must be JSON, which a cross-site form cannot send.
- When the server is reachable beyond this machine, changing a game sheet
  needs the hall PIN (`MCR_PIN`): a tablet joins once at `/join` (the URL
  and QR code `mcr serve` prints fill the PIN in; a tap on Join sends it), which
  leaves a cookie; scripts may send
  the `X-MCR-PIN` header. Teaching the hall's tile set (`webui.hallset`)
  needs it too; scoring and reading photos stay open to all.
- Every answer carries a Content-Security-Policy (scripts and styles only
  from the server's own files, nothing inline), `nosniff` and
  `frame-ancestors 'none'`.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import threading
import time
from urllib.parse import urlsplit

from flask import Flask, current_app, redirect, render_template, request

from webui.errors import HALL_SET_PATH, RequestError, error_response, request_lang

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
PIN_COOKIE = "mcr_pin"
PIN_HEADER = "X-MCR-PIN"
#: wrong PINs one address may give within PIN_WINDOW seconds before it must wait
PIN_TRIES = 10
PIN_WINDOW = 300.0
#: devices whose wrong PINs are remembered at once (`_forget_failures` makes room)
FAILURES_KEPT = 10_000

#: per address, each distinct wrong PIN given (by its digest) and when it was last given
_failures: dict[str, dict[str, float]] = {}
_failures_lock = threading.Lock()


def host_name(host: str) -> str:
    """The name part of a `Host` header: without the port, IPv6 brackets removed."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def is_loopback(name: str) -> bool:
    if name in LOOPBACK_NAMES or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def host_allowed(host: str, allowed: frozenset[str] | None) -> bool:
    """Whether a `Host` header names this server: loopback, or one of `allowed`."""
    name = host_name(host)
    if not name:
        return False
    return is_loopback(name) or name in (allowed or ())


def _same_origin(url: str) -> bool:
    """Whether an `Origin` or `Referer` names this server; one that does not parse does not."""
    try:
        parts = urlsplit(url)
    except ValueError:  # "http://[" and the like: no page of ours sends it
        return False
    return parts.scheme in ("http", "https") and parts.netloc.lower() == request.host.lower()


def _origin_problem() -> str | None:
    """Why a state-changing request is not from this server's own page, or None."""
    if request.headers.get("Sec-Fetch-Site", "").lower() == "cross-site":
        return "bad_origin"
    origin = request.headers.get("Origin")
    if origin is not None:
        return None if _same_origin(origin) else "bad_origin"
    referer = request.headers.get("Referer")
    if referer is not None and not _same_origin(referer):
        return "bad_origin"
    return None  # no browser sends a cross-site POST without Origin; scripts send neither


def _is_game_write() -> bool:
    return request.method not in SAFE_METHODS and request.path.startswith("/game/api/")


def _is_hall_write() -> bool:
    """A change of the hall's set (`webui.hallset`): every table's photos lean on it."""
    return request.method not in SAFE_METHODS and request.path == HALL_SET_PATH


def _recent(tries: dict[str, float], now: float) -> dict[str, float]:
    """The wrong PINs of one device still within PIN_WINDOW."""
    return {k: t for k, t in tries.items() if now - t < PIN_WINDOW}


def _locked_out(addr: str) -> bool:
    now = time.monotonic()
    with _failures_lock:
        recent = _recent(_failures.get(addr, {}), now)
        if recent:
            _failures[addr] = recent
        else:
            _failures.pop(addr, None)
        return len(recent) >= PIN_TRIES


def _lockout_headers() -> dict[str, str]:
    """`Retry-After`: seconds until this device's oldest wrong PIN in the window is
    forgotten (at least 1), when its lockout ends."""
    with _failures_lock:
        times = list(_failures.get(request.remote_addr or "", {}).values())
    left = PIN_WINDOW - (time.monotonic() - min(times)) if times else 1.0
    return {"Retry-After": str(max(1, int(left + 0.999)))}


def _note_failure(addr: str, given: str) -> None:
    """A wrong PIN counts once however often it comes: a tablet still holding the PIN of
    an earlier event sends it with every request, and that is no guess; a guesser must
    send PINs that differ."""
    key = hashlib.sha256(given.encode("utf-8", "replace")).hexdigest()[:16]
    now = time.monotonic()
    with _failures_lock:
        if len(_failures) >= FAILURES_KEPT:
            _forget_failures(now)
        _failures.setdefault(addr, {})[key] = now


def _forget_failures(now: float) -> None:
    """Room in the wrong-PIN record (lock held), down to half of it: a flood of addresses
    forgets the devices whose failures are out of the window, then those not locked out,
    the longest idle first, so that a device locked out stays locked out."""
    recent = {a: _recent(tries, now) for a, tries in _failures.items()}
    order = sorted(
        (a for a in recent if recent[a]),
        key=lambda a: (len(recent[a]) >= PIN_TRIES, max(recent[a].values())),
    )
    _failures.clear()
    _failures.update((a, recent[a]) for a in order[max(0, len(order) - FAILURES_KEPT // 2) :])


def check_pin(given: str) -> str | None:
    """None when `given` is the hall PIN, else `pin_required` or `pin_locked`."""
    pin = str(current_app.config.get("MCR_PIN") or "")
    addr = request.remote_addr or ""
    if _locked_out(addr):
        return "pin_locked"
    if given and hmac.compare_digest(given.encode()[:64], pin.encode()):
        return None
    if given:
        _note_failure(addr, given)
    return "pin_required"


def pin_problem() -> str | None:
    """Why this request may not change a game sheet, or None (PIN known or not needed)."""
    if not current_app.config.get("MCR_PIN") or is_loopback(request.remote_addr or ""):
        return None
    return check_pin(request.headers.get(PIN_HEADER) or request.cookies.get(PIN_COOKIE) or "")


def _check_request():
    """Refuse foreign hosts, cross-site writes and sheet changes without the PIN."""
    allowed = current_app.config.get("MCR_ALLOWED_HOSTS")
    if not host_allowed(request.host, allowed):
        return _refuse("bad_host")
    if request.method in SAFE_METHODS or request.routing_exception is not None:
        return None  # a wrong address or method: its own 404/405
    problem = _origin_problem()
    if problem:
        return _refuse(problem)
    if _is_game_write() and request.mimetype != "application/json":
        return _refuse("bad_content_type")
    if _is_game_write() or _is_hall_write():
        problem = pin_problem()
        if problem == "pin_required" and _is_hall_write():
            problem = "pin_required.hall"  # the same refusal, worded for the tile set
        if problem:
            return _refuse(problem)
    return None


def _refuse(code: str):
    response, status = error_response(RequestError(code))
    if code == "pin_locked":
        response.headers.update(_lockout_headers())
    return response, status


def _headers(response):
    response.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; script-src 'self'; style-src 'self'; "
        "img-src 'self' blob: data:; connect-src 'self'; object-src 'none'; "
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    )
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response


def join():
    """`/join?pin=...` (the QR code, a link) shows the form with the PIN filled in; the PIN
    is tried only when it is sent from the form (a POST, which only this server's page
    may send). Another site can make a tablet fetch a link, and a link that tried its PIN
    would let that site spend the tablet's wrong-PIN allowance and lock it out."""
    needed = bool(current_app.config.get("MCR_PIN"))
    if request.method == "GET":
        return _join_page(needed, None, 200, filled=request.args.get("pin", "")[:64])
    given = request.form.get("pin", "")[:64]
    problem = check_pin(given) if needed and given else "pin_required"
    if problem is None:
        response = redirect("/game/")
        response.set_cookie(
            PIN_COOKIE, given, max_age=7 * 24 * 3600, httponly=True, samesite="Strict"
        )
        return response
    status = {"pin_locked": 429}.get(problem, 403 if given else 200)
    shown = "pin_wrong" if problem == "pin_required" and given else problem
    return _join_page(needed, shown if given else None, status)


def _join_page(needed: bool, message: str | None, status: int, filled: str = ""):
    """The page asking for the PIN (`filled` in where a link carried it), with `message`
    (a code) shown above the form."""
    page = render_template(
        "join.html",
        needed=needed,
        wrong=message is not None,
        filled=filled,
        message=RequestError(message).message_in(request_lang()) if message else "",
    )
    return page, status, _lockout_headers() if status == 429 else {}


def register(app: Flask) -> None:
    app.before_request(_check_request)
    app.after_request(_headers)
    app.add_url_rule("/join", "join", join, methods=["GET", "POST"])
