"""Who picks the language a screen speaks (docs/languages.md, "Languages").

Each member of staff picks theirs: it is kept on their staff profile, applied from the first request
after they sign in (casino.middleware.UserLanguageMiddleware) and changed from the menu's picker or, on
the dealer screen, with one tap at the table. Before signing in, the browser's language is used (or the
one picked on the sign-in page, kept in Django's language cookie).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext

from casino.audit.services import audit_log
from casino.core.models import StaffProfile
from casino.errors import InvalidInput


def language_codes() -> list[str]:
    return [code for code, _ in settings.LANGUAGES]


def language_check(language: Any) -> str:
    """A language the screens speak, or a refusal naming the ones they do."""
    if not isinstance(language, str) or language not in language_codes():
        raise InvalidInput(gettext("language: one of %(languages)s") % {"languages": ", ".join(language_codes())},
                           code="bad_language", field="language")
    return language


@transaction.atomic
def staff_language_set(*, actor: Any, language: Any) -> str:
    """The signed-in person picks the language of their screens; recorded on their staff profile (a
    person without one — an admin made by ``createsuperuser`` — keeps it for the session only)."""
    language = language_check(language)
    profile = StaffProfile.objects.select_for_update().filter(user_id=actor.pk).first()
    if profile is None or profile.language == language:
        return language
    before = profile.language
    StaffProfile.objects.filter(pk=profile.pk).update(language=language)
    audit_log(actor=actor, action="staff.language_set", object_type="staff", object_id=profile.pk,
              before={"language": before}, after={"language": language})
    return language
