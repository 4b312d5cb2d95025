"""Every game the engines play, played through the service round flow: two consecutive rounds at a
table set up as the demo sets it up, the first through the services (as ``manage.py demo`` plays
it), the second through the REST API. Each round is settled once, the settlement is the engine's,
the ledger balances, and what a round hands on (a pot, a pool's carry, the players still in, the
bank) is what the next round starts with."""

from __future__ import annotations

import random
from typing import Any

import pytest

from accounting.models import Entry, LedgerTransaction
from tables.demo import SPECS, simulate_round
from tables.engines import registry
from tables.engines.registry import available_games, get_engine
from tables.models import Round, RoundStatus, Settlement
from tables.services.rounds import round_document
from tables.simulation.autoplay import play_round
from tests.factories import TableFactory, UserFactory, assign
from tests.fixtures import as_user

GAMES = available_games()


def test_every_registered_game_has_a_demo_table_spec():
    assert set(GAMES) == set(SPECS)


SEATS = 3  # fewer players than the demo's tables: fewer cards to post, the same round flow


def game_table(floor: Any, game: str) -> tuple[Any, Any]:
    """A table of ``game`` with the demo's rules and limits (and three seats), and its own dealer on shift."""
    spec = SPECS[game]
    config = {**spec.config, **({"seats": SEATS} if "seats" in spec.config else {})}
    table = TableFactory(
        code=game[:10].upper(),
        pit=floor.pit,
        game=game,
        config=config,
        min_bet=spec.min_bet,
        max_bet=spec.max_bet,
        seats=min(SEATS, spec.seats),
    )
    dealer = UserFactory(username=f"dealer_{game}", roles=["dealer"])
    assign(dealer, table, floor.shift, floor.manager)
    return table, dealer


def play_through_the_api(client: Any, table: Any, rng: random.Random) -> int:
    """One round as the dealer's screen plays it: every step a request; returns the round's id."""
    opened = client.post("/api/rounds/", {"table": table.pk}, format="json")
    assert opened.status_code == 201, opened.json()
    rnd = opened.json()
    url = f"/api/rounds/{rnd['id']}"
    players = rnd["state"].get("carried_players")
    carried = [{"players": players}] if players else []
    doc = play_round(get_engine(table.game), rnd["document"]["config"], rng, seats=table.seats, events=carried)
    for bet in doc["bets"]:
        answer = client.post(f"{url}/bets/", bet, format="json")
        assert answer.status_code == 201, answer.json()
    closed = client.post(f"{url}/close-betting/", format="json")
    assert closed.status_code == 200, closed.json()
    for event in doc["events"][len(carried) :]:
        answer = client.post(f"{url}/events/", event, format="json")
        assert answer.status_code == 201, (event, answer.json())
    settled = client.post(f"{url}/settle/", format="json")
    assert settled.status_code == 200, settled.json()
    assert settled.json()["state"]["status"] == "settled"
    return rnd["id"]


def assert_settled_once_as_the_engine_says(rnd: Round) -> dict[str, Any]:
    """The settlement is the engine's reading of the round's document; it is posted once and balances."""
    out = registry.play(round_document(rnd))
    # the copy on the round row is the record: the Bet and RoundEvent rows, in order
    assert round_document(rnd) == round_document(rnd, from_rows=True)
    assert rnd.status == RoundStatus.SETTLED
    assert out["status"] == "settled"
    settlement = Settlement.objects.get(round=rnd)
    assert settlement.house_net == out["house"]["net"]
    assert settlement.commission == out["house"].get("commission", 0)
    assert settlement.rake == out["house"].get("rake", 0)
    lines = {line.bet.client_id: (line.result, line.net, line.commission) for line in settlement.lines.all()}
    assert lines == {r["id"]: (r["result"], r["net"], r.get("commission", 0)) for r in out["bets"]}
    # handle: everything staked, doubles, splits and raises included (the engine's `staked`)
    assert settlement.handle == sum(r.get("staked", r["amount"]) for r in out["bets"]) > 0
    txn = LedgerTransaction.objects.get(source_type="round", source_id=str(rnd.pk))
    entries = list(Entry.objects.filter(transaction=txn).values_list("amount", flat=True))
    assert sum(entries) == 0
    pool = out.get("pool") or {}
    moved = settlement.house_net != 0 or pool.get("carry_out", 0) != pool.get("carry_in", 0)
    assert bool(entries) == moved  # a round that moves no money posts an empty (balanced) transaction
    return out


def assert_carried(game: str, first: dict[str, Any], second: Round) -> None:
    """What the first round hands on is what the second starts with."""
    outcome = first.get("outcome") or {}
    next_game = outcome.get("next_game") if isinstance(outcome, dict) else None
    if isinstance(next_game, dict):  # the Carousel games: every pool's carry and the button
        for name, value in next_game["config"].items():
            assert second.config[name] == value, name
        players = next_game.get("players")
        if any(v for k, v in next_game["config"].items() if k.endswith("carry_in")) and players:
            assert second.events.get(seq=0).payload == {"players": players}
        assert (
            second.config["carry_in"] + sum(second.config.get(k, 0) for k in ("pony_carry_in", "high_card_carry_in"))
            == first["pool"]["carry_out"]
        )
    elif first.get("pool") is not None:  # a pot, the Calcutta pool
        assert second.config["carry_in"] == first["pool"]["carry_out"]
        assert registry.play(round_document(second))["pool"]["carry_in"] == first["pool"]["carry_out"]
    if game == "pontoon":  # the bank passes
        assert second.config["banker_seat"] == outcome["next_banker"]


