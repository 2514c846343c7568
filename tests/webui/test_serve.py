"""What `mcr serve` sets up: loopback needs no PIN, the hall gets one with its URL and
QR code, the names it answers to, and waitress unless --dev."""

from __future__ import annotations

from webui.cli import build_parser
from webui.commands import _announce, _config
from webui.server import is_loopback_host, own_names, page_url, qr_text


def _args(*argv: str):
    return build_parser().parse_args(["serve", *argv])


def test_loopback_has_no_pin():
    config = _config(_args())
    assert "MCR_PIN" not in config
    assert "127.0.0.1" in config["MCR_ALLOWED_HOSTS"]


def test_the_hall_gets_a_pin_and_its_names():
    config = _config(_args("--host", "0.0.0.0", "--allow-host", "mcr.hall"))
    pin = config["MCR_PIN"]
    assert len(pin) == 6 and pin.isdigit()
    assert "mcr.hall" in config["MCR_ALLOWED_HOSTS"]
    assert _config(_args("--host", "0.0.0.0", "--pin", "2468"))["MCR_PIN"] == "2468"


def test_named_host_is_allowed_and_loopback_checks():
    assert own_names("192.168.7.7") == frozenset({"192.168.7.7"})
    assert is_loopback_host("127.0.0.1") and is_loopback_host("localhost")
    assert is_loopback_host("::1") and not is_loopback_host("0.0.0.0")
    assert page_url("192.168.7.7", 8000) == "http://192.168.7.7:8000/"


def test_start_message_has_the_join_url_and_a_qr_code(capsys):
    _announce(_args("--host", "192.168.7.7"), 8000, "135790")
    out = capsys.readouterr().out
    assert "http://192.168.7.7:8000/join?pin=135790" in out
    assert "135790" in out
    qr = qr_text("http://192.168.7.7:8000/join?pin=135790")
    assert qr and qr in out and len(qr.splitlines()) > 10


def test_dev_flag_and_readers():
    args = _args("--dev", "--readers", "0", "--threads", "8")
    assert args.dev and args.readers == 0 and args.threads == 8
    assert not _args().dev
