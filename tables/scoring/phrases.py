"""The score sheets' words as message ids: each rule setting's label and help, each choice, each line of a
chart, and each phrase of a deal's summary (a :class:`Note`), marked ``N_`` for the catalogs.

The games (pure Python, no Django) keep saying what they say in English (``Setting.help``, ``DealScore.notes``);
the card room's screens (cardroom/wording.py) show instead the messages below, translated into the reader's
language, with the facts filled in in the reader's words (players by name, cards and suits as the card room says
them, numbers as the locale writes them). ``make locale`` extracts every ``N_("…")`` (``--keyword=N_``);
``tests/scoring/test_phrases.py`` fails on a setting, choice or chart line of any game without its message here.

A note is a ``str`` (the English, as before: the sheet's tests and API read it) that also carries its template
and its facts:

>>> n = note(N_("%(who)s shot the moon"), who="ann")
>>> n, n.template, n.params
('ann shot the moon', '%(who)s shot the moon', {'who': 'ann'})
>>> note(N_("%(who)s take the pot of %(pot)s"), who=["ann", "bob"], pot=12)
'ann and bob take the pot of 12'
>>> phrase_json(n)
{'id': '%(who)s shot the moon', 'params': {'who': 'ann'}}
"""

from __future__ import annotations

from typing import Any

from tables.scoring.refusals import N_

Json = dict[str, Any]


# -- the rule settings ----------------------------------------------------------------------------------

# a setting's name → its label (the same rule has the same name in every game)
LABELS: dict[str, str] = {
    "all_melded_bonus": N_("All-melded bonus"),
    "ante": N_("Ante"),
    "bid_values": N_("Bid values"),
    "box_bonus": N_("Box bonus"),
    "card_points": N_("Card points"),
    "defend_alone": N_("Defending alone"),
    "defenders_score": N_("Defenders score"),
    "game_bonus": N_("Game bonus"),
    "game_to": N_("Game to"),
    "hands": N_("Hands"),
    "knock_below": N_("Knock below"),
    "laps": N_("Laps"),
    "lose": N_("Lose"),
    "loo": N_("Loo"),
    "lowest_bid": N_("Lowest bid"),
    "match": N_("Match"),
    "moon": N_("Shooting the moon"),
    "nullo": N_("Nullo"),
    "passed_deal": N_("Passed deal"),
    "peep": N_("Peep"),
    "plus_card": N_("Plus card"),
    "pool": N_("Pool"),
    "queen_scores": N_("Queen of spades scores"),
    "scoring": N_("Scoring"),
    "setback_payments": N_("Setback payments"),
    "settlement": N_("Settlement"),
    "sir_garnet": N_("Sir Garnet"),
    "slam": N_("Slam"),
    "stakes": N_("Stakes"),
    "undercut_bonus": N_("Undercut bonus"),
    "wellington_blucher": N_("Wellington and Blücher"),
    "win": N_("Win"),
}

