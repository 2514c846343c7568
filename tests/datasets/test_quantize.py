"""Quantization calibrates on every crop it is given: an int8 model whose ranges came from
the last few batches only would clip what brighter crops earlier in the set show."""

from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx", reason="onnx (the train extra) is not installed")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from datasets.quantize import batches, quantize, quantize_inputs  # noqa: E402
from vision.classify import LOOKS, to_input  # noqa: E402


def _tiny_classifier(path) -> None:
    """A conv, ReLU, global pooling and a dense layer: the shape of the shipped nets."""
    rng = np.random.default_rng(0)
    weights = [
        numpy_helper.from_array(rng.normal(0, 0.3, (8, 3, 3, 3)).astype(np.float32), "w"),
        numpy_helper.from_array(np.zeros(8, np.float32), "b"),
        numpy_helper.from_array(rng.normal(0, 0.5, (8, 5)).astype(np.float32), "fc"),
    ]
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("GlobalAveragePool", ["r"], ["g"]),
        helper.make_node("Flatten", ["g"], ["f"]),
        helper.make_node("MatMul", ["f", "fc"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes,
        "tiny",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 3, 64, 64])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 5])],
        weights,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))


def test_the_int8_model_covers_the_brightest_crops_not_only_the_last(tmp_path):
    ort = pytest.importorskip("onnxruntime")
    src, dst = tmp_path / "float.onnx", tmp_path / "int8.onnx"
    _tiny_classifier(src)
    rng = np.random.default_rng(1)
    bright = rng.integers(200, 256, (96, 64, 64, 3), dtype=np.uint8)
    dim = rng.integers(100, 140, (160, 64, 64, 3), dtype=np.uint8)
    quantize(src, dst, np.concatenate([bright, dim]))  # the dim crops come last
    x = to_input(bright[:32])
    want = ort.InferenceSession(str(src)).run(None, {"x": x})[0]
    got = ort.InferenceSession(str(dst)).run(None, {"x": x})[0]
    error = np.abs(got - want).max() / np.abs(want).max()
    assert error < 0.05, f"int8 output off by {error:.0%} of its range on the bright crops"


def test_the_int8_model_gives_each_crop_its_look_and_the_same_logits(tmp_path):
    """`vision.exemplars` compares the features the last layer reads: quantizing adds
    them as a second output, `looks`, and leaves the logits exactly as without it."""
    import onnxruntime as ort

    src = tmp_path / "tiny.onnx"
    _tiny_classifier(src)
    crops = np.random.default_rng(1).integers(0, 255, (64, 64, 64, 3), dtype=np.uint8)
    plain, looked = tmp_path / "plain.onnx", tmp_path / "looked.onnx"
    quantize_inputs(src, plain, batches(crops), lambda batch: batch)
    quantize(src, looked, crops)
    x = to_input(crops[:16])
    a = ort.InferenceSession(str(plain), providers=["CPUExecutionProvider"])
    b = ort.InferenceSession(str(looked), providers=["CPUExecutionProvider"])
    assert [o.name for o in b.get_outputs()] == ["y", LOOKS]
    (want,) = a.run(None, {"x": x})
    got, looks = b.run(None, {"x": x})
    assert np.array_equal(got, want)
    assert looks.shape == (16, 8) and (looks >= 0).all()
