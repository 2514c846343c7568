"""The production server behind `mcr serve`: waitress, with every resource bounded.

waitress is pure Python and runs alike on Linux, macOS and Windows. It
reads requests asynchronously, so a slow or half-sent request holds a
socket, not a thread; only complete requests reach the `threads` that run
the app. Limits: `connection_limit` open connections, of which one address
may hold `per_address` (this machine's own are not counted), `channel_timeout`
seconds of silence before a connection is closed, a request's headers within
`header_seconds` of its first byte and its body at `min_rate` on average after
that (a client sending a byte now and then is silent never, and would
otherwise hold its connection for ever), request bodies of at most
`MAX_BODY` bytes (spooled to a temporary file past 512 KB, never all in
memory). On POSIX the listening socket is opened with SO_REUSEADDR, so a
restart after a crash binds at once.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import socket
import time
from dataclasses import dataclass

from flask import Flask
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser, ParsingError
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import ErrorTask
from werkzeug.exceptions import BadRequest, default_exceptions

from webui.memory import return_big_buffers

log = logging.getLogger(__name__)

#: a photo (25 MB) and its multipart wrapping
MAX_BODY = 26 * 1024 * 1024
#: the first bytes of a request its path is read from, should its headers be refused
TARGET_BYTES = 4096


@dataclass(frozen=True)
class Limits:
    """The server's bounds; the defaults serve a hall of 20-40 tablets from a laptop."""

    threads: int = 48
    connection_limit: int = 256
    channel_timeout: int = 60
    max_header_bytes: int = 64 * 1024
    #: connections one address may hold: a browser opens six, a few tablets behind one
    #: router a few dozen; one device cannot take every connection
    per_address: int = 64
    #: seconds a request's headers may take from its first byte
    header_seconds: float = 30.0
    #: bytes a second a request must come at on average once its headers are late: an
    #: 8 MB photo over crowded Wi-Fi comes at tens of KB a second, a trickle at a few bytes
    min_rate: float = 2048.0
    #: seconds between the checks of those deadlines
    check_every: int = 5
    #: this machine's own connections count against no address's share
    trust_loopback: bool = True


class _ErrorTask(ErrorTask):
    """waitress's own refusals (a body past MAX_BODY, HTTP it cannot parse) answered as
    the app answers its errors (`webui.errors`: JSON for the API, the error page for a
    page, in the client's language, with the app's security headers), so the page and
    scripts read one shape of error whoever answers. Should that fail, waitress's own
    plain answer goes out: an error task must not fail."""

    def execute(self) -> None:
        try:
            status, headers, body = self._as_app_answers()
        except Exception:
            log.exception("answering waitress's refusal as the app would")
            super().execute()
            return
        self.status = status
        self.response_headers.extend(headers)
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)

    def _as_app_answers(self) -> tuple[str, list[tuple[str, str]], bytes]:
        app = self.channel.server.app
        error = self.request.error
        asked = {
            name: self.request.headers[key]
            for name, key in (("Accept-Language", "ACCEPT_LANGUAGE"), ("Cookie", "COOKIE"))
            if key in self.request.headers
        }
        path = getattr(self.request, "path", None) or "/"
        if error.code == 431:  # headers past their limit: waitress parsed a request for "/"
            path = getattr(self.request, "asked_path", None) or path
        with app.test_request_context(path=path, headers=asked):
            exc = default_exceptions.get(error.code, BadRequest)()
            response = app.process_response(app.make_response(app.handle_user_exception(exc)))
            body = response.get_data()
        skip = {"content-length", "connection"}
        headers = [(k, v) for k, v in response.headers.items() if k.lower() not in skip]
        return f"{error.code} {error.reason}", headers, body


class _Parser(HTTPRequestParser):
    """waitress's request parser, with a request line or header that Python cannot read
    (a target "http://[", a Content-Length of 5,000 digits) refused as a bad request:
    waitress lets such a ValueError out and closes the connection without an answer.
    It keeps the path the request asked for from its first bytes (`asked_path`): waitress
    parses headers past their limit as a request for "/", and the refusal is then
    answered as a page where an API path asked for JSON."""

    asked_path: str | None = None

    def received(self, data: bytes) -> int:
        if self.asked_path is None and self.body_rcv is None:
            self.asked_path = target_path((self.header_plus + data)[:TARGET_BYTES])
        return super().received(data)

    def parse_header(self, header_plus: bytes) -> None:
        try:
            super().parse_header(header_plus)
        except ValueError as exc:
            raise ParsingError("the request line or headers do not parse") from exc


