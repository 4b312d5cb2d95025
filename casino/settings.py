"""Croupier settings: one module, driven by environment variables (see README "Configuration").

Development is the default and needs nothing external: SQLite and Celery tasks run in process.
``CROUPIER_MODE=production`` turns on every deployment protection and refuses to start without
a real ``SECRET_KEY`` and ``ALLOWED_HOSTS``.
"""

from __future__ import annotations

from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

from casino import task_names
from casino.env import EnvError, ensure_private_dir, env_bool, env_int, env_list, env_str
from casino.proxies import parse_networks

BASE_DIR = Path(__file__).resolve().parent.parent

MODE = env_str("CROUPIER_MODE", "development")
if MODE not in ("development", "production"):
    raise EnvError(f"CROUPIER_MODE={MODE!r}: expected development or production")
PRODUCTION = MODE == "production"

# Off unless asked for by name (DEBUG=true), in every mode: an error is never Django's debug page by
# default, and even when DEBUG is on no setting, environment variable or local variable that holds a
# secret or a connection URL is shown (casino/security.py, DEFAULT_EXCEPTION_REPORTER_FILTER).
DEBUG = env_bool("DEBUG", False)
if PRODUCTION and DEBUG:
    # check --deploy only warns; a production process with Django's debug page and its unbounded query log
    # never starts
    raise ImproperlyConfigured("DEBUG is on and CROUPIER_MODE=production: production never runs with DEBUG; unset "
                               "DEBUG (or set DEBUG=false) to start")
_DEV_SECRET = "django-insecure-croupier-development-only-key-never-use-in-production-0123456789"
SECRET_KEY = env_str("SECRET_KEY", None if PRODUCTION else _DEV_SECRET)
if PRODUCTION:
    # Django's own bar for a key (check --deploy, security.W009): 50 characters, 5 different ones,
    # not a generated development key; and never this file's development key.
    if not SECRET_KEY:
        raise EnvError("SECRET_KEY must be set when CROUPIER_MODE=production")
    if (len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5 or SECRET_KEY.startswith("django-insecure")
            or SECRET_KEY == _DEV_SECRET):
        raise EnvError("SECRET_KEY is too short or a development key: CROUPIER_MODE=production needs at least "
                       "50 random characters (python -c 'import secrets; print(secrets.token_urlsafe(50))')")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [] if PRODUCTION else ["127.0.0.1", "localhost", "testserver"])
if PRODUCTION and not ALLOWED_HOSTS:
    raise EnvError("ALLOWED_HOSTS must be set when CROUPIER_MODE=production")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from our own static files, never a CDN
    "casino.core",
    "casino.audit",
    "tables",
    "accounting",
    "players",
    "cardroom",
    "slots",
    "floor",  # the screens that span the apps, above all of them (docs/architecture.md)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "casino.security.SecurityHeadersMiddleware",  # CSP, Permissions-Policy, no-store on the API
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # the browser's language until someone signs in
    "casino.exceptions.ApiNotFoundMiddleware",  # a 404 under /api/ is JSON, in every mode
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "casino.middleware.UserLanguageMiddleware",  # then the language the signed-in person picked
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "casino.middleware.RequestContextMiddleware",
    "casino.audit.middleware.AuditActorMiddleware",
]

ROOT_URLCONF = "casino.urls"
WSGI_APPLICATION = "casino.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASE_URL = env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'var' / 'croupier.sqlite3'}")
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 60, minimum=0))}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    (BASE_DIR / "var").mkdir(exist_ok=True)
    # SQLite serialises writers; a busy timeout keeps the dev server and in-process jobs from
    # failing with "database is locked" when they overlap.
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        "timeout": 20,
        # IMMEDIATE: a writer takes the lock at BEGIN, so two writers queue instead of deadlocking;
        # WAL + synchronous=NORMAL: commits without an fsync each (the embedded mode is for trying out)
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    })
else:
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's PostgreSQL backend, whose writes made for a transaction's record (the audit trail) ride on its
    # commit instead of costing a round trip each (casino/dbbackend)
    DATABASES["default"]["ENGINE"] = "casino.dbbackend"
