#!/usr/bin/env bash
# Run the engine fuzz target for a bounded time on a copy of the seed corpus.
# Usage: fuzz/run.sh PYTHON [SECONDS]   (PYTHON: an interpreter with atheris and ascend-migrate installed)
# Exit status: 0 when no input crashed; 1 when one did (the input is saved under .work/fuzz/crashes/).
set -euo pipefail
python=${1:?usage: fuzz/run.sh PYTHON [SECONDS]}
seconds=${2:-60}
here=$(cd "$(dirname "$0")" && pwd)
work=${FUZZ_WORK:-$here/../.work/fuzz}
rm -rf "$work/corpus" && mkdir -p "$work/corpus" "$work/crashes"
cp "$here"/corpus/* "$work/corpus/"   # libFuzzer adds what it finds to its first directory: never the committed one
set +e
"$python" "$here/fuzz_engine.py" "$work/corpus" \
  -max_total_time="$seconds" -timeout=60 -rss_limit_mb=3072 -max_len=65536 \
  -print_final_stats=1 -artifact_prefix="$work/crashes/" 2>"$work/fuzz.log"
status=$?
set -e
runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$work/fuzz.log" | grep -o '[0-9]*$' || echo "?")
coverage=$(grep -o 'cov: [0-9]*' "$work/fuzz.log" | tail -1 | grep -o '[0-9]*$' || echo "?")
corpus=$(ls "$work/corpus" | wc -l)
if [ "$status" -ne 0 ]; then
  tail -60 "$work/fuzz.log"
  echo "fuzz: FAILED after $runs executions ($seconds s budget): crash input in $work/crashes/"
  exit 1
fi
echo "fuzz: $runs executions in $seconds s, coverage $coverage edges, corpus $corpus inputs, no crash"
