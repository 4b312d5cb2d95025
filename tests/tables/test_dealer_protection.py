"""Dealer game protection from the records: each dealer's voids, undos and bets taken back per 100 rounds
against the other dealers of the same game, on the pit's dealers screen."""

from __future__ import annotations

import datetime as dt

from django.test import Client
from django.utils import timezone

from casino.core.roles import Role
from tables.models import Round
from tables.selectors import dealer_activity
from tests.factories import TableFactory, UserFactory, assign


def _rounds(table, dealer, shift, *, n: int, voided: int, start: int, by) -> None:
    at = timezone.now() - dt.timedelta(hours=2)
    rows = []
    for i in range(n):
        void = i < voided
        rows.append(Round(table=table, shift=shift, number=start + i, game=table.game, config={}, dealer=dealer,
                          opened_at=at + dt.timedelta(seconds=30 * i), status="voided" if void else "settled",
                          settled_at=None if void else at, voided_at=at if void else None,
                          void_reason="misdeal" if void else "", voided_by=by if void else None,
                          document={"bets": [], "events": []}))
    Round.objects.bulk_create(rows)


def test_a_dealer_with_many_more_voids_than_the_others_stands_out(floor):
    # given three baccarat dealers of the main pit, one voiding 15 rounds in 200
    tables = [floor.table]
    dealers = [floor.dealer]
    for n in (3, 4):
        table = TableFactory(code=f"BAC{n}", pit=floor.pit)
        dealer = UserFactory(username=f"dealer{n}", roles=[Role.DEALER])
        assign(dealer, table, floor.shift, floor.manager)
        tables.append(table)
        dealers.append(dealer)
    for i, (table, dealer) in enumerate(zip(tables, dealers)):
        _rounds(table, dealer, floor.shift, n=200, voided=15 if i == 2 else 1, start=1, by=floor.manager)
    # when the figures are read
    now = timezone.now()
    found = {a.dealer: a for a in dealer_activity(tables, since=now - dt.timedelta(days=1), until=now)["baccarat"]}
    # then
    assert (found["dealer4"].rounds, found["dealer4"].voids, found["dealer"].voids) == (200, 15, 1)
    assert found["dealer4"].hours > 0
    # and the pit's dealers screen names the one who stands out, and what
    client = Client()
    client.force_login(floor.manager)
    page = client.get("/pit/dealers/").content.decode()
    assert 'id="dealer-protection"' in page
    row = page[page.index('data-dealer="dealer4"'):]
    row = row[: row.index("</tr>")]
    assert "voids (" in row
    other = page[page.index('data-dealer="dealer3"'):]
    assert "nothing" in other[: other.index("</tr>")]