# Optional read replicas for the dashboards, reports and exports (casino/dbrouter.py, docs/scaling.md):
# DATABASE_REPLICA_URLS, comma-separated (DATABASE_REPLICA_URL, one, as before). Aliases replica, replica_2, …
DATABASE_REPLICA_URLS = env_list("DATABASE_REPLICA_URLS", [])
if env_str("DATABASE_REPLICA_URL", ""):
    DATABASE_REPLICA_URLS.insert(0, env_str("DATABASE_REPLICA_URL", ""))
DATABASE_REPLICA_PATHS = env_list("DATABASE_REPLICA_PATHS", ["/pit/", "/reports/", "/api/accounting/reports/"])
DATABASE_REPLICA_RETRY_AFTER = env_int("DATABASE_REPLICA_RETRY_AFTER", 30, minimum=1)  # seconds a lost one is left
for _n, _url in enumerate(DATABASE_REPLICA_URLS, start=1):
    _alias = "replica" if _n == 1 else f"replica_{_n}"
    DATABASES[_alias] = dj_database_url.parse(_url, conn_max_age=env_int("DB_CONN_MAX_AGE", 60, minimum=0))
    DATABASES[_alias]["CONN_HEALTH_CHECKS"] = True
    DATABASES[_alias].setdefault("OPTIONS", {})["connect_timeout"] = env_int("DB_REPLICA_CONNECT_TIMEOUT", 2,
                                                                             minimum=1)
    DATABASES[_alias]["TEST"] = {"MIRROR": "default"}
if DATABASE_REPLICA_URLS:
    DATABASE_ROUTERS = ["casino.dbrouter.ReplicaRouter"]
    MIDDLEWARE.append("casino.dbrouter.ReplicaReadsMiddleware")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# The languages the screens speak (docs/languages.md): each person picks one (their staff profile), the
