"""One place that opens the bundled ONNX models with onnxruntime, and the input
normalisation they all share.

Both stages want the same CPU settings (two threads, matching the machines
the product runs on) and the same clear error when a model file is missing.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

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


def open_session(path: Path, what: str):
    """An onnxruntime CPU session for `path`; FileNotFoundError names the model."""
    import onnxruntime as ort

    if not path.is_file():
        raise FileNotFoundError(f"{what} model not found: {path}")
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 2
    opts.inter_op_num_threads = 1
    # the arena keeps the largest batch's buffers for good: one reader grew to 800 MB
    # after six photos with it, 360 MB without, at the same speed
    opts.enable_cpu_mem_arena = False
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