def target_path(head: bytes) -> str | None:
    """The path of the target in a request's first bytes, once they show where it ends (a
    '?', a space, a line's end) or TARGET_BYTES of it; None before. A target that is no
    path (`*`, a whole URL) is "/"."""
    _, space, rest = head.partition(b" ")
    ends = [i for i in (rest.find(b"?"), rest.find(b" "), rest.find(b"\r")) if i >= 0]
    if not space or (not ends and len(head) < TARGET_BYTES):
        return None if len(head) < TARGET_BYTES else "/"
    target = rest[: min(ends)] if ends else rest
    return target.decode("latin-1") if target.startswith(b"/") else "/"


class _Channel(HTTPChannel):
    """A connection that notes when the request it is reading began and how much of it
    has come, and answers what waitress refuses in the app's words (`_ErrorTask`)."""

    error_task_class = _ErrorTask
    parser_class = _Parser
    began: float | None = None
    got = 0

    def received(self, data: bytes) -> bool:
        before = self.request
        done = super().received(data)
        if self.request is None:
            self.began = None
        elif self.request is not before:  # a new request began in these bytes
            self.began, self.got = time.monotonic(), 0
        self.got += len(data)
        return done

    def overdue(self, now: float, limits: Limits) -> bool:
        """Whether the request in progress is too slow: its headers not all come within
        `header_seconds`, or its body coming slower than `min_rate` on average."""
        if self.began is None or self.request is None or self.requests:
            return False
        spent = now - self.began
        if not self.request.headers_finished:
            return spent > limits.header_seconds
        return spent > limits.header_seconds and self.got < limits.min_rate * spent


class _HallServer(TcpWSGIServer):
    """waitress's TCP server with a share of connections per address and deadlines on
    requests in progress."""

    channel_class = _Channel
    limits: Limits = Limits()
    app: Flask  # the app itself; `application` may be waitress's wrapping of it
    warned = -60.0  # when `_warn` last logged

    def handle_accept(self) -> None:
        try:
            pair = self.accept()
            if pair is None:
                return
            conn, addr = pair
            self.set_socket_options(conn)
        except OSError:
            return  # a socket closed before it was taken: nothing to serve
        if self._crowded(addr[0]):
            self._warn(f"{addr[0]} holds {self.limits.per_address} connections: refused another")
            conn.close()
            return
        self.channel_class(self, conn, self.fix_addr(addr), self.adj, map=self._map)

    def _crowded(self, address: str) -> bool:
        """Whether `address` already holds its share of connections."""
        if self.limits.trust_loopback and is_loopback_host(address):
            return False
        held = sum(1 for c in self.active_channels.values() if c.addr and c.addr[0] == address)
        return held >= self.limits.per_address

    def maintenance(self, now: float) -> None:
        super().maintenance(now)
        clock = time.monotonic()
        for channel in list(self.active_channels.values()):
            if isinstance(channel, _Channel) and channel.overdue(clock, self.limits):
                self._warn(f"{channel.addr[0]}: a request too slow to wait for, closed")
                channel.will_close = True

    def _warn(self, what: str) -> None:
        """Say why a device's connection was refused or closed, once a minute at most
        (an organiser asking why a tablet is turned away finds it in the log)."""
        now = time.monotonic()
        if now - self.warned >= 60.0:
            self.warned = now
            log.warning(what)


def make_server(app: Flask, host: str, port: int, limits: Limits = Limits()):
    """A waitress server bound to host:port (OSError when it cannot listen); `.run()` serves."""
    from waitress.adjustments import Adjustments
    from waitress.task import ThreadedTaskDispatcher

    return_big_buffers()
    adj = Adjustments(
        host=host,
        port=port,
        threads=limits.threads,
        connection_limit=limits.connection_limit,
        channel_timeout=limits.channel_timeout,
        cleanup_interval=limits.check_every,
        max_request_body_size=MAX_BODY,
        max_request_header_size=limits.max_header_bytes,
        backlog=1024,
        asyncore_use_poll=True,  # select() stops at 1024 sockets
        expose_tracebacks=False,
        ident="mcr",
    )
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    sockets: dict = {}
    servers = []
    try:
        for info in adj.listen:  # "localhost" may name both 127.0.0.1 and ::1
            server = _HallServer(app, sockets, dispatcher=dispatcher, adj=adj, sockinfo=info)
            server.limits, server.app = limits, app
            servers.append(server)
    except OSError:
        for server in servers:
            server.close()
        dispatcher.shutdown()
        raise
    if len(servers) == 1:
        return servers[0]
    listening = [(s.effective_host, s.effective_port) for s in servers]
    return _Sockets(sockets, adj, listening, dispatcher, servers[-1].log_info)


class _Sockets(MultiSocketServer):
    """Several listening sockets served as one (a name with an IPv4 and an IPv6 address)."""

    @property
    def effective_port(self) -> int:
        return self.effective_listen[0][1]


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
