#!/usr/bin/env bash
# Makes sure the services the tests talk to are there: PostgreSQL on 127.0.0.1:5432 (the PostgreSQL backend's
# tests) and Debian's Chromium (the console's browser tests). Runs before `npm test`; safe to run again.
set -euo pipefail

if command -v pg_isready >/dev/null 2>&1 && ! pg_isready -q -h 127.0.0.1 -p 5432; then
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    echo "test services: starting PostgreSQL"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
    for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
  fi
fi

if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "test services: installing Debian's chromium"
  (apt-get install -y --no-install-recommends chromium >/dev/null 2>&1 \
    || (apt-get update >/dev/null 2>&1 && apt-get install -y --no-install-recommends chromium >/dev/null 2>&1)) \
    || echo "test services: could not install chromium; the browser tests will say so"
fi
