"""The trick-taking games through the card room's service: one tournament sheet per game family, from the
first deal to the game's end (or, for the chips games that have none, to the sheet's close), through the
API — the winner, the sheet's totals and the tournament's standings."""

from __future__ import annotations

from typing import Any

from cardroom.models import ScoreSheet, SheetDeal
from casino.audit.models import AuditRecord

SHEETS = "/api/cardroom/sheets/"
TOURNAMENTS = "/api/cardroom/tournaments/"


def tournament(manager_api, floor, game: str, players: list[str], config: dict | None = None) -> str:
    """A running tournament of ``game`` (free entry) with ``players`` entered; its URL."""
    body: dict[str, Any] = {"name": f"{game} night", "pit": floor.pit.pk, "game": game, "entry_fee": 0}
    if config is not None:
        body["config"] = config
    answer = manager_api.post(TOURNAMENTS, body, format="json")
    assert answer.status_code == 201, answer.json()
    url = f"{TOURNAMENTS}{answer.json()['id']}"
    for p in players:
        assert manager_api.post(f"{url}/entries/", {"player": p}, format="json").status_code == 201
    assert manager_api.post(f"{url}/start/", format="json").status_code == 200
    return url


def play(dealer_api, manager_api, floor, game: str, players: list[str], deals: list[dict], config=None, waiting=()):
    """Open a sheet of ``game`` in a tournament and enter ``deals``; the last answer and the tournament URL.
    ``waiting``: more entrants, not seated at the sheet."""
    url = tournament(manager_api, floor, game, [*players, *waiting], config)
    opened = dealer_api.post(
        SHEETS, {"table": floor.table.pk, "players": players, "tournament": int(url.rsplit("/", 1)[1])}, format="json"
    )
    assert opened.status_code == 201, opened.json()
    sheet = opened.json()
    assert (sheet["game"], sheet["status"]) == (game, "open")
    answer = None
    for entry in deals:
        answer = dealer_api.post(f"{SHEETS}{sheet['id']}/deals/", {"entry": entry}, format="json")
        assert answer.status_code == 201, answer.json()
    assert answer is not None
    return answer.json(), url


def standings(manager_api, url: str) -> list[tuple]:
    rows = manager_api.get(f"{url}/").json()["detail"]["standings"]
    return [(r["place"], r["player"], r["wins"], r["points"], r["sheets"]) for r in rows]


def test_euchre_partnerships_to_five(floor, dealer_api, manager_api):
    # given a four-hand Euchre tournament, partners opposite: ann & cy against bob & dee
    players = ["ann", "bob", "cy", "dee"]
    deals = [
        {"maker": "bob", "tricks": 3},  # bob & dee 1
        {"maker": "ann", "alone": True, "tricks": 5},  # a lone march: ann & cy 4
        {"maker": "dee", "tricks": {"dee": 2, "ann": 3}},  # bob & dee euchred: ann & cy 2
    ]
    # when the deals are entered
    done, url = play(dealer_api, manager_api, floor, "euchre", players, deals)
    # then ann & cy reach 6 and win the game
    assert done["totals"] == {"ann & cy": 6, "bob & dee": 1}
    assert (done["status"], done["winner"], done["deals"]) == ("finished", "ann & cy", 3)
    assert done["state"]["deals"][2]["notes"] == ["bob & dee are euchred: ann & cy score 2", "ann & cy win the game"]
    # and the standings are the two sides, ranked: no row for a partner on his own
    assert standings(manager_api, url) == [(1, "ann & cy", 1, 6, 1), (2, "bob & dee", 0, 1, 1)]


