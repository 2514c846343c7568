"""A table's own tile set, learnt from the tiles its players have named.

A club's set the classifier never trained on is misread the same way photo
after photo (one held-out set's 六 read as 九, its framed 白 as 7p). Once a
player has named the tiles of a hand (corrected what was misread, kept the
rest by scoring it), each of those tiles is an exemplar: its *look* (the
classifier's pooled features of its crop, a unit vector) and its code. A
later tile that looks nearly like an exemplar is read as that exemplar's
tile (`adapted`):

- when the classifier's own choice has exemplars too, the tile goes to
  another code only if it looks more like that code's exemplars than like
  its own choice's, by `ExemplarConfig.margin`, and at least
  `ExemplarConfig.near` alike;
- when the choice has none (the player has not shown that tile yet), only a
  look `ExemplarConfig.same` alike moves it: a tile the memory has not seen
  must not be pulled to the nearest one it has;
- a tile read as a back stays one: the exemplars name faces.

The looks travel as text (`encode_look`): the recognition result gives each
tile of the hand its look, the page keeps the looks of the tiles the player
named and sends them with the next photo (`parse_exemplars`). A look names
the classifier it came from, so looks from another model are dropped rather
than compared.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import Any, TypeGuard

import numpy as np

from scorer.tiles import BACK, INDEX
from vision.config import DEFAULT, ExemplarConfig
from vision.errors import TileListError

#: characters of the model tag a look starts with (`vision.classify.model_tag`)
TAG_CHARS = 8
#: the longest base64 of a look (768 numbers: the classifier's has 240)
LOOK_CHARS = 1024
#: what a look's text is: the tag in hex, a colon, base64 of at most 768 numbers
LOOK_TEXT = re.compile(rf"[0-9a-f]{{{TAG_CHARS}}}:[A-Za-z0-9+/]{{1,{LOOK_CHARS}}}={{0,2}}")


@dataclass(frozen=True)
class Exemplars:
    """Tiles a player named: their looks (N, D unit vectors) and class indices (N,)."""

    looks: np.ndarray
    codes: np.ndarray

    def __len__(self) -> int:
        return len(self.codes)


NONE = Exemplars(np.zeros((0, 0), np.float32), np.zeros(0, int))


def unit(features: np.ndarray) -> np.ndarray:
    """Rows scaled to length 1 (a row of zeros stays zeros)."""
    norms = np.linalg.norm(features, axis=-1, keepdims=True)
    return (features / np.maximum(norms, 1e-12)).astype(np.float32)


def encode_look(look: np.ndarray, tag: str) -> str:
    """A look as text: the model's tag, a colon, and base64 of its components scaled
    to 0-255 (features after a ReLU are not negative; one byte each keeps the
    similarities to about 0.002)."""
    top = float(look.max()) if look.size else 0.0
    q = np.round(np.clip(look, 0, None) / top * 255) if top > 0 else np.zeros(look.shape)
    return f"{tag}:" + base64.b64encode(q.astype(np.uint8).tobytes()).decode("ascii")


def is_look(text: object) -> TypeGuard[str]:
    """Whether `text` is a look's text as `encode_look` writes it."""
    return isinstance(text, str) and LOOK_TEXT.fullmatch(text) is not None


def decode_look(text: object, tag: str | None, dim: int) -> np.ndarray | None:
    """The unit look of `encode_look`'s text, None when it came from another model than
    the one tagged `tag` (None: a model without looks); TileListError when it is not a
    look."""
    if not is_look(text):
        raise TileListError("bad_exemplars.look")
    if text.partition(":")[0] != tag:
        return None
    raw = look_bytes(text)
    if raw is None or len(raw) != dim:
        raise TileListError("bad_exemplars.look")
    return unit(np.frombuffer(raw, np.uint8).astype(np.float32))


def look_bytes(text: str) -> bytes | None:
    """The bytes a look's text carries after its tag, None where they are not base64."""
    try:
        return base64.b64decode(text.partition(":")[2], validate=True)
    except (binascii.Error, ValueError):
        return None


def parse_exemplars(
    items: Any, tag: str | None, dim: int, config: ExemplarConfig = DEFAULT.exemplars
) -> Exemplars:
    """The exemplars a request sent: a list of at most `config.most` objects
    `{"tile": code, "look": text}` (a back names no face and is refused). Looks from
    another classifier are left out; anything else malformed is a TileListError."""
    if not isinstance(items, list) or len(items) > config.most:
        raise TileListError("bad_exemplars.list", most=config.most)
    looks, codes = [], []
    for item in items:
        if not isinstance(item, dict) or set(item) - {"tile", "look"}:
            raise TileListError("bad_exemplars.item")
        code, text = item.get("tile"), item.get("look")
        if not isinstance(code, str) or code not in INDEX or code == BACK:
            raise TileListError("bad_exemplars.item")
        look = decode_look(text, tag, dim)
        if look is not None:
            looks.append(look)
            codes.append(INDEX[code])
    if not looks:
        return NONE
    return Exemplars(np.stack(looks), np.array(codes, int))


def likeness(looks: np.ndarray, exemplars: Exemplars, classes: int) -> np.ndarray:
    """(N, classes): how alike each look is to the nearest exemplar of each class
    (cosine of unit looks), -1 for classes without exemplars. `looks` may hold
    several views of each tile (N, V, D): the likest view counts (a tile upside
    down looks like its exemplar when turned)."""
    views = looks if looks.ndim == 3 else looks[:, None, :]
    sim = (views @ exemplars.looks.T).max(axis=1)  # (N, E)
    out = np.full((len(views), classes), -1.0, np.float32)
    for k in np.unique(exemplars.codes):
        out[:, k] = sim[:, exemplars.codes == k].max(axis=1)
    return out


def adapted(
    probs: np.ndarray,
    looks: np.ndarray,
    exemplars: Exemplars,
    config: ExemplarConfig = DEFAULT.exemplars,
) -> np.ndarray:
    """`probs` (N, classes) with each tile that looks enough like another tile's
    exemplars moved towards that tile (`config.weight` of its probability): a new
    array where a tile moves, `probs` itself (unchanged) where none does."""
    if not len(exemplars) or not len(probs):
        return probs
    alike = likeness(looks, exemplars, probs.shape[1])
    rows, chosen = np.arange(len(probs)), probs.argmax(axis=1)
    nearest, best = alike.argmax(axis=1), alike.max(axis=1)
    own = alike[rows, chosen]
    shown = own > -1  # the classifier's choice has exemplars
    move = np.where(
        shown, (best >= config.near) & (best - own >= config.margin), best >= config.same
    )
    # exemplars name faces: a tile read as a back (a concealed kong's, a wall's) stays one
    move &= (nearest != chosen) & (chosen != INDEX[BACK])
    if not move.any():
        return probs
    out = probs.copy()
    out[move] *= 1 - config.weight
    out[rows[move], nearest[move]] += config.weight
    return out
