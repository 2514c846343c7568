"""Start a fine-tune from a shipped ONNX model.

The training checkpoints behind `models/*.onnx` are not kept, so a fine-tune
starts from the exported file. Export folds each batch norm into the
convolution before it; loading makes each norm the identity plus the folded
bias, and `freeze_norms` keeps it so, which makes the network start from
exactly the exported function.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn


def _norm_after(model: nn.Module) -> dict[nn.Conv2d, nn.BatchNorm2d]:
    """Each convolution followed by a batch norm in the same `nn.Sequential`."""
    pairs = {}
    for seq in model.modules():
        if isinstance(seq, nn.Sequential):
            layers = list(seq)
            for a, b in zip(layers, layers[1:], strict=False):
                if isinstance(a, nn.Conv2d) and isinstance(b, nn.BatchNorm2d):
                    pairs[a] = b
    return pairs


def _conv_order(model: nn.Module, example: torch.Tensor) -> list[nn.Conv2d]:
    """Convolutions in the order the network runs them, which is the exported graph's."""
    order: list[nn.Conv2d] = []
    hooks = [
        m.register_forward_hook(lambda mod, _i, _o: order.append(mod))
        for m in model.modules()
        if isinstance(m, nn.Conv2d)
    ]
    with evaluating(model), torch.no_grad():
        model(example)
    for h in hooks:
        h.remove()
    return order


def load_folded(model: nn.Module, path: Path, example: torch.Tensor) -> dict[str, np.ndarray]:
    """Copy the exported convolutions of `path` into `model`; returns every initializer,
    for the caller to copy the layers that are not convolutions (a classifier's head)."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    init = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    nodes = [n for n in graph.node if n.op_type == "Conv"]
    convs = _conv_order(model, example)
    if len(nodes) != len(convs):
        raise ValueError(f"{path}: {len(nodes)} convolutions, the network has {len(convs)}")
    norms = _norm_after(model)
    with torch.no_grad():
        for i, (node, conv) in enumerate(zip(nodes, convs, strict=True)):
            weight = init[node.input[1]]
            bias = init[node.input[2]] if len(node.input) > 2 else np.zeros(len(weight), np.float32)
            if tuple(weight.shape) != tuple(conv.weight.shape):
                raise ValueError(
                    f"{path}: convolution {i} is {weight.shape}, the network's is "
                    f"{tuple(conv.weight.shape)} (a different width?)"
                )
            conv.weight.copy_(torch.tensor(weight))
            bn = norms.get(conv)
            if bn is not None:
                bn.weight.fill_(1.0)
                bn.bias.copy_(torch.tensor(bias))
                bn.running_mean.zero_()
                bn.running_var.fill_(1.0 - bn.eps)
            elif conv.bias is not None:
                conv.bias.copy_(torch.tensor(bias))
            elif bias.any():
                raise ValueError(f"{path}: convolution {i} has a bias the network has no place for")
    return init


def freeze_norms(model: nn.Module) -> None:
    """Keep batch norms on their stored statistics while the rest trains."""
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


@contextmanager
def evaluating(model: nn.Module) -> Iterator[None]:
    """Evaluation mode for a check during training; afterwards the mode it had, with the
    norms a fine-tune froze still frozen."""
    frozen = [m for m in model.modules() if isinstance(m, nn.BatchNorm2d) and not m.training]
    was_training = model.training
    model.eval()
    try:
        yield
    finally:
        model.train(was_training)
        for m in frozen:
            m.eval()