def test_five_hundred_partnerships_rank_the_sides_and_list_entrants_still_to_play_unplaced(
    floor, dealer_api, manager_api
):
    # given a four-hand Five Hundred tournament, eve and fay entered but not yet seated
    players = ["ann", "bob", "cy", "dee"]
    deals = [
        {"contractor": "ann", "bid": "8C", "tricks": 6},  # ann & cy set: -260, bob & dee 40
        {"contractor": "cy", "bid": "6C", "tricks": 5},  # ann & cy set: -60, bob & dee 50
        {"contractor": "bob", "bid": "10NT", "tricks": 10},  # bob & dee 520
    ]
    # when the game is played to its end
    done, url = play(dealer_api, manager_api, floor, "five_hundred", players, deals, waiting=["eve", "fay"])
    assert done["totals"] == {"ann & cy": -320, "bob & dee": 610}
    assert (done["status"], done["winner"]) == ("finished", "bob & dee")
    # then the sides that played are ranked, ann & cy second at -320, and the two still to play follow
    # unplaced (as 0-point rows they would have come ahead of ann & cy)
    assert standings(manager_api, url) == [
        (1, "bob & dee", 1, 610, 1),
        (2, "ann & cy", 0, -320, 1),
        (None, "eve", 0, 0, 0),
        (None, "fay", 0, 0, 0),
    ]


LONGEST_NAMES = [
    "Alexandrina Montgomery-Fitzwilliam Bryce",
    "Bartholomew Featherstone-Cholmondeley Jr",
    "Cordelia Wolfeschlegel Abernathy-Rexford",
    "Demetrius Vanderbilt-Oppenheimer Nowicki",
    "Evangelina Rosalind Marchbanks-Delacroix",
    "Florentino Maximiliano Castellanos-Ortiz",
]


def test_six_hand_five_hundred_with_the_longest_names_finishes_with_its_winner(floor, dealer_api, manager_api):
    # given a six-hand Five Hundred tournament, partnerships of three, every name the 40 characters allowed
    players = LONGEST_NAMES
    assert {len(p) for p in players} == {40}
    odd, even = " & ".join(players[0::2]), " & ".join(players[1::2])
    assert (len(odd), len(even)) == (126, 126)
    deals = [
        {"contractor": players[0], "bid": "7H", "tricks": 5},  # odd set: -200, even 50
        {"contractor": players[1], "bid": "10NT", "tricks": 10},  # even 520: 570, past 500
    ]
    # when the game is played to its end (the winning deal used to be refused: the winner did not fit)
    done, url = play(dealer_api, manager_api, floor, "five_hundred", players, deals)
    # then the side of the second, fourth and sixth players wins, and the sheet says so
    assert done["totals"] == {odd: -200, even: 570}
    assert (done["status"], done["winner"], done["deals"]) == ("finished", even, 2)
    stored = ScoreSheet.objects.get(pk=done["id"])
    assert (stored.status, stored.winner) == ("finished", even)
    assert standings(manager_api, url) == [(1, even, 1, 570, 1), (2, odd, 0, -200, 1)]


def test_euchre_an_impossible_deal_is_a_400_naming_the_field_and_nothing_is_written(floor, dealer_api, manager_api):
    # given a Railroad Euchre sheet with one (passed) deal
    done, _ = play(dealer_api, manager_api, floor, "railroad_euchre", ["ann", "bob", "cy", "dee"], [{"passed": True}])
    sheet = ScoreSheet.objects.get(pk=done["id"])
    before = (SheetDeal.objects.count(), AuditRecord.objects.count(), sheet.totals, sheet.entries)
    # when a deal whose tricks do not add up to five is entered
    bad = dealer_api.post(
        f"{SHEETS}{sheet.pk}/deals/", {"entry": {"maker": "ann", "tricks": {"ann": 2, "bob": 2}}}, format="json"
    )
    # then it is a 400 naming the deal and the field, and nothing changed
    assert bad.status_code == 400
    assert bad.json()["error"] == {
        "code": "tricks_unaccounted",
        "event": 1,
        "field": "tricks",
        "message": "Deal 2: 4 tricks entered, the deal has 5",  # in the reader's words: the field is the pointer
        "params": {"n": 4, "high": 5},
        "request_id": bad["X-Request-ID"],
    }
    sheet.refresh_from_db()
    assert (SheetDeal.objects.count(), AuditRecord.objects.count(), sheet.totals, sheet.entries) == before


