"""Turn the bytes of an uploaded photo into an upright BGR image, safely.

Phones send JPEG (often rotated through the EXIF Orientation tag), PNG or
WebP. The image's dimensions are read from its header *before* decoding so
a small file claiming a gigantic image (a decompression bomb) is refused
without allocating it. OpenCV applies the EXIF orientation while decoding
(checked by the tests), so boxes are in pixels of the photo as a person
sees it.
"""

from __future__ import annotations

import struct

import cv2
import numpy as np

from vision.errors import PhotoError

MAX_BYTES = 25 * 1024 * 1024
MAX_PIXELS = 50_000_000
MIN_SIDE = 8
#: markers (fill bytes included) read before the first scan: a camera writes a few dozen
MAX_JPEG_MARKERS = 10_000

_SOF_MARKERS = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def sniff_format(data: bytes) -> str:
    """The container format from the magic bytes: 'jpeg', 'png', 'webp' or ''."""
    if data[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if data[4:8] == b"ftyp" and data[8:12] in (b"heic", b"heix", b"mif1", b"msf1", b"hevc"):
        return "heic"
    return ""


def _jpeg_info(data: bytes) -> tuple[int, int, int]:
    """(width, height, offset of the first scan) by walking the JPEG segments; at most
    `MAX_JPEG_MARKERS` of them, since a header of millions of two-byte markers would
    hold a reader for seconds."""
    pos = 2
    size: tuple[int, int] | None = None
    for _ in range(MAX_JPEG_MARKERS):
        if pos + 4 > len(data):
            break
        if data[pos] != 0xFF:
            raise PhotoError("truncated_image.damaged")
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):  # stand-alone markers
            pos += 2
            continue
        (length,) = struct.unpack(">H", data[pos + 2 : pos + 4])
        if marker in _SOF_MARKERS and pos + 9 <= len(data):
            height, width = struct.unpack(">HH", data[pos + 5 : pos + 9])
            size = (width, height)
        if marker == 0xDA:  # start of scan: image data follows
            if size is None:
                break
            return size[0], size[1], pos
        pos += 2 + length
    else:
        raise PhotoError("truncated_image.damaged")
    raise PhotoError("truncated_image.no_data")


def _png_size(data: bytes) -> tuple[int, int]:
    if len(data) < 24 or data[12:16] != b"IHDR":
        raise PhotoError("truncated_image.no_header")
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def _webp_size(data: bytes) -> tuple[int, int]:
    chunk = data[12:16]
    if chunk == b"VP8X" and len(data) >= 30:
        width = 1 + int.from_bytes(data[24:27], "little")
        height = 1 + int.from_bytes(data[27:30], "little")
        return width, height
    if chunk == b"VP8 " and len(data) >= 30:
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L" and len(data) >= 25:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    raise PhotoError("truncated_image.webp_kind")


def image_size(data: bytes) -> tuple[int, int]:
    """(width, height) read from the header only; PhotoError when unreadable."""
    kind = sniff_format(data)
    if kind == "jpeg":
        width, height, _ = _jpeg_info(data)
        return width, height
    if kind == "png":
        return _png_size(data)
    if kind == "webp":
        return _webp_size(data)
    if kind == "heic":
        raise PhotoError("unsupported_format")
    raise PhotoError("not_an_image")


def _check_complete(data: bytes, kind: str) -> None:
    """Refuse files cut off in the middle (a broken upload), which decoders half-read."""
    if kind == "jpeg":
        _, _, scan = _jpeg_info(data)
        if data.find(b"\xff\xd9", scan) < 0:
            raise PhotoError("truncated_image.no_end", format="JPEG", part="marker")
    elif kind == "png" and data.rfind(b"IEND") < 0:
        raise PhotoError("truncated_image.no_end", format="PNG", part="chunk")
    elif kind == "webp":
        (riff_size,) = struct.unpack("<I", data[4:8])
        if len(data) < riff_size + 8:
            raise PhotoError("truncated_image", format="WebP")


def load_photo(data: bytes, name: str = "") -> np.ndarray:
    """Decode photo bytes to an upright BGR uint8 image, or raise PhotoError.

    Limits: at most MAX_BYTES bytes and MAX_PIXELS pixels (checked from the
    header before decoding). `name` only makes messages clearer.
    """
    label = f" ({name})" if name else ""
    if not data:
        raise PhotoError("empty_input", label=label)
    if len(data) > MAX_BYTES:
        raise PhotoError("too_large", label=label, size=len(data) / 1e6, limit=MAX_BYTES / 1e6)
    kind = sniff_format(data)
    width, height = image_size(data)
    if width * height > MAX_PIXELS:
        raise PhotoError(
            "too_large.pixels", label=label, width=width, height=height, limit=MAX_PIXELS / 1e6
        )
    if min(width, height) < MIN_SIDE:
        raise PhotoError("too_small", label=label, width=width, height=height)
    _check_complete(data, kind)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise PhotoError("bad_image", label=label)
    return image
