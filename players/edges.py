"""House edges for ratings: the engine's edge per bet type for a game and its rules, computed once.

Accounting keeps the computed edges in :class:`accounting.models.HouseEdgeCache` (some engines
simulate for seconds); this adds a per-process memo so the pit dashboard, which rates every open
slip every few seconds, reads the database for an edge once per game and rules. A request never
computes an edge: it reads the cache (``compute=False``) and says the theoretical win is pending;
the jobs (``players.warm_house_edge`` when a slip opens, ``players.rate_slip``) compute it.
"""

from __future__ import annotations

import threading
from fractions import Fraction
from typing import Any

from accounting.hold import _edge_value, _key, house_edges, rules_of  # the cache's own key and text
from accounting.models import HouseEdgeCache
from tables.engines.errors import EngineError
from tables.engines.registry import get_engine

Edges = dict[str, Fraction | float]
_memo: dict[tuple[str, str], Edges] = {}
_lock = threading.Lock()
MEMO_MAX = 512


def edges_for(game: str, config: dict[str, Any], *, compute: bool) -> Edges | None:
    """Bet type → edge; ``{}`` when the engine has none; None when not cached and ``compute`` is off.

    The rules are resolved first (every setting, defaults filled in), as a round stores them, so a
    table's own config and its rounds' find the same cached row.
    """
    try:
        config = get_engine(game).resolve_config(config)
    except EngineError:
        pass  # an unknown game or bad rules: keyed as given (house_edges stores the engine's refusal)
    key = (game, _key(rules_of(config)))
    found = _memo.get(key)
    if found is not None:
        return found
    if compute:
        computed = house_edges(game, config)
        if computed is None:
            return None
        edges = computed
    else:
        rows = HouseEdgeCache.objects.filter(game=game, config_key=key[1]).values_list("rows", flat=True).first()
        if rows is None:
            return None
        edges = {}
        for row in rows:
            if "bet" in row and row["bet"] not in edges:
                edges[row["bet"]] = _edge_value(row["edge"])
    with _lock:
        if len(_memo) >= MEMO_MAX:
            _memo.clear()
        _memo[key] = edges
    return edges


def forget() -> None:
    """Empty the memo (tests; after the cache table is changed by hand)."""
    with _lock:
        _memo.clear()


def exact(edge: Fraction | float) -> Fraction:
    """An edge as an exact fraction: a simulated (float) edge is taken at its exact binary value."""
    return edge if isinstance(edge, Fraction) else Fraction(edge)