# dealer screen switches at the table; the catalogs live in locale/ and are compiled by `make locale`.
LANGUAGES = [
    ("en", "English"),
    ("zh-hant", "繁體中文"),
    ("zh-hans", "简体中文"),
    ("es", "Español"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise warns on every request otherwise
WHITENOISE_USE_FINDERS = DEBUG  # development serves app static files without collectstatic
STATICFILES_DIRS = [BASE_DIR / "static"] if (BASE_DIR / "static").is_dir() else []
MEDIA_ROOT = Path(env_str("MEDIA_ROOT", str(BASE_DIR / "var" / "media")))
LOGIN_URL = "/login/"
LOGIN_REDIRECT_URL = "/"

# Bodies above this are refused with 413 before any parsing (a round document is a few KB).
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("MAX_BODY_BYTES", 256 * 1024, minimum=1024)
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000
# A JSON body nested deeper than this is refused (400 malformed_json) before it is parsed (casino/parsers.py).
MAX_JSON_DEPTH = env_int("MAX_JSON_DEPTH", 32, minimum=4)
# The most rows one page of an API list holds (?limit=…; casino/pagination.py).
API_MAX_PAGE_SIZE = env_int("API_MAX_PAGE_SIZE", 500, minimum=1)
# Error reports (the debug page when DEBUG is on, logged reports) hide secrets and connection URLs.
DEFAULT_EXCEPTION_REPORTER_FILTER = "casino.security.SecretsHiddenReporterFilter"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # the token first: an unauthenticated call is then a 401 with ``WWW-Authenticate: Token``
        # (DRF answers 403 when the first class, like the session's, names no challenge)
        "casino.authentication.TokenAuthentication",  # DRF's, with the roles in the same query
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": ["casino.parsers.BoundedJSONParser"],  # nesting depth bounded before parsing
    "DEFAULT_RENDERER_CLASSES": ["casino.renderers.ApiJSONRenderer", "rest_framework.renderers.BrowsableAPIRenderer"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend", "rest_framework.filters.OrderingFilter"],
    "DEFAULT_PAGINATION_CLASS": "casino.pagination.BoundedLimitOffsetPagination",  # at most API_MAX_PAGE_SIZE
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "casino.schema.CroupierAutoSchema",  # documents the required Idempotency-Key
    "EXCEPTION_HANDLER": "casino.exceptions.api_exception_handler",
    "DEFAULT_THROTTLE_RATES": {"login": env_str("LOGIN_THROTTLE", "10/min")},
}
# /api/schema/ and /api/docs/ open to anyone: the default in development; in production only if asked for
API_DOCS_PUBLIC = env_bool("API_DOCS_PUBLIC", not PRODUCTION)
SPECTACULAR_SETTINGS = {
    "TITLE": "Croupier API",
    "DESCRIPTION": "Casino back office and dealer-assist service: floor, rounds, settlement, accounting, audit.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # /api/schema/ and /api/docs/: a signed-in user in production, unless API_DOCS_PUBLIC opens them
    "SERVE_PERMISSIONS": ["casino.permissions.ApiDocsAccess"],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # every operation documents the JSON errors it can answer (casino/schema.py)
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "casino.schema.add_error_responses"],
    # every choice set named once, so the schema (and `check --deploy`) has no naming collisions
    "ENUM_NAME_OVERRIDES": {
        "OpenClosedEnum": "tables.models.TableStatus",  # shifts share it: open/closed
        "RoundStatusEnum": "tables.models.RoundStatus",
        "ReconciliationStatusEnum": "accounting.models.ReconciliationStatus",
        "SlipStatusEnum": "accounting.models.SlipStatus",
        "ExportStatusEnum": "accounting.models.ExportStatus",
        "PlayerStatusEnum": "players.models.PlayerStatus",
        "DocumentKindEnum": "players.models.DocumentKind",
        "CashKindEnum": "players.models.CashKind",
        "ScoreSheetStatusEnum": "cardroom.models.SheetStatus",
        "TournamentStatusEnum": "cardroom.models.TournamentStatus",
        "MachineStatusEnum": "slots.models.MachineStatus",
        "ProgressiveScopeEnum": "slots.models.ProgressiveScope",
        "PaidByEnum": "slots.models.PaidBy",
        "BonusUnitEnum": "slots.models.BonusUnit",
        "BonusEventKindEnum": "slots.models.BonusEventKind",
    },
}

# -- Celery: with no broker configured, tasks run in process (eagerly) ------------------------
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not CELERY_BROKER_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", None)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULE: dict[str, dict] = {
    # accounting: reconcile every shift that has ended and is not reconciled yet (docs/accounting.md)
    "accounting-reconcile-due-shifts": {"task": task_names.RECONCILE_DUE_SHIFTS, "schedule": 15 * 60},
    # every night: the running figures recomputed from the records, an alert for any difference
    "accounting-check-running-figures": {"task": task_names.CHECK_RUNNING_FIGURES,
                                         "schedule": crontab(hour=env_int("RUNNING_CHECK_HOUR", 5, minimum=0),
                                                             minute=30)},
}
# Audit trail: sign each chain's head often, walk every chain less often (docs/audit.md).
CELERY_BEAT_SCHEDULE["audit-checkpoint"] = {"task": task_names.AUDIT_CHECKPOINT,
                                            "schedule": env_int("AUDIT_CHECKPOINT_EVERY", 900, minimum=10)}
CELERY_BEAT_SCHEDULE["audit-verify"] = {"task": task_names.AUDIT_VERIFY,
                                        "schedule": env_int("AUDIT_VERIFY_EVERY", 3600, minimum=10)}
# …from each chain's last signed checkpoint; every record of every chain once a week (or as set).
CELERY_BEAT_SCHEDULE["audit-verify-full"] = {"task": task_names.AUDIT_VERIFY, "kwargs": {"full": True},
                                             "schedule": env_int("AUDIT_FULL_VERIFY_EVERY", 7 * 86400, minimum=10)}