# a setting's help as the game gives it (``Setting.help``) → the help in a reader's words (no codes)
HELPS: dict[str, str] = {
    "the first side to reach this score wins: 5, 7 or 10, as agreed":
        N_("the first side to reach this score wins: 5, 7 or 10, as agreed"),
    "the first side to this score wins": N_("the first side to reach this score wins"),
    "the first to this score wins": N_("the first to reach this score wins"),
    "the rule book's variation: the winner also collects a point from each player for each time he was set back":
        N_("the rule book's variation: the winner also collects a point from each player for each time he was "
           "set back"),
    "the game ends when a player reaches this score (some play to 50)":
        N_("the game ends when a player reaches this score (some play to 50)"),
    "shooting the moon: add_to_others (the rule book: each opponent scores the deal's points, the shooter none), "
    "subtract_from_self (the shooter deducts them), none (no such rule)":
        N_("when one player takes every point: add to others (the rule book: each opponent scores the deal's "
           "points, the shooter none), subtract from self (the shooter deducts them), or none (no such rule)"),
    "a player may knock with less than this much deadwood": N_("a player may knock with less than this much deadwood"),
    "bonus for a player who undercuts the knocker": N_("bonus for a player who undercuts the knocker"),
    "bonus for a winner who melded every card (no deadwood)":
        N_("bonus for a winner who melded every card (no deadwood)"),
    "the game ends when a player reaches this score": N_("the game ends when a player reaches this score"),
    "bonus for the player who wins the game": N_("bonus for the player who wins the game"),
    "bonus to every player, at the end of the game, for each hand they won":
        N_("bonus to every player, at the end of the game, for each hand they won"),
    "the side that did not bid scores the tricks it took (the rule book: points are the tricks a partnership "
    "takes); false: only the bidding side scores":
        N_("the side that did not bid scores the tricks it took (the rule book: points are the tricks a "
           "partnership takes); if not ticked, only the bidding side scores"),
    "play to this many points (none: until the sheet is closed)":
        N_("play to this many points (empty: until the sheet is closed)"),
    "play this many hands (an even number offsets who plays first)":
        N_("play this many hands (an even number offsets who plays first)"),
    "the queen of spades counts 13 (usually it is not scored)":
        N_("the queen of spades counts 13 (usually it is not scored)"),
    "game: the sheet is one game; rubber: the first side to win two games wins the rubber, each game counting 3 "
    "rubber points if the losers scored 0 or fewer, 2 if 1 or 2, 1 if 3 or more; the margin is 2 plus the "
    "winners' rubber points less the losers'":
        N_("a game: the sheet is one game; a rubber: the first side to win two games wins the rubber, each game "
           "counting 3 rubber points if the losers scored 0 or fewer, 2 if 1 or 2, 1 if 3 or more; the margin is "
           "2 plus the winners' rubber points less the losers'"),
    "the first to this score wins (500; some play 1,000 or 1,500, with card_points)":
        N_("the first to reach this score wins (500; some play 1,000 or 1,500, with card points)"),
    "what each contract is worth: the Avondale schedule (the rule book's recommendation; its table is missing "
    "from the rule book's text); override lines for the Original or Inverted schedule":
        N_("what each contract is worth: the Avondale schedule (the rule book's recommendation; its table is "
           "missing from the rule book's text); change lines for the Original or Inverted schedule"),
    "the bid Nullo (lose every trick at no trump, 250) is allowed":
        N_("the bid Nullo (lose every trick at no trump, 250) is allowed"),
    "redeal: a deal all pass is abandoned without a score; no_trump: it is played at no trump, each for himself, "
    "10 a trick":
        N_("redeal: a deal all pass is abandoned without a score; no trump: it is played at no trump, each for "
           "himself, 10 a trick"),
    "also score the cards won: ace 1, ten and face cards 10, lower cards their pips, joker 0 (for games to 1,000 "
    "or 1,500)":
        N_("also score the cards won: ace 1, ten and face cards 10, lower cards their pips, joker 0 (for games "
           "to 1,000 or 1,500)"),
    "five_ten: 3 or 4 tricks score 5, five tricks 10; difference: each trick 5, the side with fewer tricks' count "
    "deducted (3 tricks 5, 4 tricks 15, 5 tricks 25)":
        N_("five and ten: 3 or 4 tricks score 5, five tricks 10; difference: each trick 5, the side with fewer "
           "tricks' count deducted (3 tricks 5, 4 tricks 15, 5 tricks 25)"),
    "sheet: points on a score sheet, game to game_to; chips: each pays a chip a point into the pot and the lowest "
    "score of the deal takes it; sweepstakes: only a player who scores zero takes the pot (the rule book's "
    "scoring variations 1 and 2)":
        N_("sheet: points on a score sheet, played to the score of \"game to\"; chips: each pays a chip a point "
           "into the pot and the lowest score of the deal takes it; sweepstakes: only a player who scores zero "
           "takes the pot (the rule book's scoring variations 1 and 2)"),
    "howell: chips by the Howell method (the rule book's usual settlement); sheet: points on a score sheet, game "
    "to game_to":
        N_("Howell: chips by the Howell method (the rule book's usual settlement); sheet: points on a score "
           "sheet, played to the score of \"game to\""),
    "chips the dealer puts in the pot every deal (a multiple of 3)":
        N_("chips the dealer puts in the pot every deal (a multiple of 3)"),
    "chips a looed player pays into the next pot (a multiple of 3)":
        N_("chips a looed player pays into the next pot (a multiple of 3)"),
    "chips the bidder collects from (wins) or pays to (loses) each other player: a bid of 1 to 4 tricks per_trick "
    "a trick either way; the rule book's table prints 11 and Nap 15 to lose, read as 1 and 5":
        N_("chips the bidder collects from (wins) or pays to (loses) each other player: a bid of 1 to 4 tricks "
           "the amount per trick, either way; the rule book's table prints 11 and Nap 15 to lose, read as 1 and 5"),
    "Nap may be overcalled by Wellington, and that by Blücher":
        N_("Nap may be overcalled by Wellington, and that by Blücher"),
    "the fewest tricks a player may bid": N_("the fewest tricks a player may bid"),
    "Pool Nap: a pool won by the first Nap made; a failed Nap doubles it; a revoke pays 5 chips and a lead out of "
    "turn 3 into it":
        N_("Pool Nap: a pool won by the first Nap made; a failed Nap doubles it; a revoke pays 5 chips and a "
           "lead out of turn 3 into it"),
    "pool games: chips each player puts in to begin a pool, and the dealer adds every deal after":
        N_("pool games: chips each player puts in to begin a pool, and the dealer adds every deal after"),
    "Peep Nap: a widow card; a player may peep at it for one chip to the pool":
        N_("Peep Nap: a widow card; a player may peep at it for one chip to the pool"),
    "Sir Garnet: an extra hand; the player who takes it up must bid Nap and pays double if he fails":
        N_("Sir Garnet: an extra hand; the player who takes it up must bid Nap and pays double if he fails"),
    "the plus card: the ten of diamonds, or the jack in some localities":
        N_("the plus card: the ten of diamonds, or the jack in some localities"),
    "chips each player puts in the pot every deal": N_("chips each player puts in the pot every deal"),
    "chips paid from the pot to a bidder who takes six tricks or more (at most what the pot holds)":
        N_("chips paid from the pot to a bidder who takes six tricks or more (at most what the pot holds)"),
    "chips a bidder who fails pays into the pot": N_("chips a bidder who fails pays into the pot"),
    "an opponent of a lone player may defend alone: euchring him alone counts 4":
        N_("an opponent of a lone player may defend alone: euchring him alone counts 4"),
    "in a rubber, points scored past game are credited toward the next game":
        N_("in a rubber, points scored past game are credited toward the next game"),
    "in a rubber, a side that reaches game before the opponents have scored is credited with two games":
        N_("in a rubber, a side that reaches game before the opponents have scored is credited with two games"),
    "chips each player puts in the pot before every hand": N_("chips each player puts in the pot before every hand"),
}

