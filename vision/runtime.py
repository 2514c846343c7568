"""One place that opens the bundled ONNX models with onnxruntime.

Both stages want the same CPU settings (two threads, matching the machines
the product runs on) and the same clear error when a model file is missing.
"""

from __future__ import annotations

from pathlib import Path


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
