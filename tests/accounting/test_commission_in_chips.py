"""Commission and rake in what the tray holds (docs/accounting.md, "Commission and rake in chips"): a table's
``chip`` rounds what the engine takes to whole chips of it, in the direction of the game's rounding setting;
the demo's tables set it to the house's smallest chip, so the demo's correctly dealt day reconciles to zero
everywhere but at its one planned shortage (asserted on the demo's day in test_figures_agree.py)."""

from __future__ import annotations

import pytest

from tables.demo import smallest_chip, with_chip
from tables.engines.money import Rounding, percent_of


def test_percent_of_rounds_to_whole_chips_in_the_rounding_direction():
    # 5 % of 25.00 is 1.25: to the minor unit as before; to a 1.00 chip, down 1.00 or up 2.00
    assert percent_of(2500, 500, Rounding.DOWN) == 125
    assert (percent_of(2500, 500, Rounding.DOWN, 100), percent_of(2500, 500, Rounding.UP, 100)) == (100, 200)
    assert percent_of(2500, 500, Rounding.HALF_UP, 100) == 100  # 1.25 chips → 1
    assert percent_of(2000, 500, Rounding.DOWN, 100) == 100  # exactly one chip: nothing rounded
    with pytest.raises(ValueError, match="unit must be 1 or more"):
        percent_of(2500, 500, Rounding.DOWN, 0)


def test_the_demo_sets_each_rounding_games_chip_to_the_smallest_chip(settings):
    settings.CROUPIER = {**settings.CROUPIER, "CHIP_DENOMINATIONS": [2500, 500, 10000]}
    assert smallest_chip() == 500
    assert with_chip("in_between", {"ante": 500})["chip"] == 500
    assert with_chip("pai_gow_poker", {})["chip"] == 500
    assert with_chip("carousel", {"chip": 100})["chip"] == 100  # a table's own chip stays
    assert "chip" not in with_chip("blackjack", {})  # a game that rounds nothing to chips has no such rule