# Walkers of a verification (forked processes, one connection each; 0: one per core, at most 4), used once it
# has at least AUDIT_VERIFY_PARALLEL_MIN records to read (docs/audit.md, "Speed").
AUDIT_VERIFY_WORKERS = env_int("AUDIT_VERIFY_WORKERS", 0, minimum=0)
AUDIT_VERIFY_PARALLEL_MIN = env_int("AUDIT_VERIFY_PARALLEL_MIN", 100_000, minimum=0)
# The audit records' monthly partitions (PostgreSQL; docs/scaling.md, "Partitioning"): this month's and the next
# AUDIT_PARTITIONS_AHEAD months' are made every few hours if missing, so a month never begins without one.
AUDIT_PARTITIONS_AHEAD = env_int("AUDIT_PARTITIONS_AHEAD", 3, minimum=1)
CELERY_BEAT_SCHEDULE["audit-partitions"] = {"task": task_names.AUDIT_PARTITIONS, "schedule": 6 * 3600}
# Transactional outbox (casino/outbox.py): jobs are rows first; the relay sends what Redis refused.
CELERY_IMPORTS = ["casino.outbox", "casino.idempotency"]
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "celery")  # deployments (and benches) sharing one Redis
CELERY_BEAT_SCHEDULE["outbox-relay"] = {"task": task_names.OUTBOX_RELAY,
                                        "schedule": env_int("OUTBOX_RELAY_EVERY", 5, minimum=1)}
# Retention (docs/architecture.md, "Jobs"): sent outbox jobs and idempotency keys are deleted once they
# are this many days old, by an hourly job each. A pending outbox job is never deleted; a retry with a
# key inside its window replays the first answer.
OUTBOX_RETENTION_DAYS = env_int("OUTBOX_RETENTION_DAYS", 7, minimum=1)
IDEMPOTENCY_RETENTION_DAYS = env_int("IDEMPOTENCY_RETENTION_DAYS", 7, minimum=1)
CELERY_BEAT_SCHEDULE["outbox-purge"] = {"task": task_names.OUTBOX_PURGE, "schedule": 3600}
CELERY_BEAT_SCHEDULE["idempotency-purge"] = {"task": task_names.IDEMPOTENCY_PURGE, "schedule": 3600}
# An unreachable broker must fail a publish in seconds, not hang the request that committed.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 2}
# The key that signs audit checkpoints; empty: one derived from SECRET_KEY (casino/audit/signing.py).
AUDIT_CHECKPOINT_KEY = env_str("AUDIT_CHECKPOINT_KEY", "")
# Where every signed checkpoint and the chains' heads are also written, outside the database (a directory the
# database's roles cannot write; every verification reads it back: docs/audit.md). Empty: not anchored.
AUDIT_ANCHOR_DIR = env_str("AUDIT_ANCHOR_DIR", str(BASE_DIR / "var" / "audit-anchors"))
# While ``demo --background`` writes the demo's day, this file holds the writer's process id; the screens say
# the day is still being written while that process runs (floor/management/commands/demo.py)
DEMO_DAY_MARKER = env_str("DEMO_DAY_MARKER", str(BASE_DIR / "var" / "demo-day.pid"))
# Records held to the audit trail by every verification (settled rounds, their bets and settlements; the sealed
# accounting records; the ledger's balance and postings against their records: docs/audit.md).
AUDIT_RECORD_CHECKS = ["tables.integrity.rounds_against_trail", "accounting.integrity.records_against_trail",
                       "accounting.integrity.ledger_against_records"]
# How far back an incremental (hourly) verification compares rounds with the trail, besides every shift not yet
# closed; a full verification compares every round (docs/audit.md).
AUDIT_RECORD_CHECK_WINDOW = env_int("AUDIT_RECORD_CHECK_WINDOW", 2 * 86400, minimum=3600)

REDIS_URL = env_str("REDIS_URL", "")
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}

# -- Croupier's own knobs ---------------------------------------------------------------
def _currency(code: str | None) -> str:
    if not code or len(code) != 3 or not code.isalpha() or not code.isupper():
        raise EnvError(f"CROUPIER_CURRENCY={code!r}: expected a three-letter ISO 4217 code such as EUR")
    return code


def _choice(name: str, default: str, allowed: tuple[str, ...]) -> str:
    value = env_str(name, default)
    if value not in allowed:
        raise EnvError(f"{name}={value!r}: expected one of {', '.join(allowed)}")
    return value


