"""The optional read replica: dashboard and report reads go there, writes and everything else never."""

from __future__ import annotations

from django.http import HttpResponse
from django.test import RequestFactory

from casino import dbrouter
from tables.models import Round


def test_without_a_replica_everything_stays_on_default():
    router = dbrouter.ReplicaRouter()
    with dbrouter.replica_reads():
        assert router.db_for_read(Round) is None  # no replica configured: Django's default
    assert router.db_for_write(Round) == "default"


def test_reads_inside_replica_reads_go_to_the_replica_and_writes_never(monkeypatch):
    monkeypatch.setattr(dbrouter, "replica_alias", lambda: "replica")
    router = dbrouter.ReplicaRouter()
    assert router.db_for_read(Round) is None
    with dbrouter.replica_reads():
        assert router.db_for_read(Round) == "replica"
        assert router.db_for_write(Round) == "default"
    assert router.db_for_read(Round) is None
    assert router.allow_migrate("replica", "tables") is False
    assert router.allow_migrate("default", "tables") is True


def test_the_middleware_serves_only_dashboard_and_report_gets_from_the_replica(settings, floor, monkeypatch):
    monkeypatch.setattr(dbrouter, "replica_alias", lambda: "replica")  # a replica that answers
    settings.DATABASE_REPLICA_PATHS = ["/pit/", "/api/accounting/reports/"]
    seen = {}

    def view(request):
        seen[request.method, request.path] = dbrouter.reads_from_replica()
        return HttpResponse("ok")

    middleware = dbrouter.ReplicaReadsMiddleware(lambda request: view(request))
    factory = RequestFactory()
    for method, path in (("get", "/pit/"), ("post", "/pit/"), ("get", "/api/rounds/"),
                         ("get", "/api/accounting/reports/revenue/")):
        request = getattr(factory, method)(path)
        request.user = floor.manager
        middleware.process_view(request, view, (), {})
        middleware(request)
        assert dbrouter.reads_from_replica() is False  # reset after each request
    assert seen == {("GET", "/pit/"): True, ("POST", "/pit/"): False, ("GET", "/api/rounds/"): False,
                    ("GET", "/api/accounting/reports/revenue/"): True}


def test_several_replicas_are_read_in_turn_and_one_that_fails_is_left_alone(settings, monkeypatch):
    # given two replicas, the second of which does not answer
    settings.DATABASES = {**settings.DATABASES, "replica": {}, "replica_2": {}}
    answering = {"replica": True, "replica_2": False}
    tried = []

    def answers(alias):
        tried.append(alias)
        if not answering[alias]:
            dbrouter._down[alias] = dbrouter.time.monotonic() + 30
        return answering[alias]

    monkeypatch.setattr(dbrouter, "_answers", answers)
    monkeypatch.setattr(dbrouter, "_down", {})
    assert dbrouter.replica_aliases() == ["replica", "replica_2"]
    # when reads are routed several times
    chosen = [dbrouter.replica_alias() for _ in range(4)]
    # then the lost one is tried once and then left alone; the other serves every read
    assert chosen == ["replica"] * 4
    assert tried.count("replica_2") == 1
    # and with both lost the reads go to the primary
    answering["replica"] = False
    dbrouter._down.clear()
    assert dbrouter.replica_alias() is None
