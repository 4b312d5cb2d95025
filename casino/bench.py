"""The benchmark's baseline endpoint (``bench/api.py``): one authenticated INSERT and nothing else.

Mounted only when ``CROUPIER_BENCH_ENDPOINTS`` is on, which settings refuse in production. It goes
through the same middleware, authentication and JSON rendering as the real API, so the gap
between it and a card post is what the round services themselves cost. The bench creates its
table (``bench_baseline``) in its own database.
"""

from __future__ import annotations

from django.db import connection
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


class BaselineView(APIView):
    schema = None  # not part of the API

    def post(self, request: Request) -> Response:
        with connection.cursor() as cursor:
            cursor.execute("INSERT INTO bench_baseline (user_id, created_at) VALUES (%s, now()) RETURNING id",
                           [request.user.pk])
            (row_id,) = cursor.fetchone()
        return Response({"id": row_id}, status=201)