def test_five_hundred_three_hand_to_500(floor, dealer_api, manager_api):
    # given a three-hand Five Hundred tournament that plays nullo
    players = ["ann", "bob", "cy"]
    deals = [
        {"contractor": "bob", "bid": "7H", "tricks": {"bob": 7, "ann": 2, "cy": 1}},  # bob 200, ann 20, cy 10
        {"contractor": "cy", "bid": "nullo", "tricks": {"cy": 1, "ann": 5, "bob": 4}},  # cy -250, ann and bob 10
        {"contractor": "ann", "bid": "10NT", "tricks": {"ann": 10}},  # ann 520
    ]
    # when the deals are entered
    done, url = play(dealer_api, manager_api, floor, "five_hundred", players, deals, config={"nullo": True})
    # then ann's 10NT takes her past 500: she wins, and leads the standings
    assert done["totals"] == {"ann": 550, "bob": 210, "cy": -240}
    assert (done["status"], done["winner"]) == ("finished", "ann")
    assert done["config"]["bid_values"]["10NT"] == 520
    assert standings(manager_api, url) == [(1, "ann", 1, 550, 1), (2, "bob", 0, 210, 1), (3, "cy", 0, -240, 1)]


def test_pool_nap_is_closed_when_the_players_stop(floor, dealer_api, manager_api):
    # given a Pool Nap tournament
    players = ["ann", "bob", "cy", "dee"]
    deals = [
        {"bidder": "ann", "bid": "nap", "tricks": 4},  # fails: pays each 5 and doubles the pool
        {"bidder": "bob", "bid": "nap", "tricks": 5},  # makes it: 10 from each and the pool of 9
    ]
    # when the deals are entered
    done, url = play(dealer_api, manager_api, floor, "pool_nap", players, deals)
    # then the pool is empty, and the game, which has no end of its own, goes on
    assert done["totals"] == {"ann": -30, "bob": 42, "cy": -6, "dee": -6}
    assert (done["status"], done["winner"]) == ("open", "")
    # when the players stop, the sheet is closed: bob, most chips, wins
    closed = dealer_api.post(f"{SHEETS}{done['id']}/close/", {"reason": "last orders"}, format="json")
    assert closed.status_code == 200
    assert (closed.json()["status"], closed.json()["winner"]) == ("closed", "bob")
    assert standings(manager_api, url) == [
        (1, "bob", 1, 42, 1),
        (2, "cy", 0, -6, 1),
        (2, "dee", 0, -6, 1),
        (4, "ann", 0, -30, 1),
    ]


def test_forty_five_to_45(floor, dealer_api, manager_api):
    # given a two-hand Forty-Five tournament
    players = ["ann", "bob"]
    deals = [{"tricks": {"ann": 5}}] * 3 + [{"tricks": {"bob": 3, "ann": 2}}] + [{"tricks": {"ann": 4, "bob": 1}}] * 3
    # when the deals are entered
    done, url = play(dealer_api, manager_api, floor, "forty_five", players, deals)
    # then ann's 45 is game
    assert (done["totals"], done["winner"], done["status"]) == ({"ann": 45, "bob": 5}, "ann", "finished")
    assert standings(manager_api, url) == [(1, "ann", 1, 45, 1), (2, "bob", 0, 5, 1)]


def test_auction_pitch_to_seven_with_the_winners_collection(floor, dealer_api, manager_api):
    # given an Auction Pitch tournament
    players = ["ann", "bob", "cy"]
    deals = [
        {"pitcher": "bob", "bid": 2, "high": "bob", "low": "bob", "jack": "bob", "game": "bob"},
        {"pitcher": "cy", "bid": 3, "high": "cy", "low": "ann", "jack": None, "game": "ann"},  # cy set back 3
        {"pitcher": "bob", "bid": 3, "high": "bob", "low": "bob", "jack": "cy", "game": "bob"},
    ]
    # when the deals are entered
    done, url = play(dealer_api, manager_api, floor, "auction_pitch", players, deals)
    # then bob, the pitcher, reaches 7 and collects 1 from ann and 2 from cy (in the hole)
    assert done["totals"] == {"ann": 2, "bob": 7, "cy": -2}
    assert (done["status"], done["winner"]) == ("finished", "bob")
    last = done["state"]["deals"][-1]
    assert last["notes"][-1] == "bob collects 3: 1 from ann, 2 from cy"
    assert last["extra"]["settlement"] == {"bob": 3, "ann": -1, "cy": -2}
    assert done["state"]["state"] == {"set_back": {"ann": 0, "bob": 0, "cy": 1}}
    assert standings(manager_api, url) == [(1, "bob", 1, 7, 1), (2, "ann", 0, 2, 1), (3, "cy", 0, -2, 1)]