CROUPIER = {
    "LARGE_BET": env_int("CROUPIER_LARGE_BET", 500_000, minimum=1),  # minor units
    # accounting (docs/accounting.md); amounts in minor units
    "CHIP_DENOMINATIONS": [int(v) for v in env_list("CROUPIER_CHIP_DENOMINATIONS",
                                                    ["100", "500", "2500", "10000", "50000", "100000", "500000"])],
    "COUNT_DISCREPANCY_REPORT": env_int("CROUPIER_COUNT_DISCREPANCY_REPORT", 2_500, minimum=0),  # report above
    "COUNT_DISCREPANCY_ESCALATE": env_int("CROUPIER_COUNT_DISCREPANCY_ESCALATE", 10_000, minimum=1),  # at or above
    "VARIANCE_ALERT": env_int("CROUPIER_VARIANCE_ALERT", 10_000, minimum=0),  # |variance| at or above
    "LARGE_LOSS": env_int("CROUPIER_LARGE_LOSS", 1_000_000, minimum=1),  # a round's house loss at or above
    "LARGE_TRANSACTION": env_int("CROUPIER_LARGE_TRANSACTION", 500_000, minimum=1),  # report threshold
    "RECONCILE_GRACE_HOURS": env_int("CROUPIER_RECONCILE_GRACE_HOURS", 24, minimum=0),
    # the nightly check of the running figures covers the open shifts and those that ended this recently
    "RUNNING_CHECK_HOURS": env_int("CROUPIER_RUNNING_CHECK_HOURS", 48, minimum=1),
    "EXPORT_SYNC_MAX_ROWS": env_int("CROUPIER_EXPORT_SYNC_MAX_ROWS", 10_000, minimum=0),
    "MINOR_UNIT_DIGITS": env_int("CROUPIER_MINOR_UNIT_DIGITS", 2, minimum=0),
    "CURRENCY": _currency(env_str("CROUPIER_CURRENCY", "EUR")),  # ISO 4217: what the screens show amounts in
    "CASINO_NAME": env_str("CROUPIER_CASINO_NAME", "Croupier"),  # on the reports' PDF header
    # who opens the next shift, rolls the tables and reopens a close: "shift_manager" (shift managers only)
    # or "pit_manager" (pit managers of their pits too); docs/accounting.md, "The gaming day"
    "DAY_RUN_BY": _choice("CROUPIER_DAY_RUN_BY", "pit_manager", ("pit_manager", "shift_manager")),
    # markers as credit (docs/accounting.md, "Markers as credit"): the largest credit line a pit manager's and an
    # accountant's signature approves (an admin's has no cap); whether a player needs a line to take a marker
    "CREDIT_APPROVAL_LIMITS": {
        "pit_manager": env_int("CROUPIER_CREDIT_LIMIT_PIT_MANAGER", 500_000, minimum=0),
        "accountant": env_int("CROUPIER_CREDIT_LIMIT_ACCOUNTANT", 5_000_000, minimum=0),
    },
    "MARKER_NEEDS_CREDIT_LINE": env_bool("CROUPIER_MARKER_NEEDS_CREDIT_LINE", False),
    # players: ratings, comps and the cash transaction log (docs/players.md); amounts in minor units
    "CASH_REPORT_THRESHOLD": env_int("CROUPIER_CASH_REPORT_THRESHOLD", 1_000_000, minimum=1),  # a day's total above
    "COMP_REINVESTMENT_PERCENT": env_int("CROUPIER_COMP_REINVESTMENT_PERCENT", 30, minimum=0),  # of theoretical win
    "COMP_POINTS_PER_UNIT": env_int("CROUPIER_COMP_POINTS_PER_UNIT", 10, minimum=0),  # per currency unit of comp
    "RATING_AVERAGE_BET_FACTOR_PERCENT": env_int("CROUPIER_RATING_AVERAGE_BET_FACTOR_PERCENT", 200, minimum=100),
    # advantage play (docs/game_protection.md): flag and alert at these one-sided p-values, parts per million
    "ADVANTAGE_FLAG_P_PPM": env_int("CROUPIER_ADVANTAGE_FLAG_P_PPM", 10_000, minimum=1),
    "ADVANTAGE_ALERT_P_PPM": env_int("CROUPIER_ADVANTAGE_ALERT_P_PPM", 1_000, minimum=1),
    "SIDE_BET_ALERT_P_PPM": env_int("CROUPIER_SIDE_BET_ALERT_P_PPM", 1_000, minimum=1),  # baccarat pair and tie bets
}

