#!/usr/bin/env bash
# Train the recognizer models on a GPU machine from a bundle made by
# `python -m datasets.gpu_bundle --out .gpu --init DETECTOR.pt CLASSIFIER.pt`
# (run from the repository root):
#   bash datasets/gpu_train.sh BUNDLE OUT [MINUTES]
# Renders training scenes there on all cores, then trains the detector and
# two classifier variants side by side for MINUTES each. OUT gets at most 8
# files: the ONNX models, their checkpoints and the logs.
# Settings (environment, defaults in brackets):
#   DET_INIT [BUNDLE/init/detector.pt]  DET_LR [1.5e-3]  DET_SHARE [0.35] (share of rendered views)
#   CLS_A / CLS_B: "WIDTH INIT LR SHARE", INIT "-" = from scratch
#     [CLS_A="base BUNDLE/init/classifier.pt 1.5e-3 0.35"  CLS_B="wide - 3e-3 0.35"]
#   RENDER_COUNT [5000]  CORES [nproc]  DEVICE [cuda]
set -euo pipefail
B=${1:?bundle folder}
OUT=${2:?output folder}
MIN=${3:-6}
CORES=${CORES:-$(nproc)}
DEV=${DEVICE:-cuda}
N=${RENDER_COUNT:-5000}
W=/tmp/mcr_gpu
mkdir -p "$W" "$OUT"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 MCR_CACHE=$B OMP_NUM_THREADS=1
log() { echo "[$(date +%T)] $*"; }
log "render $N scenes on $CORES cores"
python3 -m datasets.render --count "$N" --styles train --seed 11 --size 800 \
  --workers "$CORES" --out "$W/render" --cache "$B/art" 2>&1 | tail -n 2
DW=$((CORES * 9 / 16)); CW=$(((CORES - DW - 3) / 2)); [ "$CW" -lt 1 ] && CW=1
log "train: detector $DW workers, classifiers $CW workers each"
DET_INIT=${DET_INIT:-$B/init/detector.pt}
python3 -m datasets.train_detector --data "$B/cmd" --render "$W/render" --render-images "$N" \
  --render-share "${DET_SHARE:-0.35}" ${DET_INIT:+--init "$DET_INIT"} --device "$DEV" \
  --workers "$DW" --batch 32 --lr "${DET_LR:-1.5e-3}" --epochs 400 --steps-per-epoch 150 \
  --eval-images 40 --max-minutes "$MIN" --keep last --seed 21 \
  --out "$W/det" --export "$W/det/detector.onnx" > "$W/det.log" 2>&1 &
classifier() {  # NAME "WIDTH INIT LR SHARE" SEED
  read -r width init lr share <<< "$2"
  local from=()
  [ "$init" != "-" ] && from=(--init "${init//BUNDLE/$B}")
  python3 -m datasets.train_classifier --data "$B/cmd" --render "$W/render" --render-images "$N" \
    --render-share "$share" "${from[@]}" --width "$width" --device "$DEV" --workers "$CW" \
    --batch 128 --lr "$lr" --epochs 400 --samples 40000 --max-minutes "$MIN" --keep last \
    --seed "$3" --out "$W/$1" --export "$W/$1/classifier.onnx" > "$W/$1.log" 2>&1
}
classifier ca "${CLS_A:-base BUNDLE/init/classifier.pt 1.5e-3 0.35}" 22 &
classifier cb "${CLS_B:-wide - 3e-3 0.35}" 23 &
status=0
wait -n || status=1; wait -n || status=1; wait -n || status=1
for f in det ca cb; do echo "=== $f"; tr '\r' '\n' < "$W/$f.log" | grep -v '|' | grep -v '^\s*$' | tail -n 60; done > "$OUT/train.log"
cp "$W/det/detector.onnx" "$OUT/detector.onnx" || status=1
cp "$W/det/detector_last.pt" "$OUT/detector.pt" || status=1
for c in ca cb; do
  cp "$W/$c/classifier.onnx" "$OUT/classifier_$c.onnx" || status=1
  cp "$W/$c/classifier_last.pt" "$OUT/classifier_$c.pt" || status=1
done
log "done (status $status)"
exit $status
