"""The production server behind `mcr serve`: waitress, with every resource bounded.

waitress is pure Python and runs alike on Linux, macOS and Windows. It
reads requests asynchronously, so a slow or half-sent request holds a
socket, not a thread; only complete requests reach the `threads` that run
the app. Limits: `connection_limit` open connections, `channel_timeout`
seconds of silence before a connection is closed, request bodies of at most
`MAX_BODY` bytes (spooled to a temporary file past 512 KB, never all in
memory). On POSIX the listening socket is opened with SO_REUSEADDR, so a
restart after a crash binds at once.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from dataclasses import dataclass

from flask import Flask

#: a photo (25 MB) and its multipart wrapping
MAX_BODY = 26 * 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """The server's bounds; the defaults serve a hall of 20-40 tablets from a laptop."""

    threads: int = 48
    connection_limit: int = 256
    channel_timeout: int = 60
    max_header_bytes: int = 64 * 1024


def make_server(app: Flask, host: str, port: int, limits: Limits = Limits()):
    """A waitress server bound to host:port (OSError when it cannot listen); `.run()` serves."""
    from waitress.server import create_server

    return create_server(
        app,
        host=host,
        port=port,
        threads=limits.threads,
        connection_limit=limits.connection_limit,
        channel_timeout=limits.channel_timeout,
        max_request_body_size=MAX_BODY,
        max_request_header_size=limits.max_header_bytes,
        backlog=1024,
        asyncore_use_poll=True,  # select() stops at 1024 sockets
        expose_tracebacks=False,
        ident="mcr",
    )


def is_wildcard(host: str) -> bool:
    return host in ("", "0.0.0.0", "::", "[::]")


def is_loopback_host(host: str) -> bool:
    if host == "localhost":
        return True
    with contextlib.suppress(ValueError):
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    return False


def lan_address() -> str | None:
    """This machine's address on the local network (a UDP socket's route; nothing is sent)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("10.255.255.255", 1))
        address = s.getsockname()[0]
        if not ipaddress.ip_address(address).is_loopback:
            return address
    return None


def own_names(host: str, extra: list[str] | None = None) -> frozenset[str]:
    """The `Host` names the server answers to besides loopback: what it listens on."""
    names = {h.lower().strip("[]") for h in extra or []}
    if not is_wildcard(host):
        names.add(host.lower().strip("[]"))
        return frozenset(names)
    hostname = socket.gethostname().lower()
    names.update({hostname, f"{hostname}.local", socket.getfqdn().lower()})
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(hostname, None):
            names.add(str(info[4][0]).lower())
    address = lan_address()
    if address:
        names.add(address)
    return frozenset(n for n in names if n)


def page_url(host: str, port: int) -> str:
    """The address tablets open: the LAN address when listening on every interface."""
    shown = (lan_address() or "127.0.0.1") if is_wildcard(host) else host
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def qr_text(url: str) -> str | None:
    """A QR code of `url` drawn with characters for the terminal (None without segno)."""
    try:
        import segno
    except ImportError:
        return None
    import io

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()
