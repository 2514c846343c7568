"""Photo loading: formats, EXIF orientation, and clear errors for bad or huge input."""

from __future__ import annotations

import struct
import time
import zlib

import cv2
import numpy as np
import pytest

import vision.photo as photo
from vision.errors import PhotoError
from vision.photo import image_size, load_photo


def _picture(w: int = 40, h: int = 20) -> np.ndarray:
    """A picture whose left half is red and right half blue, so turns are visible."""
    img = np.zeros((h, w, 3), np.uint8)
    img[:, : w // 2] = (0, 0, 255)
    img[:, w // 2 :] = (255, 0, 0)
    return img


def _encode(ext: str, img: np.ndarray | None = None) -> bytes:
    ok, buf = cv2.imencode(ext, _picture() if img is None else img)
    assert ok
    return buf.tobytes()


def _with_orientation(jpeg: bytes, orientation: int) -> bytes:
    """Insert an EXIF APP1 segment holding only the Orientation tag after the JPEG's SOI."""
    ifd = struct.pack(">H", 1) + struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0)
    tiff = b"MM\x00*" + struct.pack(">I", 8) + ifd + struct.pack(">I", 0)
    payload = b"Exif\x00\x00" + tiff
    app1 = b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
    return jpeg[:2] + app1 + jpeg[2:]


@pytest.mark.parametrize("ext", [".jpg", ".png", ".webp"])
def test_common_formats_decode(ext: str) -> None:
    image = load_photo(_encode(ext), "x" + ext)
    assert image.shape == (20, 40, 3) and image.dtype == np.uint8
    assert image_size(_encode(ext)) == (40, 20)


def test_exif_orientation_is_applied() -> None:
    data = _with_orientation(_encode(".jpg"), 6)  # 6: turn 90° clockwise to view
    image = load_photo(data)
    assert image.shape[:2] == (40, 20)
    # after a clockwise turn the left (red) half is on top
    top, bottom = image[2, 10], image[-3, 10]
    assert top[2] > 200 and top[0] < 60
    assert bottom[0] > 200 and bottom[2] < 60


def test_orientation_1_keeps_the_image() -> None:
    assert load_photo(_with_orientation(_encode(".jpg"), 1)).shape[:2] == (20, 40)


def test_empty_input() -> None:
    with pytest.raises(PhotoError) as err:
        load_photo(b"", "a.jpg")
    assert err.value.code == "empty_input"


def test_not_an_image() -> None:
    with pytest.raises(PhotoError) as err:
        load_photo(b"hello, this is text and not a photo at all")
    assert err.value.code == "not_an_image"
    assert err.value.to_json()["error"]["code"] == "not_an_image"


@pytest.mark.parametrize("ext", [".jpg", ".png", ".webp"])
def test_truncated_file(ext: str) -> None:
    data = _encode(ext, _picture(200, 100))
    with pytest.raises(PhotoError) as err:
        load_photo(data[: len(data) // 2])
    assert err.value.code in ("truncated_image", "bad_image")


def test_header_only_jpeg_is_truncated() -> None:
    data = _encode(".jpg")
    with pytest.raises(PhotoError) as err:
        load_photo(data[:20])
    assert err.value.code == "truncated_image"


def _png_claiming(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    body = struct.pack(">I", len(ihdr)) + chunk + struct.pack(">I", zlib.crc32(chunk))
    idat = b"IDAT" + zlib.compress(b"\x00" * 1000)
    body += struct.pack(">I", len(idat) - 4) + idat + struct.pack(">I", zlib.crc32(idat))
    iend = b"IEND"
    body += struct.pack(">I", 0) + iend + struct.pack(">I", zlib.crc32(iend))
    return b"\x89PNG\r\n\x1a\n" + body


def _jpeg_claiming(width: int, height: int) -> bytes:
    """A real small JPEG whose frame header is rewritten to claim other dimensions."""
    data = bytearray(_encode(".jpg"))
    sof = data.find(b"\xff\xc0")
    data[sof + 5 : sof + 9] = struct.pack(">HH", height, width)
    return bytes(data)


@pytest.mark.parametrize("make", [_png_claiming, _jpeg_claiming])
def test_huge_dimensions_refused_before_decoding(make, monkeypatch) -> None:
    def no_decode(*_a, **_k):
        raise AssertionError("a too large image must not be decoded")

    monkeypatch.setattr(photo.cv2, "imdecode", no_decode)
    data = make(60000, 60000)
    assert len(data) < 10_000
    with pytest.raises(PhotoError) as err:
        load_photo(data, "bomb")
    assert err.value.code == "too_large"
    assert "60000x60000" in err.value.message


def test_too_many_bytes(monkeypatch) -> None:
    monkeypatch.setattr(photo, "MAX_BYTES", 100)
    with pytest.raises(PhotoError) as err:
        load_photo(_encode(".png", _picture(200, 100)))
    assert err.value.code == "too_large"


def test_heic_gets_a_clear_message() -> None:
    data = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 64
    with pytest.raises(PhotoError) as err:
        load_photo(data)
    assert err.value.code == "unsupported_format"


def test_tiny_image_refused() -> None:
    with pytest.raises(PhotoError) as err:
        load_photo(_encode(".png", _picture(4, 4)))
    assert err.value.code == "too_small"


def test_a_header_of_millions_of_markers_is_refused_at_once() -> None:
    """A 24 MB file of stand-alone JPEG markers before a real picture: walking them one
    by one would hold a photo reader for seconds. The header walk stops after
    `MAX_JPEG_MARKERS` and the file is refused as damaged, at once; a few such markers
    (allowed between segments) still decode."""
    picture = _encode(".jpg", _picture(64, 48))
    data = b"\xff\xd8" + b"\xff\xd0" * (12 * 2**20 - 8) + picture[2:]
    started = time.perf_counter()
    with pytest.raises(PhotoError) as err:
        load_photo(data)
    assert err.value.code == "truncated_image"
    assert time.perf_counter() - started < 2.0
    assert load_photo(b"\xff\xd8" + b"\xff\xd0" * 20 + picture[2:]).shape[:2] == (48, 64)
