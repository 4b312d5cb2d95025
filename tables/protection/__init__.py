"""Game protection from the cards the dealers enter: pure Python, no Django (docs/game_protection.md).

* :mod:`count` — the Hi-Lo running and true count and the penetration before each round of a shoe;
* :mod:`stats` — the significance measures every flag shares (rank correlation, normal, binomial and
  Poisson tails);
* :mod:`betting` — how a seat's initial bet moves with the true count, and entering or leaving at extreme
  counts (back-counting);
* :mod:`side_bets` — baccarat's pair bets' expected value from the cards left, and side bets that cluster
  where it is positive;
* :mod:`skill` — each blackjack decision against basic strategy, its cost in expected value, and the
  player's measured edge;
* :mod:`dealers` — each dealer's pace, undos, voids, corrections and withdrawn bets against the pit's others.

A flag here is a figure for the pit to watch, never an accusation.
"""
