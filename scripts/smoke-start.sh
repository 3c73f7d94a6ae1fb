#!/usr/bin/env bash
# Smoke of `npm start` on whatever Node is on PATH: embedded mode on a scratch data folder,
# serving /api/ready within 3 minutes (an older Node fetches the LTS first: scripts/node-lts.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
# Embedded mode: no database or Redis of CI's.
unset DATABASE_URL REDIS_URL
port="${SMOKE_PORT:-18555}"
data="$(mktemp -d)"
echo "[smoke] npm start on Node $(node --version), port $port"
# Its own process group, so the stop reaches npm, the start script and the server together.
PORT="$port" DATA_DIR="$data" LOG_LEVEL=warn setsid npm start >"$data.log" 2>&1 &
pid=$!
ok=0
for _ in $(seq 1 180); do
  if curl -sf "http://127.0.0.1:$port/api/ready" >/dev/null; then ok=1; break; fi
  kill -0 "$pid" 2>/dev/null || break
  sleep 1
done
kill -TERM -- "-$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
if [ "$ok" = 1 ]; then
  echo "[smoke] npm start served /api/ready"
  rm -rf "$data" "$data.log"
else
  tail -30 "$data.log"
  echo "[smoke] npm start did not serve /api/ready"
  exit 1
fi
