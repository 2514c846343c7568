#!/usr/bin/env bash
# Train the recognizer models on a GPU machine from a bundle made by
# `python -m datasets.gpu_bundle --out .gpu --init DETECTOR.pt CLASSIFIER.pt [--fonts]`
# (run from the repository root):
#   bash datasets/gpu_train.sh BUNDLE OUT [MINUTES]
# Renders training scenes there on all cores, then trains the detector and
# two or three classifier variants side by side for MINUTES each. The detector
# continues its committed checkpoint (models/checkpoints/detector.pt, started
# from DET_INIT when there is none) on the rendered scenes, whole tables among
# them, and adds its run to models/checkpoints/log.jsonl. OUT gets at most 8
# files: the ONNX models, the checkpoint, the checkpoint log and the train log.
# Settings (environment, defaults in brackets):
#   DETECTOR [1] (0: classifiers only)  DET_INIT [BUNDLE/init/detector.pt]
#   DET_LR [1.5e-3]  DET_SHARE [0.35] (share of rendered views)
#   CLS_A / CLS_B / CLS_C: "WIDTH INIT LR SHARE", INIT "-" = from scratch, a
#     .onnx INIT fine-tunes an exported classifier with its norms frozen
#     [CLS_A="base BUNDLE/init/classifier.pt 1.5e-3 0.35"  CLS_B="wide - 3e-3 0.35"  CLS_C=none]
#     "none": not trained. INIT is read on the GPU machine: a path in the repository
#     (models/*.onnx travel with it) or BUNDLE/...; a missing one stops the run at once
#   CLS_EXTRA [] more train_classifier options for each (e.g. --detector-boxes)
#   CLS_RESUME [] a committed classifier checkpoint (e.g. models/checkpoints/classifier_fresh.pt)
#     that the first classifier variant continues (--resume, its run added to the log);
#     copied back to OUT with the log
#   STYLES [train] (`train,fonts` with a bundle made with --fonts; `pips` needs no fonts)
#   RENDER_COUNT [5000] scenes rendered, RENDER_IMAGES [RENDER_COUNT] of them read
#   TABLES [3000] whole-table scenes rendered for the detector (1280 px), TABLE_SHARE [0.4]
#   CORES [nproc]  DEVICE [cuda]
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
CLS_A=${CLS_A:-base BUNDLE/init/classifier.pt 1.5e-3 0.35}
CLS_B=${CLS_B:-wide - 3e-3 0.35}
CLS_C=${CLS_C:-none}
jobs_=()
for c in A B C; do
  v=CLS_$c
  [ "${!v}" = none ] && continue
  jobs_+=("c${c,,}")
  read -r _ init _ _ <<< "${!v}"; init=${init//BUNDLE/$B}
  if [ "$init" != "-" ] && [ ! -f "$init" ]; then log "CLS_$c: no file $init"; exit 2; fi
done
log "render $N scenes of ${STYLES:-train} on $CORES cores"
python3 -m datasets.render --count "$N" --styles "${STYLES:-train}" --seed 11 --size 800 \
  --workers "$CORES" --out "$W/render" --cache "$B/art" 2>&1 | tr '\r' '\n' | tail -n 2
T=${TABLES:-3000}
if [ "$T" -gt 0 ]; then
  log "render $T whole tables"
  python3 -m datasets.render --count "$T" --styles "${STYLES:-train}" --seed 12 --size 1280 \
    --kind table --workers "$CORES" --out "$W/tables" --cache "$B/art" 2>&1 | tr '\r' '\n' | tail -n 2
fi
DW=0; [ "${DETECTOR:-1}" = 1 ] && DW=$((CORES * 9 / 16))
CW=$(((CORES - DW - 3) / ${#jobs_[@]})); [ "$CW" -lt 1 ] && CW=1
log "train: detector $DW workers, ${#jobs_[@]} classifiers $CW workers each"
if [ "$DW" -gt 0 ]; then
  DET_INIT=${DET_INIT:-$B/init/detector.pt}
  python3 -m datasets.train_detector --data "$B/cmd" --render "$W/render" --render-images "$N" \
    --render-share "${DET_SHARE:-0.35}" ${DET_INIT:+--init "$DET_INIT"} --device "$DEV" \
    --workers "$DW" --batch 32 --lr "${DET_LR:-1.5e-3}" --epochs 400 --steps-per-epoch 150 \
    --eval-images 40 --max-minutes "$MIN" --keep last --seed 21 \
    --table "$W/tables" --table-images "$T" --table-share "${TABLE_SHARE:-0.4}" \
    --resume models/checkpoints/detector.pt --log models/checkpoints/log.jsonl \
    --out "$W/det" --export "$W/det/detector.onnx" > "$W/det.log" 2>&1 &
  jobs_+=(det)
fi
classifier() {  # NAME "WIDTH INIT LR SHARE" SEED
  read -r width init lr share <<< "$2"
  local from=()
  [ "$init" != "-" ] && from=(--init "${init//BUNDLE/$B}")
  [ -n "${CLS_RESUME:-}" ] && [ "$1" = "${jobs_[0]}" ] \
    && from+=(--resume "$CLS_RESUME" --log models/checkpoints/log.jsonl)
  python3 -m datasets.train_classifier --data "$B/cmd" --render "$W/render" \
    --render-images "${RENDER_IMAGES:-$N}" --render-share "$share" "${from[@]}" ${CLS_EXTRA:-} --width "$width" --device "$DEV" --workers "$CW" \
    --batch 128 --lr "$lr" --epochs 400 --samples 40000 --max-minutes "$MIN" --keep last \
    --seed "$3" --out "$W/$1" --export "$W/$1/classifier.onnx" > "$W/$1.log" 2>&1
}
seed=22
for c in A B C; do
  v=CLS_$c
  if [ "${!v}" != none ]; then classifier "c${c,,}" "${!v}" "$seed" & fi
  seed=$((seed + 1))
done
status=0
for _ in "${jobs_[@]}"; do wait -n || status=1; done
for f in "${jobs_[@]}"; do echo "=== $f"; tr '\r' '\n' < "$W/$f.log" | grep -v '|' | grep -v '^\s*$' | tail -n 60; done > "$OUT/train.log"
if [ "$DW" -gt 0 ]; then
  cp "$W/det/detector.onnx" "$OUT/detector.onnx" || status=1
  cp models/checkpoints/detector.pt "$OUT/" || status=1
fi
for c in ca cb cc; do
  [ -f "$W/$c/classifier.onnx" ] && cp "$W/$c/classifier.onnx" "$OUT/classifier_$c.onnx"
done
if [ -n "${CLS_RESUME:-}" ]; then
  cp "$CLS_RESUME" "$OUT/" || status=1
fi
# the log of every checkpoint's runs, once whichever of them ran
if [ "$DW" -gt 0 ] || [ -n "${CLS_RESUME:-}" ]; then
  cp models/checkpoints/log.jsonl "$OUT/" || status=1
fi
log "done (status $status)"
exit $status
