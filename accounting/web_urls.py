"""/accounting/… pages (included from casino/urls.py)."""

from __future__ import annotations

from django.urls import path

from accounting import views
from accounting.views import cage

app_name = "accounting-web"
urlpatterns = [path("", views.index, name="index")]
urlpatterns += [
    path("cage/", cage.count_screen, name="cage-counts"),
    path("cage/slips/", cage.slip_list, name="cage-slips"),
    path("cage/slips/numbers/", cage.slip_numbers, name="cage-numbers"),
    path("cage/slips/<int:pk>/", cage.slip_detail, name="cage-slip"),
    path("cage/drop/", cage.drop_screen, name="cage-drop"),
    path("cage/markers/", cage.marker_list, name="cage-markers"),
    path("cage/markers/<int:pk>/", cage.marker_detail, name="cage-marker"),
]