# One line per request and per job with its request id (casino/ops/logs.py, docs/operations.md): JSON for
# the log collector in production, text on a developer's console.
LOG_FORMAT = env_str("LOG_FORMAT", "json" if PRODUCTION else "text")
if LOG_FORMAT not in ("json", "text"):
    raise EnvError(f"LOG_FORMAT={LOG_FORMAT!r}: expected json or text")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "casino.ops.logs.RequestIdFilter"}},
    "formatters": {"json": {"()": "casino.ops.logs.JsonFormatter"}, "text": {"()": "casino.ops.logs.TextFormatter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT, "filters": ["request_id"]}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # django.request: only a 500's traceback (with the request id, like every line); its 4xx lines would
    # repeat croupier.request's. django.server: runserver's access lines repeat them too.
    "loggers": {"django.request": {"level": "ERROR"}, "django.server": {"level": "WARNING"}},
}

if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000, minimum=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
SESSION_COOKIE_HTTPONLY = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# -- Sign-in and browser protections (casino/auth.py, casino/security.py) --------------------------
AUTHENTICATION_BACKENDS = ["casino.auth.LockoutBackend"]
# Proxies (addresses or networks) whose X-Forwarded-For is believed: behind them the client is the rightmost
# hop that is not one of them (casino/proxies.py); from anyone else the header is ignored. Empty: REMOTE_ADDR.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", [])
try:
    parse_networks(TRUSTED_PROXIES)
except ValueError as exc:
    raise EnvError(f"TRUSTED_PROXIES={','.join(TRUSTED_PROXIES)!r}: {exc}") from None
LOGIN_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5, minimum=1)  # per username from one address
LOGIN_ADDRESS_FAILURE_LIMIT = env_int("LOGIN_ADDRESS_FAILURE_LIMIT", 30, minimum=1)  # per client address: then slowed
LOGIN_ADDRESS_DELAY_SECONDS = env_int("LOGIN_ADDRESS_DELAY_SECONDS", 2, minimum=1)  # the first wait; then doubling
LOGIN_ADDRESS_MAX_DELAY_SECONDS = env_int("LOGIN_ADDRESS_MAX_DELAY_SECONDS", 60, minimum=1)  # never a lockout
LOGIN_KNOWN_TERMINAL_DAYS = env_int("LOGIN_KNOWN_TERMINAL_DAYS", 30, minimum=1)  # a person's own address: not slowed
LOGIN_FAILURE_WINDOW = env_int("LOGIN_FAILURE_WINDOW", 15 * 60, minimum=1)  # quiet seconds that reset a count
LOGIN_LOCKOUT_SECONDS = env_int("LOGIN_LOCKOUT_SECONDS", 15 * 60, minimum=1)  # the first lockout; then doubling
LOGIN_LOCKOUT_MAX_SECONDS = env_int("LOGIN_LOCKOUT_MAX_SECONDS", 24 * 3600, minimum=1)
# Signatures and approvals (a password or PIN typed for someone else): counted apart from sign-in.
SIGNATURE_FAILURE_LIMIT = env_int("SIGNATURE_FAILURE_LIMIT", 5, minimum=1)  # per requester and signer
SIGNATURE_REQUESTER_FAILURE_LIMIT = env_int("SIGNATURE_REQUESTER_FAILURE_LIMIT", 15, minimum=1)  # per requester
SIGNATURE_REQUESTER_WINDOW = env_int("SIGNATURE_REQUESTER_WINDOW", 24 * 3600, minimum=60)  # quiet seconds that reset it
SIGNATURE_LOCKOUT_SECONDS = env_int("SIGNATURE_LOCKOUT_SECONDS", 5 * 60, minimum=1)  # the first; then doubling
# API tokens stop working this many seconds after they were issued (0: never); the owner can revoke theirs.
API_TOKEN_TTL = env_int("API_TOKEN_TTL", 12 * 3600, minimum=0)
SESSION_COOKIE_AGE = env_int("SESSION_COOKIE_AGE", 12 * 3600, minimum=300)  # one shift and a margin
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_HTTPONLY = True  # the screens read the token from the form field, never the cookie
CROUPIER_CSP = {
    "default-src": ["'self'"], "script-src": ["'self'"],
    "style-src": ["'self'", "'unsafe-inline'"],  # the API docs' and audit page's inline <style>; no inline script
    "img-src": ["'self'", "data:"], "connect-src": ["'self'"], "font-src": ["'self'"], "object-src": ["'none'"],
    "base-uri": ["'self'"], "form-action": ["'self'"], "frame-ancestors": ["'none'"],
}
CROUPIER_PERMISSIONS_POLICY_DENY = ["camera", "microphone", "geolocation", "payment", "usb"]
# A test-and-bench-only endpoint (bench/api.py's baseline): never on in production.
CROUPIER_BENCH_ENDPOINTS = env_bool("CROUPIER_BENCH_ENDPOINTS", False) and not PRODUCTION

