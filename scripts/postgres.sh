#!/usr/bin/env bash
# Starts a private PostgreSQL for the server's tests, on loopback only, and prints its URL:
# a throw-away cluster under ${TMPDIR:-/tmp}/kubelab-postgres (trust auth, loopback, port
# $KUBELAB_PG_PORT or 55432) with a fresh database `kubelab_test` each run. Uses Debian's
# postgresql package (scripts/setup.sh installs it). Idempotent; `scripts/postgres.sh stop`
# stops the cluster.
set -euo pipefail

pg_bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)"
[[ -n $pg_bin ]] || { echo "postgres.sh: no PostgreSQL under /usr/lib/postgresql; run scripts/setup.sh" >&2; exit 1; }
data="${TMPDIR:-/tmp}/kubelab-postgres"
port="${KUBELAB_PG_PORT:-55432}"

# PostgreSQL refuses to run as root: as root, run it as the package's `postgres` user.
as_owner=()
if [[ $(id -u) -eq 0 ]]; then
  as_owner=(runuser -u postgres --)
fi

if [[ ${1:-} == stop ]]; then
  [[ -f $data/postmaster.pid ]] && "${as_owner[@]}" "$pg_bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null
  exit 0
fi

if ! "$pg_bin/pg_isready" -q -h 127.0.0.1 -p "$port"; then
  if [[ ! -f $data/PG_VERSION ]]; then
    mkdir -p "$data"
    [[ ${#as_owner[@]} -gt 0 ]] && chown postgres "$data"
    "${as_owner[@]}" "$pg_bin/initdb" -D "$data" -U kubelab --auth=trust -E UTF8 >/dev/null
  fi
  "${as_owner[@]}" "$pg_bin/pg_ctl" -D "$data" -l "$data/server.log" -w \
    -o "-p $port -k $data -c listen_addresses=127.0.0.1" start >/dev/null
fi

export PGOPTIONS="-c client_min_messages=warning"
psql=("$pg_bin/psql" -q -h 127.0.0.1 -p "$port" -U kubelab -d postgres -v ON_ERROR_STOP=1)
"${psql[@]}" -c "DROP DATABASE IF EXISTS kubelab_test WITH (FORCE)" -c "CREATE DATABASE kubelab_test" >/dev/null
echo "postgres://kubelab@127.0.0.1:$port/kubelab_test"
