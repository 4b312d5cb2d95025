"""What the score-sheet tests share: score a sheet, and catch the refusal of a deal."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from tables.engines.errors import EngineError
from tables.scoring.base import ScoredGame, score_sheet


def scorer(
    games: Mapping[str, ScoredGame], *, players: Sequence[str]
) -> tuple[Callable[..., Any], Callable[..., EngineError]]:
    """``sheet(game, deals)`` scores a sheet of ``games[game]``; ``refused(game, deal, before=())`` is
    the error a deal is refused with after the deals ``before``. Players default to ``players``."""

    def sheet(game: str, deals: list[Any], *, players: Sequence[str] = players, config: Any = None) -> Any:
        return score_sheet(games[game], {"players": list(players), "config": config or {}, "deals": deals})

    def refused(
        game: str, deal: Any, *, players: Sequence[str] = players, config: Any = None, before: Sequence[Any] = ()
    ) -> EngineError:
        with pytest.raises(EngineError) as exc:
            sheet(game, [*before, deal], players=players, config=config)
        return exc.value

    return sheet, refused


def one_game_scorer(
    game: ScoredGame, *, players: Sequence[str]
) -> tuple[Callable[..., Any], Callable[..., EngineError]]:
    """:func:`scorer` for a module of one game: ``sheet(deals)``, ``refused(deal, before=())``."""
    sheet_of, refused_of = scorer({"game": game}, players=players)

    def sheet(deals: list[Any], **kwargs: Any) -> Any:
        return sheet_of("game", deals, **kwargs)

    def refused(deal: Any, **kwargs: Any) -> EngineError:
        return refused_of("game", deal, **kwargs)

    return sheet, refused
