"""Alerts for advantage play (docs/game_protection.md): once a slip at a blackjack shoe table is rated, the
player's figures over the last 30 days; a flag whose chance is at or under the casino's alert threshold
(``ADVANTAGE_ALERT_P_PPM`` for the count, ``SIDE_BET_ALERT_P_PPM`` for baccarat's pair and tie bets) raises one
alert for the pit to look at. Nothing is done to the player."""

from __future__ import annotations

import datetime as dt

from accounting.models import Alert
from accounting.services.alerts import alert_raise
from players.advantage import player_advantage, watched_games
from players.conf import knob
from players.models import RatingSlip

LOOK_BACK = dt.timedelta(days=30)


def advantage_check(*, slip: RatingSlip) -> Alert | None:
    """The alert for a rated slip's player, once per slip (its dedupe key), or None when nothing is over the
    threshold."""
    if slip.player is None or slip.table.game not in watched_games():
        return None
    found = player_advantage(slip.player, since=slip.opened_at - LOOK_BACK, until=slip.closed_at)
    threshold = knob("ADVANTAGE_ALERT_P_PPM") / 1_000_000
    seen = []
    if found.pattern is not None and "bets_follow_count" in found.flags and found.pattern.p_value <= threshold:
        seen.append(f"bets follow the count (spread {found.pattern.spread:.1f}x, p={found.pattern.p_value:.1e})")
    if found.backcount is not None and "back_counting" in found.flags and found.backcount.p_value <= threshold:
        seen.append(f"enters at high counts and leaves at low ones (p={found.backcount.p_value:.1e})")
    side_threshold = knob("SIDE_BET_ALERT_P_PPM") / 1_000_000
    for flag, found_bets, what in (("pair_bets_at_positive_ev", found.side_bets, "pair"),
                                   ("tie_bets_at_positive_ev", found.tie_bets, "tie")):
        if found_bets is not None and flag in found.flags and found_bets.p_value <= side_threshold:
            seen.append(f"{found_bets.side_bets_positive} of {found_bets.side_bets} {what} bets where the cards left "
                        f"favoured them, {found_bets.positive_rounds} such rounds in {found_bets.rounds} "
                        f"(p={found_bets.p_value:.1e})")
    if not seen:
        return None
    return alert_raise(
        kind="advantage_play",
        severity="info",
        message=f"Advantage play to watch: {slip.player.name} over {found.rounds + found.baccarat_rounds} rounds at "
                f"{', '.join(found.tables)}: {'; '.join(seen)}. A flag, not an accusation.",
        dedupe_key=f"advantage_play:slip:{slip.pk}",
        table=slip.table,
        shift=slip.shift,
        data={"player": slip.player.pk, "rounds": found.rounds, "baccarat_rounds": found.baccarat_rounds,
              "tables": list(found.tables), "flags": found.flags,
              "bets_p": found.pattern.p_value if found.pattern else None,
              "back_p": found.backcount.p_value if found.backcount else None,
              "pair_p": found.side_bets.p_value if found.side_bets else None,
              "tie_p": found.tie_bets.p_value if found.tie_bets else None},
    )
