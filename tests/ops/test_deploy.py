"""deploy/: the systemd units, the alerting rules, the Grafana dashboard and the container files, checked
against the code they run and the metrics it exports."""

from __future__ import annotations

import configparser
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
UNITS = sorted((DEPLOY / "systemd").glob("croupier-*.service"))
LONG_RUNNING = ["croupier-web.service", "croupier-worker.service", "croupier-beat.service"]
ENV_FILE = "/etc/croupier/croupier.env"
PROMETHEUS_OWN = {"up"}  # the one series Prometheus makes itself for every target (is the scrape answering)


def _unit(path: Path) -> configparser.RawConfigParser:
    parser = configparser.RawConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # systemd's keys are case-sensitive
    parser.read_string(path.read_text())
    return parser


def test_every_process_has_a_unit_and_the_backup_a_timer():
    names = sorted(p.name for p in (DEPLOY / "systemd").iterdir())
    assert names == ["croupier-backup.service", "croupier-backup.timer", *sorted(LONG_RUNNING)]
    timer = _unit(DEPLOY / "systemd" / "croupier-backup.timer")
    assert timer["Timer"]["Unit"] == "croupier-backup.service"
    assert timer["Timer"]["Persistent"] == "true"
    assert timer["Install"]["WantedBy"] == "timers.target"


@pytest.mark.parametrize("path", UNITS, ids=lambda p: p.name)
def test_each_unit_runs_as_the_service_user_with_private_files_and_restarts(path):
    service = _unit(path)["Service"]
    assert service["EnvironmentFile"] == ENV_FILE
    assert service["User"] == "croupier"
    assert service["Group"] == "croupier"
    assert service["UMask"] == "0077"  # files it writes (backups, schedule, metrics) readable by it alone
    assert service["NoNewPrivileges"] == "yes"
    assert service["WorkingDirectory"] == "/srv/croupier"
    expected_restart = "always" if path.name in LONG_RUNNING else "on-failure"
    assert service["Restart"] == expected_restart
    # what it runs is in this repository
    argv = service["ExecStart"].split()
    assert argv[0].startswith("/srv/croupier/.venv/bin/")
    for arg in argv[1:]:
        if arg.startswith("/srv/croupier/") and not arg.startswith("/srv/croupier/var"):
            assert (ROOT / arg.removeprefix("/srv/croupier/")).exists(), arg
    if "manage.py" in argv:
        assert (ROOT / "manage.py").exists()


def test_the_units_run_what_the_docs_say():
    web = _unit(DEPLOY / "systemd" / "croupier-web.service")["Service"]
    assert web["ExecStart"].endswith("gunicorn -c /srv/croupier/casino/gunicorn.conf.py casino.wsgi:application")
    assert web["ExecReload"] == "/bin/kill -s HUP $MAINPID"  # graceful: no request dropped
    assert web["Type"] == "notify"  # gunicorn tells systemd when it is ready
    worker = _unit(DEPLOY / "systemd" / "croupier-worker.service")["Service"]
    assert " -A casino --quiet worker " in worker["ExecStart"]
    beat = _unit(DEPLOY / "systemd" / "croupier-beat.service")["Service"]
    assert " -A casino --quiet beat " in beat["ExecStart"]
    assert "--schedule /var/lib/croupier/" in beat["ExecStart"]
    assert beat["StateDirectory"] == "croupier"
    backup = _unit(DEPLOY / "systemd" / "croupier-backup.service")["Service"]
    assert backup["ExecStart"].endswith("manage.py backup --dir /srv/backups")
    assert "-mtime +${BACKUP_KEEP_DAYS}" in backup["ExecStartPost"]  # retention
    docs = (ROOT / "docs" / "operations.md").read_text()
    for name in ("croupier-web.service", "croupier-worker.service", "croupier-beat.service", "croupier-backup.timer"):
        assert name in docs