@pytest.mark.parametrize("game", GAMES)
def test_two_rounds_of_every_game_through_the_services_and_the_api(floor, game):
    # given a table of the game as the demo sets it up, and its dealer
    table, dealer = game_table(floor, game)
    rng = random.Random(f"every-game:{game}")

    # when one round is played through the services and the next through the REST API
    first = simulate_round(table, dealer, rng)
    assert first is not None, f"{game}: the round could not be played (see the log)"
    second_id = play_through_the_api(as_user(dealer), table, rng)

    # then both are settled once, as the engine settles them, and the second starts where the first ended
    second = Round.objects.get(pk=second_id)
    assert (first.number, second.number) == (1, 2)
    out = assert_settled_once_as_the_engine_says(first)
    assert_settled_once_as_the_engine_says(second)
    assert_carried(game, out, second)
    assert Settlement.objects.filter(round__table=table).count() == 2
    assert LedgerTransaction.objects.filter(source_type="round", table=table).count() == 2


# -- what the service had to learn for some games ----------------------------------------------------


def test_blackjack_insurance_taken_by_the_action_is_settled_as_a_bet_of_that_action(floor):
    # given a blackjack round: seat 1 bets 5000 and is dealt 8-9 against the dealer's ace
    table, dealer = game_table(floor, "blackjack")
    client = as_user(dealer)
    rnd = client.post("/api/rounds/", {"table": table.pk}, format="json").json()
    url = f"/api/rounds/{rnd['id']}"
    assert (
        client.post(f"{url}/bets/", {"id": "b1", "seat": 1, "type": "bet", "amount": 5000}, format="json").status_code
        == 201
    )
    client.post(f"{url}/close-betting/", format="json")
    # when the seat insures for half its bet, stands on 17 and the dealer turns a seven (soft 18)
    for event in (
        {"card": "8S"},
        {"card": "AD"},
        {"card": "9C"},
        {"seat": 1, "action": "insurance", "amount": 2500},
        {"action": "peek", "result": "no_blackjack"},
        {"seat": 1, "action": "stand", "hand": 0},
        {"card": "7H"},
    ):
        assert client.post(f"{url}/events/", event, format="json").status_code == 201, event
    settled = client.post(f"{url}/settle/", format="json")

    # then the insurance is a bet of the insurance action, and both are settled
    assert settled.status_code == 200, settled.json()
    insurance = Round.objects.get(pk=rnd["id"]).bets.get(client_id="b1:insurance")
    assert (insurance.seat, insurance.type, insurance.amount, insurance.event_index, insurance.extra) == (
        1,
        "insurance",
        2500,
        3,
        {"insures": "b1"},
    )
    settlement = Settlement.objects.get(round_id=rnd["id"])
    assert (settlement.house_net, settlement.handle) == (7500, 7500)
    assert {line.bet.client_id: (line.result, line.net) for line in settlement.lines.all()} == {
        "b1": ("lose", -5000),
        "b1:insurance": ("lose", -2500),
    }
    assert round_document(Round.objects.get(pk=rnd["id"]))["bets"] == [
        {"id": "b1", "seat": 1, "type": "bet", "amount": 5000}
    ]


def test_chemin_de_fer_takes_the_bank_and_the_puntos_one_by_one_and_refuses_what_breaks_the_coup(floor):
    from tests.tables.helpers import counts

    # given a chemin de fer round open for bets
    table, dealer = game_table(floor, "chemin_de_fer")
    client = as_user(dealer)
    rnd = client.post("/api/rounds/", {"table": table.pk}, format="json").json()
    url = f"/api/rounds/{rnd['id']}"

    def bet(**body: Any) -> Any:
        return client.post(f"{url}/bets/", body, format="json")

    # when a punto comes before the bank, then the bank: each is taken on its own
    assert bet(id="p3", seat=3, type="punto", amount=4000).status_code == 201
    early = client.post(f"{url}/close-betting/", format="json")  # a coup needs its bank
    assert early.status_code == 400
    assert early.json()["error"]["code"] == "bad_bet"
    # (a bet wrong in itself is refused even while the coup is incomplete)
    assert bet(id="p2", seat=2, type="punto", amount=100).json()["error"]["code"] == "under_table_min"
    assert bet(id="bank", seat=1, type="bank", amount=10_000).status_code == 201
    # then a punto that would cover more than the bank is refused, and nothing is written
    before = counts()
    over = bet(id="p2", seat=2, type="punto", amount=7000)
    assert over.status_code == 400
    assert over.json()["error"]["code"] == "over_bank"
    assert counts() == before
    assert bet(id="p2", seat=2, type="punto", amount=6000).status_code == 201
    closed = client.post(f"{url}/close-betting/", format="json")
    assert closed.status_code == 200, closed.json()
    assert closed.json()["state"]["next"]["to"] == "player"
    assert [b["id"] for b in closed.json()["document"]["bets"]] == ["p3", "bank", "p2"]


def test_a_second_chemin_de_fer_bank_is_refused_once_the_bets_make_a_coup(floor):
    # given a coup with its bank and one punto (a complete set)
    table, dealer = game_table(floor, "chemin_de_fer")
    client = as_user(dealer)
    rnd = client.post("/api/rounds/", {"table": table.pk}, format="json").json()
    url = f"/api/rounds/{rnd['id']}"
    for body in (
        {"id": "bank", "seat": 1, "type": "bank", "amount": 10_000},
        {"id": "p2", "seat": 2, "type": "punto", "amount": 5000},
    ):
        assert client.post(f"{url}/bets/", body, format="json").status_code == 201
    # when a second bank is placed
    second = client.post(f"{url}/bets/", {"id": "bank2", "seat": 3, "type": "bank", "amount": 10_000}, format="json")
    # then it is refused: it breaks a set that made a coup
    assert second.status_code == 400
    assert second.json()["error"]["code"] == "bad_bet"
    assert Round.objects.get(pk=rnd["id"]).bets.count() == 2
