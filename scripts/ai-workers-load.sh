#!/usr/bin/env bash
# The AI-moves-off-the-node measurement (docs/server.md, "AI moves off the web nodes"):
#   scripts/ai-workers-load.sh A PORT   the node searches its AI moves itself
#   scripts/ai-workers-load.sh B PORT   the node sends them to one `cannonade worker`
# Each run: a fresh PostgreSQL database, one node with one engine thread and no AI pause,
# 1,000 player games and 10 AI games for 60 s; the load tool's report goes to
# $OUT/MODE.load.txt and the node's AI and engine counters to $OUT/MODE.metrics.txt.
set -euo pipefail
B=${B:-target/release/cannonade}
OUT=${OUT:-/tmp/ai-workers}
mode=${1:?A or B}
port=${2:?port}
mkdir -p "$OUT"
pg=(-h 127.0.0.1 -U postgres)
db=ai_workers_$mode
dropdb "${pg[@]}" --if-exists "$db" 2>/dev/null
createdb "${pg[@]}" "$db"
DB=postgres://postgres@127.0.0.1:5432/$db
redis-cli del cannonade:ai:jobs >/dev/null
pids=()
common=(--addr "127.0.0.1:$port" --db "$DB" --engine-threads 1 --ai-instant)
if [ "$mode" = B ]; then
  "$B" serve "${common[@]}" --redis redis://127.0.0.1:6379 --ai-workers >"$OUT/$mode.serve.log" 2>&1 &
  pids+=($!)
  sleep 2
  "$B" worker --db "$DB" --redis redis://127.0.0.1:6379 --threads 1 >"$OUT/$mode.worker.log" 2>&1 &
  pids+=($!)
else
  "$B" serve "${common[@]}" >"$OUT/$mode.serve.log" 2>&1 &
  pids+=($!)
fi
sleep 3
"$B" loadtest --url "ws://127.0.0.1:$port" --games 1000 --ai-games 10 --duration 60 \
  --think-ms 3000 >"$OUT/$mode.load.txt" 2>&1
curl -s "http://127.0.0.1:$port/metrics" | grep -E "^cannonade_(ai_moves|engine)" >"$OUT/$mode.metrics.txt"
kill "${pids[@]}"
wait || true
grep -E "move→opponent|engine reply" "$OUT/$mode.load.txt"
cat "$OUT/$mode.metrics.txt"
