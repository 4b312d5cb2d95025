"""The test suite's PostgreSQL backend: the application runs as the service role, as in production.

``casino.settings_test`` connects as a role that may create roles and databases (``postgres`` in CI).
That role only builds the test database: it creates the owner and service roles (names containing the
test database's name), creates the test database owned by the owner, runs the migrations as the owner
and grants the service (casino/core/dbroles.py); every test then runs as the service. Between
transactional tests the tables are emptied by the privileged role in a session of its own
(``session_replication_role = replica``, a superuser's right), so no guard needs a way around it.
"""
