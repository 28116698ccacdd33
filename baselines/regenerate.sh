#!/bin/sh
# Regenerate the project's own balance baselines (see baselines/README.md and docs/ci.md).
# Run from anywhere; paths are relative to the repository root.
set -eu
cd "$(dirname "$0")/.."
fairplay baseline \
    configs/werewolf/base.toml \
    configs/werewolf/base-random.toml \
    baselines/setups/werewolf-seer-led-12.toml \
    configs/werewolf/three-wolves.toml \
    configs/werewolf/rich-16.toml \
    configs/werewolf/mayor-23.toml \
    -n 200000 --seed 0 -o baselines/werewolf.json --force "$@"
fairplay baseline \
    configs/chenghuang/default.toml \
    configs/chenghuang/random.toml \
    configs/chenghuang/mixed.toml \
    configs/chenghuang/overseers.toml \
    configs/chenghuang/players-3.toml \
    configs/chenghuang/players-4.toml \
    configs/chenghuang/players-6.toml \
    -n 100000 --seed 0 -o baselines/chenghuang.json --force "$@"
fairplay baseline \
    configs/salem/default.toml \
    configs/salem/extra-witch.toml \
    configs/salem/draft-5.toml \
    -n 100000 --seed 0 -o baselines/salem.json --force "$@"
fairplay baseline \
    configs/ghostplay/default.toml \
    configs/ghostplay/players-5.toml \
    configs/ghostplay/artifacts.toml \
    -n 100000 --seed 0 -o baselines/ghostplay.json --force "$@"
fairplay baseline \
    configs/vitamors/default.toml \
    configs/vitamors/expert.toml \
    -n 100000 --seed 0 -o baselines/vitamors.json --force "$@"
