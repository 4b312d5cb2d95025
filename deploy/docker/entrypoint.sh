#!/bin/sh
# The container's roles (deploy/docker/Dockerfile): web | worker | beat | upgrade | backup | manage ARGS…
# Anything else runs as given (a shell, for instance).
set -eu
umask 0077
role="${1:-web}"
[ "$#" -gt 0 ] && shift
case "$role" in
  web)     exec gunicorn -c /srv/croupier/casino/gunicorn.conf.py casino.wsgi:application "$@" ;;
  worker)  exec celery -A casino --quiet worker --loglevel INFO --concurrency "${WORKER_CONCURRENCY:-2}" "$@" ;;
  beat)    exec celery -A casino --quiet beat --loglevel INFO --schedule /srv/croupier/var/celerybeat-schedule "$@" ;;
  # the owner's and the administrator's URLs are given to this role alone (compose.yaml), never to the others
  upgrade) exec python manage.py db_setup "$@" ;;
  backup)  exec python manage.py backup --dir "${BACKUP_DIR:-/backups}" "$@" ;;
  manage)  exec python manage.py "$@" ;;
  *)       exec "$role" "$@" ;;
esac
