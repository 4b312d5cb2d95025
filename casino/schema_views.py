"""``/api/schema/`` and ``/api/docs/``: who may read them is ``SPECTACULAR_SETTINGS["SERVE_PERMISSIONS"]``
(:class:`casino.permissions.ApiDocsAccess`: a signed-in user in production unless ``API_DOCS_PUBLIC``). Apart
from casino/schema.py, which drf-spectacular's views import through the settings."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import redirect_to_login
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.exceptions import AuthenticationFailed, NotAuthenticated
from rest_framework.renderers import JSONRenderer


class SchemaView(SpectacularAPIView):
    """``/api/schema/``: a refusal is the API's JSON error, whatever format the schema was asked in."""

    def handle_exception(self, exc: Exception) -> Any:
        response = super().handle_exception(exc)
        if response.status_code in (401, 403):
            self.request.accepted_renderer = JSONRenderer()
            self.request.accepted_media_type = JSONRenderer.media_type
        return response


class DocsView(SpectacularSwaggerSplitView):
    """``/api/docs/``: someone not signed in is sent to the sign-in page, and back here after it."""

    def handle_exception(self, exc: Exception) -> Any:
        if isinstance(exc, (NotAuthenticated, AuthenticationFailed)):
            return redirect_to_login(self.request.get_full_path())
        return super().handle_exception(exc)