# a choice's value → its words (cards, such as Omnibus Hearts' plus card, are shown as cards)
CHOICES: dict[str, str] = {
    "add_to_others": N_("Add to others"),
    "subtract_from_self": N_("Subtract from self"),
    "none": N_("None"),
    "game": N_("Game"),
    "rubber": N_("Rubber"),
    "redeal": N_("Redeal"),
    "no_trump": N_("No trump"),
    "five_ten": N_("Five and ten"),
    "difference": N_("Difference"),
    "sheet": N_("Sheet"),
    "chips": N_("Chips"),
    "sweepstakes": N_("Sweepstakes"),
    "howell": N_("Howell"),
}

# a chart's line → its words (Five Hundred's contracts, such as ``7NT``, are worded as bids)
CHART_LINES: dict[str, str] = {
    "per_trick": N_("Per trick"),
    "nap_win": N_("Nap won"),
    "nap_lose": N_("Nap lost"),
    "wellington_win": N_("Wellington won"),
    "wellington_lose": N_("Wellington lost"),
    "blucher_win": N_("Blücher won"),
    "blucher_lose": N_("Blücher lost"),
    "nullo": N_("Nullo"),
}

# a bid by its name (Cincinnati Euchre's moons); Nap, Wellington and Blücher are the bids' own names
BIDS: dict[str, str] = {
    "moon": N_("moon"), "double_moon": N_("double moon"), "triple_moon": N_("triple moon"),
    "quadruple_moon": N_("quadruple moon"),
}

