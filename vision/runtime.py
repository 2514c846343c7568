"""One place that opens the bundled ONNX models with onnxruntime, and the input
normalisation they all share.

Every stage wants the same CPU settings (two cores, matching the machines
the product runs on) and the same clear error when a model file is missing.
The detector reads one large image: its session spreads each layer over
both cores. The crop models read many small crops, whose layers two threads
hardly share (a batch of 64 crops took 1.07 ms a crop on two threads
against 1.20 on one): `CropModel` gives each core its own part of the
batch, and the tiles read as before, bit for bit, in about 0.65 ms a crop.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

#: the cores a reading uses
CORES = 2

#: ImageNet's channel means and deviations (RGB, 0-255): every model was trained on inputs
#: normalised with them
MEAN = np.array([0.485, 0.456, 0.406], np.float32) * 255
STD = np.array([0.229, 0.224, 0.225], np.float32) * 255


def normalised(bgr: np.ndarray, out: np.ndarray) -> np.ndarray:
    """`out` (..., 3, H, W float32) filled with the BGR uint8 images `bgr` (..., H, W, 3)
    turned RGB and normalised, plane by plane in place (a whole-array expression makes
    copies that take several times as long); returns `out`."""
    for c in range(3):
        plane = out[..., c, :, :]
        np.subtract(bgr[..., 2 - c], MEAN[c], out=plane, dtype=np.float32)
        np.divide(plane, STD[c], out=plane)
    return out


def open_session(path: Path, what: str, threads: int = CORES):
    """An onnxruntime CPU session for `path` that spreads each layer over `threads`;
    FileNotFoundError names the model."""
    import onnxruntime as ort

    if not path.is_file():
        raise FileNotFoundError(f"{what} model not found: {path}")
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    # the arena keeps the largest batch's buffers for good: one reader grew to 800 MB
    # after six photos with it, 360 MB without, at the same speed
    opts.enable_cpu_mem_arena = False
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _shared_pool() -> ThreadPoolExecutor:
    """One pool for every model and request: however many photos are read at once, the
    crop models keep to `CORES` threads."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(CORES, thread_name_prefix="crop-model")
        return _pool


class CropModel:
    """A model of small crops (N, 3, H, W float32 in, N rows out), its batch split among
    the cores, each part run on one thread: a sample's output does not depend on the
    rest of its batch, so the parts join into what one run would give."""

    def __init__(self, path: Path, what: str):
        self.session = open_session(path, what, threads=1)
        self.input_name = self.session.get_inputs()[0].name
        self.output_names = [o.name for o in self.session.get_outputs()]

    def run(self, x: np.ndarray) -> np.ndarray:
        """The model's first output for the batch `x`."""
        return self.run_all(x, self.output_names[:1])[0]

    def run_all(self, x: np.ndarray, names: list[str]) -> list[np.ndarray]:
        """The model's outputs `names` for the batch `x`."""
        parts = np.array_split(x, max(1, min(CORES, len(x))))
        if len(parts) == 1:
            return self._one(parts[0], names)
        done = list(_shared_pool().map(lambda part: self._one(part, names), parts))
        return [np.concatenate([d[k] for d in done]) for k in range(len(names))]

    def _one(self, x: np.ndarray, names: list[str]) -> list[np.ndarray]:
        return self.session.run(names, {self.input_name: np.ascontiguousarray(x)})
