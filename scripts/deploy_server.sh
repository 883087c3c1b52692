#!/usr/bin/env bash
# Deploy the scheduled jobs to a local Prefect server and run the nightly job once.
#
#   bash scripts/deploy_server.sh [PROJECT_DIR]     (default: the folder above this script)
#
# Starts `prefect server start` on 127.0.0.1 on a free port in the background (its state in
# PROJECT_DIR/.prefect), waits until it is healthy, creates the process work pool, deploys
# prefect.yaml (`prefect deploy --all`), triggers one run of the nightly deployment, runs it with
# a worker started for that one run (`--run-once`), checks the run completed, and stops the
# server. Offline: no Docker, no cloud. Exit 0 only when the run completed.
#
# For a server that stays up, see docs/scheduling.md (the same steps without the clean-up).
set -euo pipefail

ROOT="$(cd "${1:-$(dirname "$0")/..}" && pwd)"
PY="${CLUBRATINGS_PYTHON:-$ROOT/.venv/bin/python}"
[ -x "$PY" ] || PY="$(cd "$(dirname "$0")/.." && pwd)/.venv/bin/python"
BIN="$(dirname "$PY")"
POOL="clubratings-local"

export PREFECT_HOME="$ROOT/.prefect"
export PREFECT_SERVER_ANALYTICS_ENABLED=false
export PREFECT_SERVER_UI_ENABLED=false
export PREFECT_LOGGING_LEVEL="${PREFECT_LOGGING_LEVEL:-INFO}"
export CLUBRATINGS_ROOT="$ROOT"
mkdir -p "$PREFECT_HOME" "$ROOT/data/logs"

PORT="$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
export PREFECT_API_URL="http://127.0.0.1:$PORT/api"
SERVER_LOG="$ROOT/data/logs/prefect-server.log"

echo "server: starting on $PREFECT_API_URL (log $SERVER_LOG)"
# --no-scheduler: the deployed schedules are stored but make no runs while this check runs, so
# the one run the worker picks up is the one triggered below (a server kept up runs with it).
"$BIN/prefect" server start --host 127.0.0.1 --port "$PORT" --no-scheduler >"$SERVER_LOG" 2>&1 &
SERVER_PID=$!
stop_server() {
    if kill -0 "$SERVER_PID" 2>/dev/null; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
        echo "server: stopped"
    fi
}
trap stop_server EXIT

for _ in $(seq 1 120); do
    if "$PY" - "$PREFECT_API_URL" <<'PYEOF' 2>/dev/null; then break; fi
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1] + "/health", timeout=2) as r:
    sys.exit(0 if r.status == 200 else 1)
PYEOF
    kill -0 "$SERVER_PID" 2>/dev/null || { echo "server: exited, see $SERVER_LOG" >&2; exit 1; }
    sleep 1
done
"$PY" -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1] + '/health', timeout=2)" \
    "$PREFECT_API_URL" || { echo "server: not healthy after 120 s" >&2; exit 1; }
echo "server: healthy"

cd "$ROOT"
"$BIN/prefect" --no-prompt work-pool create "$POOL" --type process --overwrite >/dev/null
echo "work pool: $POOL (process)"
"$BIN/prefect" --no-prompt deploy --all
RUN_OUT="$("$BIN/prefect" --no-prompt deployment run nightly/nightly)"
echo "$RUN_OUT"
RUN_ID="$(printf '%s\n' "$RUN_OUT" | sed -n 's/.*UUID: *\([0-9a-f-]\{36\}\).*/\1/p' | head -1)"
[ -n "$RUN_ID" ] || { echo "could not read the flow run id" >&2; exit 1; }

echo "worker: one run from $POOL"
"$BIN/prefect" worker start --pool "$POOL" --type process --run-once --prefetch-seconds 10 \
    --install-policy never

STATE="$("$PY" - "$RUN_ID" <<'PYEOF'
import asyncio, sys
from uuid import UUID
from prefect.client.orchestration import get_client

async def main() -> str:
    async with get_client() as client:
        for deployment in await client.read_deployments():
            when = ", ".join(getattr(s.schedule, "cron", None) or str(s.schedule)
                             for s in deployment.schedules)
            print(f"deployment {deployment.name}: {deployment.entrypoint} schedule {when}",
                  file=sys.stderr)
        run = await client.read_flow_run(UUID(sys.argv[1]))
        return run.state.type.value if run.state else "NONE"

print(asyncio.run(main()))
PYEOF
)"
echo "flow run $RUN_ID: $STATE"
[ "$STATE" = "COMPLETED" ] || exit 1
echo "deployment nightly/nightly: run completed"
