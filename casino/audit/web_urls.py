"""``/audit/…``: the auditors' page (included from casino/urls.py)."""

from django.urls import path

from casino.audit import views

urlpatterns = [
    path("", views.audit_index, name="audit-index"),
    path("verify/", views.audit_verify_now, name="audit-verify-now"),
    path("verify/<int:pk>/", views.audit_verification_result, name="audit-verification-result"),
]
