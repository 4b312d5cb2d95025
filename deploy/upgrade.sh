#!/bin/sh
# Croupier's upgrade, as root on the host, once the new code is in place at $CROUPIER_HOME (docs/operations.md,
# "Upgrade"):   sudo /srv/croupier/deploy/upgrade.sh
#
#   1. a backup (manage.py backup), as the service role: what a rollback of the data would restore;
#   2. the migrations as the OWNER role (manage.py db_setup, with a 5 s lock timeout): the owner's URL is read
#      from $CROUPIER_OWNER_ENV, a file only root reads, never from the service's environment;
#   3. the static files (collectstatic);
#   4. the processes, one after the other: web reloaded gracefully (SIGHUP), then the worker, then beat.
# Every step must succeed before the next starts (set -e): a failed migration leaves the old processes
# running the old code, which the database still fits (migrations only add).
set -eu

CROUPIER_HOME="${CROUPIER_HOME:-/srv/croupier}"
CROUPIER_ENV="${CROUPIER_ENV:-/etc/croupier/croupier.env}"
CROUPIER_OWNER_ENV="${CROUPIER_OWNER_ENV:-/etc/croupier/owner.env}"
BACKUP_DIR="${BACKUP_DIR:-/srv/backups}"
RUN_AS="${RUN_AS-croupier}"          # the service's user; empty: as whoever runs this
SYSTEMCTL="${SYSTEMCTL:-systemctl}"
LOCK_TIMEOUT="${LOCK_TIMEOUT:-5s}"

say() { printf 'upgrade: %s\n' "$*" >&2; }
# a command of the service's, in its environment (plus the extra KEY=value words given first)
as_service() {
  if [ -n "$RUN_AS" ] && [ "$(id -un)" != "$RUN_AS" ]; then
    set -- runuser -u "$RUN_AS" -- "$@"
  fi
  (cd "$CROUPIER_HOME" && set -a && . "$CROUPIER_ENV" && set +a && umask 0077 && exec "$@")
}

python="$CROUPIER_HOME/.venv/bin/python"
[ -r "$CROUPIER_ENV" ] || { say "cannot read $CROUPIER_ENV"; exit 2; }
[ -r "$CROUPIER_OWNER_ENV" ] || { say "cannot read $CROUPIER_OWNER_ENV (DATABASE_OWNER_URL=postgres://OWNER:…)"; exit 2; }
owner_url="$(sed -n 's/^DATABASE_OWNER_URL=//p' "$CROUPIER_OWNER_ENV" | tail -n 1)"
[ -n "$owner_url" ] || { say "$CROUPIER_OWNER_ENV sets no DATABASE_OWNER_URL"; exit 2; }

say "1/4 backup into $BACKUP_DIR"
as_service "$python" manage.py backup --dir "$BACKUP_DIR"

say "2/4 migrations, as the owner (lock_timeout $LOCK_TIMEOUT); what will run:"
as_service "$python" manage.py migrate --plan
as_service env DATABASE_OWNER_URL="$owner_url" PGOPTIONS="-c lock_timeout=$LOCK_TIMEOUT" \
  "$python" manage.py db_setup

say "3/4 static files"
# readable by the web server too (it serves /static/ from STATIC_ROOT), unlike everything else the service writes
as_service sh -c 'umask 0022 && exec "$0" manage.py collectstatic --noinput -v0' "$python"

say "4/4 processes: web (graceful reload), worker, beat"
"$SYSTEMCTL" reload croupier-web.service
"$SYSTEMCTL" restart croupier-worker.service
"$SYSTEMCTL" restart croupier-beat.service
say "done: check GET /health/ready (migrations_pending 0, worker and beat answering)"
