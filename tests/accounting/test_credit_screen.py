"""The Credit lines screen (docs/accounting.md, "Markers as credit"): only the approvers set a line, within the
authority their signature carries; a refusal is said in words on the screen and writes nothing; a form sent twice
is done once."""

from __future__ import annotations

import pytest
from django.test import Client

from accounting.models import CreditLine
from casino.audit.models import AuditRecord
from casino.core.roles import Role
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
URL = "/accounting/cage/credit/"


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def written():
    return CreditLine.objects.count(), AuditRecord.objects.filter(action="credit_line.approve").count()


def test_a_cashier_and_a_dealer_set_no_credit_line(floor):
    cashier = UserFactory(username="cashier", roles=[Role.CASHIER])
    before = written()
    answer = signed_in(cashier).post(URL, {"player": "Ms Lee", "limit": "100"})
    assert answer.status_code == 400
    assert "Credit lines are set by pit managers and accountants." in answer.content.decode()
    assert signed_in(floor.dealer).get(URL).status_code == 403
    assert written() == before


def test_over_the_authority_is_refused_in_words_and_the_accountant_approves_it_once(floor):
    before = written()
    refused = signed_in(floor.manager).post(URL, {"player": "Ms Lee", "limit": "5000.01"})
    assert refused.status_code == 400
    assert "approves credit lines up to" in refused.content.decode()
    assert written() == before
    accountant = signed_in(floor.accountant)
    form = {"player": "Ms Lee", "limit": "5000.01", "reason": "regular", "form_key": "k-credit-1"}
    first = accountant.post(URL, form)
    again = accountant.post(URL, form)
    assert first.status_code == again.status_code == 302
    line = CreditLine.objects.get()
    assert (line.player, line.limit, line.approver.user, line.reason) == ("Ms Lee", 500_001, floor.accountant,
                                                                          "regular")
    page = accountant.get(URL).content.decode()
    assert 'data-player="Ms Lee"' in page