def test_loo_is_closed_when_the_players_stop(floor, dealer_api, manager_api):
    # given a Loo tournament of five
    players = ["ann", "bob", "cy", "dee", "eve"]
    deals = [
        {"tricks": {"bob": 2, "cy": 1}},  # a single: ann, dee and eve looed
        {"stood": ["bob", "cy"], "tricks": {"cy": 3}},  # a double of 12 (bob deals): cy takes it, bob looed
    ]
    # when the deals are entered
    done, url = play(dealer_api, manager_api, floor, "loo", players, deals)
    # then
    assert done["totals"] == {"ann": -6, "bob": -4, "cy": 13, "dee": -3, "eve": -3}
    assert sum(done["totals"].values()) == -3  # bob's loo is in the next pot
    # when the players stop, cy, most chips, wins
    closed = dealer_api.post(f"{SHEETS}{done['id']}/close/", {}, format="json").json()
    assert (closed["status"], closed["winner"]) == ("closed", "cy")
    assert standings(manager_api, url)[0] == (1, "cy", 1, 13, 1)


def test_preference_is_closed_when_the_players_stop(floor, dealer_api, manager_api):
    # given a Preference tournament at 1 chip ante, 3 won or lost
    players = ["ann", "bob", "cy"]
    deals = [
        {"bidder": "ann", "suit": "hearts", "tricks": 7},
        {"bidder": "bob", "chips": {"bob": 2, "cy": 1}, "suit": "spades", "tricks": 6},
    ]
    # when the deals are entered
    done, url = play(
        dealer_api, manager_api, floor, "preference", players, deals, config={"ante": 1, "win": 3, "lose": 3}
    )
    # then
    assert done["totals"] == {"ann": 1, "bob": -1, "cy": -3}
    # when the players stop, ann, most chips, wins
    closed = dealer_api.post(f"{SHEETS}{done['id']}/close/", {}, format="json").json()
    assert (closed["status"], closed["winner"]) == ("closed", "ann")
    assert standings(manager_api, url) == [(1, "ann", 1, 1, 1), (2, "bob", 0, -1, 1), (3, "cy", 0, -3, 1)]


def test_every_trick_game_is_offered_with_its_settings(floor, dealer_api):
    # when the games are listed
    games = {g["game"]: g for g in dealer_api.get("/api/cardroom/games/").json()}
    trick_games = {
        "euchre": 5,
        "railroad_euchre": 5,
        "three_hand_euchre": 5,
        "two_hand_euchre": 5,
        "auction_euchre": None,
        "call_ace_euchre": 5,
        "cincinnati_euchre": 32,
        "five_hundred": 500,
        "forty_five": 45,
        "auction_forty_fives": 120,
        "auction_pitch": 7,
        "pitch": 7,
        "auction_pitch_joker": 10,
        "sellout": 7,
        "cinch": 51,
        "seven_up": 7,
        "california_jack": 10,
        "shasta_sam": 10,
    }
    # then every trick-taking game is there, with the rule book's target score (none for the chips games)
    for name, target in trick_games.items():
        settings = {s["name"]: s["default"] for s in games[name]["settings"]}
        assert settings["game_to"] == target, name
    for name in ("napoleon", "pool_nap", "peep_nap", "sir_garnet", "spoil_five", "loo", "preference"):
        assert "game_to" not in {s["name"] for s in games[name]["settings"]}, name
        assert games[name]["lowest_wins"] is False