def test_systemd_analyze_verifies_the_units(tmp_path):
    """``systemd-analyze verify`` on the units as installed, with this checkout standing for /srv/croupier."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed here (apt-get install systemd); the structure is checked above")
    for path in (DEPLOY / "systemd").iterdir():
        text = path.read_text().replace("/srv/croupier", str(ROOT)).replace(ENV_FILE, str(DEPLOY / "croupier.env.example"))
        (tmp_path / path.name).write_text(text)
    done = subprocess.run([analyze, "verify", "--man=no", *sorted(str(p) for p in tmp_path.iterdir())],
                          capture_output=True, text=True, timeout=120, env={**os.environ, "SYSTEMD_LOG_LEVEL": "notice"})
    # unknown keys and bad values are only warnings for systemd: any line at all is a failure here
    assert (done.returncode, done.stdout.strip(), done.stderr.strip()) == (0, "", "")


# -- metrics named by the rules and the dashboard ------------------------------------------------------

_FUNCTIONS_AND_WORDS = {
    "by", "without", "on", "ignoring", "group_left", "group_right", "and", "or", "unless", "bool", "offset",
    "sum", "min", "max", "avg", "count", "rate", "increase", "irate", "histogram_quantile", "vector", "absent",
    "topk", "bottomk", "delta", "deriv", "time", "abs", "clamp_min", "clamp_max", "inf", "nan",
}


def metric_names(expr: str) -> set[str]:
    """The metric names a PromQL expression reads (label matchers, grouping labels, ranges and strings removed)."""
    text = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)
    text = re.sub(r"\{[^}]*\}", "", text)
    text = re.sub(r"\[[^\]]*\]", "", text)
    text = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", r"\1", text)
    names = set()
    for match in re.finditer(r"[A-Za-z_:][A-Za-z0-9_:]*", text):
        word = match.group(0)
        following = text[match.end():].lstrip()[:1]
        if word in _FUNCTIONS_AND_WORDS or following == "(":
            continue
        names.add(word)
    return names


def test_metric_names_are_read_from_promql():
    assert metric_names('max by (check) (croupier_job_late{check!~"worker|beat"}) == 1') == {"croupier_job_late"}
    assert metric_names("histogram_quantile(0.99, sum by (le) (rate(croupier_x_bucket[5m]))) > 0.05") == {
        "croupier_x_bucket"}
    assert metric_names("count(max by (check) (a) == 1) or vector(0)") == {"a"}


def _exported(client) -> set[str]:
    """Every series name /metrics exports, as Prometheus stores them (counters' _total, histograms' parts)."""
    response = client.get("/metrics")
    assert response.status_code == 200
    names = set()
    suffixes = {"counter": ["_total", "_created"], "histogram": ["_bucket", "_count", "_sum", "_created"],
                "summary": ["_count", "_sum", "_created"], "gauge": [""]}
    for family in text_string_to_metric_families(response.content.decode()):
        names.update(family.name + s for s in suffixes.get(family.type, [""]))
        names.update(sample.name for sample in family.samples)
    return names


def _rule_exprs() -> list[tuple[str, str]]:
    rules = yaml.safe_load((DEPLOY / "prometheus" / "croupier-alerts.yml").read_text())
    return [(rule["alert"], rule["expr"]) for group in rules["groups"] for rule in group["rules"]]


def _dashboard_exprs() -> list[tuple[str, str]]:
    dashboard = json.loads((DEPLOY / "grafana" / "croupier-floor.json").read_text())
    return [(panel["title"], target["expr"]) for panel in dashboard["panels"] for target in panel["targets"]]


@pytest.fixture
def exported(db, client, settings):
    # a deployment's settings: the cache and the job queue are Redis (so their "up" gauges are exported)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.OPS_EXPECT_WORKER = True
    assert settings.REDIS_URL
    assert settings.CELERY_BROKER_URL
    return _exported(client)


def test_every_alerting_rule_names_only_metrics_the_service_exports(exported):
    exprs = _rule_exprs()
    assert len(exprs) >= 10
    unknown = {alert: sorted(metric_names(expr) - exported - PROMETHEUS_OWN) for alert, expr in exprs}
    assert {alert: names for alert, names in unknown.items() if names} == {}
    # and the parts the issue names each have their rule
    named = " ".join(expr for _, expr in exprs)
    for needed in ("croupier_database_up", "croupier_broker_up", 'check="worker"', 'check="beat"',
                   "croupier_outbox_oldest_pending_age_seconds", "croupier_audit_chain_broken"):
        assert needed in named


def test_the_dashboard_shows_the_floor_from_exported_metrics_only(exported):
    exprs = _dashboard_exprs()
    unknown = {title: sorted(metric_names(expr) - exported) for title, expr in exprs}
    assert {title: names for title, names in unknown.items() if names} == {}
    titles = {title for title, _ in exprs}
    assert {"Rounds per minute, by game", "Request latency", "Job lateness", "Outbox depth", "Database up"} <= titles


def test_promtool_checks_the_rules_where_it_is_installed():
    promtool = shutil.which("promtool")
    if promtool is None:
        pytest.skip("promtool is not installed here; the rules' YAML and metric names are checked above")
    done = subprocess.run([promtool, "check", "rules", str(DEPLOY / "prometheus" / "croupier-alerts.yml")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


# -- the container ----------------------------------------------------------------------------------------

def test_the_compose_file_runs_web_worker_beat_postgresql_and_redis_from_one_image():
    compose = yaml.safe_load((DEPLOY / "docker" / "compose.yaml").read_text())
    services = compose["services"]
    assert {"web", "worker", "beat", "postgres", "redis", "upgrade", "backup"} <= set(services)
    for role in ("web", "worker", "beat", "upgrade", "backup"):
        assert services[role]["image"] == "croupier:latest"
        assert services[role]["command"] == [role]
        assert "DATABASE_OWNER_URL" not in services[role]["environment"] or role == "upgrade"
    # the new code starts only once its migrations are applied, by the owner, in the one-shot upgrade
    for role in ("web", "worker", "beat"):
        assert services[role]["depends_on"]["upgrade"] == {"condition": "service_completed_successfully"}
    assert "DATABASE_ADMIN_URL" in services["upgrade"]["environment"]
    assert "--appendonly" in services["redis"]["command"]  # Redis keeps the queue across a restart
    assert services["web"]["ports"] == ["127.0.0.1:8000:8000"]


def test_the_image_runs_as_a_user_with_the_locked_dependencies():
    dockerfile = (DEPLOY / "docker" / "Dockerfile").read_text()
    assert "--require-hashes -r requirements.txt" in dockerfile
    assert re.search(r"^USER croupier$", dockerfile, re.M)
    assert 'ENTRYPOINT ["/srv/croupier/deploy/docker/entrypoint.sh"]' in dockerfile
    assert os.access(DEPLOY / "docker" / "entrypoint.sh", os.X_OK)
    roles = re.findall(r"^\s+(\w+)\)\s+exec ", (DEPLOY / "docker" / "entrypoint.sh").read_text(), re.M)
    assert roles == ["web", "worker", "beat", "upgrade", "backup", "manage"]


def test_the_entry_points_manage_role_runs_manage_py():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_"))}
    env["PATH"] = f"{ROOT / '.venv' / 'bin'}:{env['PATH']}"
    done = subprocess.run(["sh", str(DEPLOY / "docker" / "entrypoint.sh"), "manage", "check"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "System check identified no issues" in done.stdout