# a contract's suit (Five Hundred's ``7NT``, ``6S``): "%(n)s %(suit)s", the suit in words
CONTRACT = N_("%(n)s %(suit)s")
BID_SUITS: dict[str, str] = {
    "S": N_("spades"), "C": N_("clubs"), "D": N_("diamonds"), "H": N_("hearts"), "NT": N_("no trump"),
}


# -- a deal's summary ---------------------------------------------------------------------------------------


class Note(str):
    """One phrase of a deal's summary: the English (the ``str``) and the template and facts it is made of."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, params: dict[str, Any], text: str | None = None) -> Note:
        self = super().__new__(cls, template % {k: english(v) for k, v in params.items()} if text is None else text)
        self.template = template
        self.params = params
        return self


def english(value: Any) -> str:
    """A fact as the English note writes it: names joined with "and"."""
    if isinstance(value, list | tuple):
        return " and ".join(str(v) for v in value)
    return str(value)


def note(template: str, **params: Any) -> Note:
    """A deal's phrase from its ``N_``-marked template (``%(name)s`` placeholders) and its facts: players or
    sides (a name, or a list of names), numbers, a suit's name (``suit``), a card (``card``)."""
    return Note(template, params)


# the parts of a list fact (a note's ``awards`` or ``pays``), each worded by the card room
AWARD = N_("%(point)s %(who)s")  # one point of the All Fours family and who won it: "high ann"
PAYMENT = N_("%(n)s from %(who)s")  # chips one player pays the winner: "2 from ann"


def awards_note(awards: dict[str, Any]) -> Note:
    """Who won each point of an All Fours deal (``{"high": "ann", "jack": None}``): "high ann, jack bob" in
    English, the points in words for the reader (the fact ``awards``: the points won, in the counting order)."""
    won = {name: side for name, side in awards.items() if side is not None}
    if not won:
        return note(N_("no points"))
    return Note(N_("points won: %(awards)s"), {"awards": won},
                ", ".join(f"{name} {side}" for name, side in won.items()))


def collects_note(winner: str, pays: dict[str, int]) -> Note:
    """What the winner of a game collects from each player (the fact ``pays``: player → chips)."""
    total = sum(pays.values())
    return Note(N_("%(who)s collects %(n)s: %(pays)s"), {"who": winner, "n": total, "pays": dict(pays)},
                f"{winner} collects {total}: " + ", ".join(f"{v} from {p}" for p, v in pays.items()))


def pot_note(takers: list[str], pot: int, left: int, one: str, more: str, one_left: str, more_left: str) -> Note:
    """Who takes (or shares) a pot, and what is left in it: the template for one taker or more, with or without
    chips left."""
    if left:
        return note(one_left if len(takers) == 1 else more_left, who=list(takers), pot=pot, left=left)
    return note(one if len(takers) == 1 else more, who=list(takers), pot=pot)


def phrase_json(text: str) -> Json:
    """A note as the sheet keeps it: its message id and params (a note without one: ``{"text"}``)."""
    if isinstance(text, Note):
        return {"id": text.template, "params": {k: list(v) if isinstance(v, tuple) else v
                                                for k, v in text.params.items()}}
    return {"text": str(text)}
