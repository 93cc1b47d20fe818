#!/usr/bin/env bash
# Regenerates this folder's GPU files on a CUDA machine, in one run:
#   bench.gpu.json          every kernel against torch's own op (run first, alone on the GPU)
#   instructions.gpu.json   the accuracy of the instructions the kernels compile to
#   <kernel>.gpu.json       every kernel certified with --backend gpu (in parallel)
# Usage (from the repository root): bash certificates/gpu_run.sh [OUT_DIR [LOG_DIR]]
# Each step has its own time limit, so one failure leaves the others' results.
set -u
out=${1:-certificates}
logs=${2:-$out/logs}
mkdir -p "$out" "$logs"
py=${PYTHON:-python3}
kernels=$($py -c 'from verify import api; print(" ".join(api.kernel_names()))')
{
    date -u
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu \
        --format=csv 2>&1
    $py -c 'import sys, torch, triton; print(sys.version.split()[0], torch.__version__,
triton.__version__, torch.cuda.get_device_name())' 2>&1
    echo "kernels: $kernels"
} > "$logs/environment.txt"

start=$(date +%s)
# 1. timings first, with nothing else on the GPU
timeout 150 $py -m verify bench --backend gpu --json > "$out/bench.gpu.json" \
    2> "$logs/bench.err"
echo "bench rc=$? $(( $(date +%s) - start )) s" >> "$logs/steps.txt"

# 2. instruction accuracy and certification side by side (no timing in either)
export OMP_NUM_THREADS=1
( timeout 240 $py -m verify.hardware.measure --out "$out/instructions.gpu.json" \
      > "$logs/measure.out" 2> "$logs/measure.err"
  echo "measure rc=$? $(( $(date +%s) - start )) s" >> "$logs/steps.txt" ) &
for k in $kernels; do
    ( timeout "${CERTIFY_LIMIT:-330}" $py -m verify certify "$k" --backend gpu --out "$out" \
          --json > "$logs/$k.json" 2> "$logs/$k.err"
      echo "certify $k rc=$? $(( $(date +%s) - start )) s" >> "$logs/steps.txt" ) &
done
wait
echo "done $(( $(date +%s) - start )) s" >> "$logs/steps.txt"
