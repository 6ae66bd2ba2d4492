#!/usr/bin/env bash
# Starts a throwaway PostgreSQL for the test suite and prints the line to eval:
#   export THREADLINE_TEST_PG_URL=postgres://threadline@127.0.0.1:<port>/postgres
# Installs Debian's `postgresql` first when no initdb is found (CI runs as root). The cluster runs as the
# `postgres` user when this script runs as root (initdb refuses root), listens on 127.0.0.1 only, trusts local
# connections, and lives in a temp dir. Everything but the export line goes to stderr.
set -euo pipefail

find_binary() {
  if command -v "$1" >/dev/null 2>&1; then command -v "$1"; return; fi
  ls /usr/lib/postgresql/*/bin/"$1" 2>/dev/null | sort -V | tail -n 1
}

if [ -z "$(find_binary initdb)" ]; then
  if [ "$(id -u)" = "0" ]; then
    echo "ci-postgres: installing postgresql" >&2
    apt-get update >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql >&2
  else
    echo "ci-postgres: no initdb and not root; PostgreSQL tests will be skipped" >&2
    exit 0
  fi
fi
initdb=$(find_binary initdb)
pg_ctl=$(find_binary pg_ctl)
port="${THREADLINE_CI_PG_PORT:-55432}"
dir=$(mktemp -d /tmp/threadline-ci-pg.XXXXXX)
run=()
if [ "$(id -u)" = "0" ]; then
  chown postgres "$dir"
  run=(runuser -u postgres --)
fi
"${run[@]}" "$initdb" -D "$dir/data" -U threadline --auth=trust -E UTF8 >&2
"${run[@]}" "$pg_ctl" start -w -t 60 -D "$dir/data" -l "$dir/log" \
  -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$dir -c max_connections=300" >&2
echo "export THREADLINE_TEST_PG_URL=postgres://threadline@127.0.0.1:$port/postgres"
