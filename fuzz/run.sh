#!/usr/bin/env bash
# Runs the fuzz targets (docs/fuzzing.md).
#
#   fuzz/run.sh seconds S [TARGET…]   fuzz each target for S seconds (CI's short run)
#   fuzz/run.sh runs N [TARGET…]      fuzz each target for N executions (the documented run)
#
# Every run starts by executing the committed seeds (seeds/TARGET) and reproducers
# (regressions/TARGET), so a fixed crash that comes back fails at once. New inputs go to
# corpus/TARGET (not committed), crashes to artifacts/TARGET. A summary line per target,
# `TARGET executions=N crashes=C seconds=T`, goes to stdout and to logs/summary.txt; the
# whole libFuzzer output to logs/TARGET.log. Exits non-zero if any target crashed.
#
# No sanitizer (`-s none`): the crates are safe Rust (`forbid(unsafe_code)`), so what a
# fuzzer can find is a panic (overflow checks and debug assertions are on) or a broken
# invariant; AddressSanitizer would only slow that down, and it needs a nightly compiler.
#
# FUZZ_FLAGS adds cargo-fuzz build flags to the build and the runs, e.g.
# FUZZ_FLAGS=--no-trace-compares for a long run of a slow target: comparison tracing takes
# about 70 % of commander_legal's time, and a corpus grown with it keeps its finds
# (docs/fuzzing.md). A run stopped by hand (SIGINT) says `interrupted` and counts no crash.
set -euo pipefail
cd "$(dirname "$0")"

mode=${1:?usage: fuzz/run.sh seconds S|runs N [TARGET...]}
amount=${2:?usage: fuzz/run.sh seconds S|runs N [TARGET...]}
shift 2
case $mode in
  seconds) limit=(-max_total_time="$amount") ;;
  runs) limit=(-runs="$amount") ;;
  *) echo "fuzz/run.sh: mode is seconds or runs, not '$mode'" >&2; exit 2 ;;
esac
targets=("$@")
read -ra flags <<< "${FUZZ_FLAGS:-}"
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cargo fuzz list)
  cargo fuzz build -s none "${flags[@]}"
else
  # Only what will run: a long run of one target should not wait for seventeen builds.
  for t in "${targets[@]}"; do cargo fuzz build -s none "${flags[@]}" "$t"; done
fi
mkdir -p logs
failed=0
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t" "artifacts/$t"
  dirs=("corpus/$t" "seeds/$t")
  if [ -d "regressions/$t" ]; then dirs+=("regressions/$t"); fi
  start=$SECONDS
  # -timeout: an input running 30 s is a hang, reported as a crash.
  if cargo fuzz run -s none "${flags[@]}" "$t" "${dirs[@]}" -- "${limit[@]}" -timeout=30 \
      -print_final_stats=1 -artifact_prefix="artifacts/$t/" >"logs/$t.log" 2>&1; then
    crashes=0 note=""
  elif grep -q "libFuzzer: run interrupted" "logs/$t.log"; then
    crashes=0 note=" interrupted"
    failed=1
  else
    crashes=1 note=""
    failed=1
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "logs/$t.log" | tail -1)
  line="$t executions=${execs:-?} crashes=$crashes seconds=$((SECONDS - start))$note"
  echo "$line" | tee -a logs/summary.txt
  if [ $crashes -ne 0 ]; then
    grep -m1 -A3 -E "panicked at|ERROR: libFuzzer" "logs/$t.log" >&2 || tail -20 "logs/$t.log" >&2
  fi
done
exit $failed
