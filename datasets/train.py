"""Full reproducible training of the recognizer models: `python -m datasets.train`.

Trains the tile detector, then the crop classifier, from scratch on cmd-v4
(fixed seeds; the training photos listed in `datasets/cmdv4_excluded.txt`
are skipped, see `datasets.label_check`) and exports both ONNX files into
`models/`, in place of the shipped ones (the classifier's fine-tune
lineage and checkpoint then no longer describe it; the reader runs it
quantized: `datasets.quantize` it into `classifier_fonts_int8.onnx`).
About 2 hours on 2 free CPU cores; `--device cuda` uses a GPU
(`--workers` background processes make the training views). `--render DIR`
adds rendered scenes (35 % of the views of both models). Checkpoints go to
`--runs` (outside the repository). On a borrowed GPU machine with little
time, `datasets/gpu_train.sh` does the same from a packed bundle.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from datasets import train_classifier, train_detector

MODELS = Path(__file__).resolve().parents[1] / "models"


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--data", default=None, help="cmd-v4 root (default ../shared/datasets/cmd-v4)")
    p.add_argument("--render", default=None, help="rendered scenes (images/, labels/)")
    p.add_argument("--device", default="cpu")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--workers", type=int, default=1, help="processes making training views")
    p.add_argument("--runs", default="/work/data/runs", help="checkpoint folder")
    p.add_argument("--det-epochs", type=int, default=40)
    p.add_argument("--cls-epochs", type=int, default=30)
    p.add_argument("--only", choices=("detector", "classifier"), default=None)
    a = p.parse_args(argv)
    common = ["--device", a.device, "--threads", str(a.threads), "--workers", str(a.workers)]
    common += ["--data", a.data] if a.data else []
    render = ["--render", a.render, "--render-share", "0.35"] if a.render else []
    if a.only in (None, "detector"):
        det = train_detector.parser().parse_args([
            "--epochs", str(a.det_epochs), *common, *render,
            "--out", str(Path(a.runs) / "detector"), "--export", str(MODELS / "detector.onnx"),
        ])  # fmt: skip
        train_detector.train(det)
    if a.only in (None, "classifier"):
        cls = train_classifier.parser().parse_args([
            "--epochs", str(a.cls_epochs), "--samples", "8000", "--width", "wide", *common, *render,
            "--out", str(Path(a.runs) / "classifier"),
            "--export", str(MODELS / "classifier_fonts.onnx"),
        ])  # fmt: skip
        train_classifier.train(cls)


if __name__ == "__main__":
    main()
