"""The test suite's PostgreSQL backend: the application runs as the service role, as in production.

``casino.settings_test`` connects as a role that may create roles and databases (``postgres`` in CI).
That role only builds the test database: it creates the owner and service roles (names containing the
test database's name), migrates a **template** database as the owner and grants the service
(casino/core/dbroles.py), then makes the test database a copy of it (``CREATE DATABASE … TEMPLATE``);
every test then runs as the service. The template is built once and kept while what it is built from
stays the same (``base.schema_digest``: the migrations and what they import): the workers of a run take
turns under an advisory lock, the first finding no template with that digest migrates one and marks it,
the others — and later runs — only copy it. Between transactional tests the tables are emptied by the
privileged role in a session of its own (``session_replication_role = replica``, a superuser's right),
so no guard needs a way around it; their rows are deleted rather than truncated (a TRUNCATE of every
table makes new files for every table and index: seconds, where deleting a test's few rows takes
milliseconds).
"""
