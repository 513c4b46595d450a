#!/usr/bin/env bash
# The demo experiment (README's first command): experiments/demo.lua on eleven benchmark models at their small
# size on the GTX480 baseline (experiments/configs/gtx480.yaml defaults): GTO, LRR, Two-Level, bypass-all and a
# Lua warp scheduler, IPC normalized to GTO. Writes out/demo/demo.csv and the bar chart out/demo/demo.{svg,png}.
set -euo pipefail
cd "$(dirname "$0")/.."
build/moonwarp experiments/demo.lua out/demo small