# -- Operations: health, metrics, job heartbeats (casino/ops, docs/operations.md) -------------------------
INSTALLED_APPS.append("casino.ops")
# First the probes (before host checks, the HTTPS redirect and sessions), then the request id and log line.
MIDDLEWARE[:0] = ["casino.ops.health.HealthMiddleware", "casino.ops.requests.RequestTelemetryMiddleware"]
SECURE_REDIRECT_EXEMPT = [r"^metrics$"]  # scraped over the internal network, like the probes
HEARTBEAT_EVERY = env_int("HEARTBEAT_EVERY", 30, minimum=5)  # seconds between the worker's heartbeats
# A job is late once twice its period, and at least this many seconds more than its period, passed without a
# success (casino/ops/status.py: late_after); the fault tests shorten it with the heartbeat, not wait minutes.
JOB_LATE_SLACK = env_int("JOB_LATE_SLACK", 60, minimum=1)
CELERY_BEAT_SCHEDULE["ops-heartbeat"] = {"task": "casino.ops.heartbeat", "schedule": HEARTBEAT_EVERY,
                                         "options": {"expires": HEARTBEAT_EVERY}}  # a backlog of them means nothing
CELERY_BEAT_SCHEDULE["ops-check-jobs"] = {"task": "casino.ops.check_jobs", "schedule": 60}
CELERY_WORKER_HIJACK_ROOT_LOGGER = False  # workers log through LOGGING too: one format, with request ids
# Whether a worker and beat are expected (readiness, the banner and the stale-job alerts watch them).
OPS_EXPECT_WORKER = env_bool("OPS_EXPECT_WORKER", not CELERY_TASK_ALWAYS_EAGER)
OUTBOX_STUCK_AFTER = env_int("OUTBOX_STUCK_AFTER", 300, minimum=10)
# Seconds between the web processes' own stale-job checks (casino/ops/watch.py; one process runs each); 0: off.
OPS_WATCH_EVERY = env_int("OPS_WATCH_EVERY", 60, minimum=0)  # seconds a job may wait for the broker
METRICS_TOKEN = env_str("METRICS_TOKEN", "")  # Authorization: Bearer <token>
# prometheus_client writes a file per process into PROMETHEUS_MULTIPROC_DIR as soon as a metric is created, in
# every process that loads these settings (gunicorn's workers, Celery, each manage.py command): the folder is
# made here (private to the service's user), not only when gunicorn starts.
ensure_private_dir("PROMETHEUS_MULTIPROC_DIR")
# Addresses that may scrape without the token; none in production (behind a proxy every client is the proxy).
METRICS_ALLOWED_NETWORKS = env_list("METRICS_ALLOWED_NETWORKS", [] if PRODUCTION else ["127.0.0.0/8", "::1/128"])
# A probe (or a request) must not hang on an unreachable database server for the OS's minutes-long timeout.
if DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", env_int("DB_CONNECT_TIMEOUT", 5,
                                                                                         minimum=1))
