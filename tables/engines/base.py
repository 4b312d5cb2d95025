"""The engine interface every game follows.

An engine is a pure function of a round document (docs/round_format.md): it reads the game's
config, the bets and the events so far, and returns what happened — ``status``, ``next``,
``hands``, ``outcome``, per-bet results and the house's take — or refuses the whole document
with an :class:`EngineError`. It never touches a database, a clock or a random source
(simulations take a seeded ``random.Random``).

Each engine module defines ``ENGINE``, an instance of a :class:`Engine` subclass that declares:

* ``settings``: the house-variable rules, each a :class:`Setting` with the default docs/games.md
  names; unknown settings and wrong types are refused;
* ``bet_types``: the bets the layout takes, each a :class:`BetSpec` naming its extra fields;
* ``profile``: what kind of game it is (:class:`~tables.engines.profile.GameProfile`: family, deck,
  bets before and during the deal, one-per-seat rules, pools, bank, turn order);
* ``play(round)``: the whole rule book.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any, ClassVar, TypeGuard

from tables.engines.errors import BetSetError, EngineError
from tables.engines.inputs import BetField, actions_input, card_input
from tables.engines.money import Rounding
from tables.engines.profile import Bank, GameProfile, OpenBet, TableNow, TurnOrder
from tables.engines.result import Line, RoundResult, Status, round_result
from tables.engines.speech import Speech, said, speech

Json = dict[str, Any]


class SettingKind(StrEnum):
    INT = "int"
    BOOL = "bool"
    CHOICE = "choice"
    CHART = "chart"  # a mapping of names to integer pay odds ("to 1"), e.g. a pay chart


@dataclass(frozen=True, slots=True)
class Setting:
    """One rule a house may vary, with its default and its bounds."""

    name: str
    kind: SettingKind
    default: Any
    help: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()

    def clean(self, value: Any) -> Any:
        where = f"config.{self.name}"
        if self.kind is SettingKind.BOOL:
            if not isinstance(value, bool):
                raise EngineError("bad_config", f"{where} must be true or false", field=where)
            return value
        if self.kind is SettingKind.INT:
            if value is None and self.default is None:
                return None
            if isinstance(value, bool) or not isinstance(value, int):
                raise EngineError("bad_config", f"{where} must be a whole number", field=where)
            if self.minimum is not None and value < self.minimum:
                raise EngineError("bad_config", f"{where} must be at least {self.minimum}", field=where, params={"min": self.minimum})
            if self.maximum is not None and value > self.maximum:
                raise EngineError("bad_config", f"{where} must be at most {self.maximum}", field=where, params={"max": self.maximum})
            return value
        if self.kind is SettingKind.CHOICE:
            if value not in self.choices:
                raise EngineError(
                    "bad_config", f"{where} must be one of {', '.join(self.choices)}", field=where, params={"choices": list(self.choices)}
                )
            return value
        # CHART: the default lists every line; a config may override some lines.
        if not isinstance(value, Mapping):
            raise EngineError("bad_config", f"{where} must be an object of pay odds", field=where)
        chart = dict(self.default)
        for line, odds in value.items():
            if line not in chart:
                raise EngineError(
                    "bad_config", f"{where}.{line} is not a line of this chart ({', '.join(chart)})", field=where, params={"line": line, "lines": list(chart)}
                )
            if isinstance(odds, bool) or not isinstance(odds, int) or odds < 0:
                raise EngineError("bad_config", f"{where}.{line} must be a whole number of units", field=where, params={"line": line})
            chart[line] = odds
        return chart


def rounding_setting(name: str, default: Rounding, help: str) -> Setting:
    return Setting(name, SettingKind.CHOICE, default.value, help, choices=tuple(r.value for r in Rounding))


def chip_setting(what: str) -> Setting:
    """The table's smallest chip: ``what`` is rounded (as its rounding setting says) to whole chips of it,
    so the dealer can hand it over and the tray holds it (1: to the minor unit, the exact figure)."""
    return Setting("chip", SettingKind.INT, 1,
                   f"the table's smallest chip, minor units: the {what} is rounded to whole chips of it", minimum=1)


LIMIT_SETTINGS = (
    Setting("min_bet", SettingKind.INT, None, "smallest stake on one bet (table minimum)", minimum=1),
    Setting("max_bet", SettingKind.INT, None, "largest stake on one bet (table maximum)", minimum=1),
)


@dataclass(frozen=True, slots=True)
class BetSpec:
    """A bet the layout takes: which extra fields it needs and which it may carry."""

    description: str
    required: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()
    limits_apply: bool = True  # False for bets whose size the rules fix (insurance, a pot bet)
    fields: tuple[BetField, ...] = ()  # how each extra field is entered (one per required/optional name)

    def field(self, name: str) -> BetField:
        return next(f for f in self.fields if f.name == name)


BET_KEYS = ("id", "seat", "type", "amount")  # a bet's own keys; any other key is a game-specific field


def bet_extra(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The game-specific fields of a bet object (a number, a rank, coppered…)."""
    return {k: v for k, v in raw.items() if k not in BET_KEYS}


@dataclass(frozen=True, slots=True)
class Bet:
    """One bet: the only mapping between a bet object of the round document (``to_json``/``of``),
    the engines and the stored bet (``tables.models.Bet`` reads and writes it through these)."""

    id: str
    seat: int
    type: str
    amount: int
    extra: Mapping[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.extra.get(key, default)

    @classmethod
    def of(cls, raw: Mapping[str, Any]) -> Bet:
        """A bet object as given (unchecked: :func:`parse_bet` checks one)."""
        return cls(raw["id"], raw["seat"], raw["type"], raw["amount"], bet_extra(raw))

    def to_json(self) -> Json:
        return {"id": self.id, "seat": self.seat, "type": self.type, "amount": self.amount, **self.extra}


@dataclass(frozen=True, slots=True)
class Round:
    """A validated round document: config resolved to every setting, bets parsed."""

    game: str
    config: Mapping[str, Any]
    bets: tuple[Bet, ...]
    events: tuple[Json, ...]
    # where each event the engine plays stands in the document's events, where a correction folded
    # some away (see :func:`fold_corrections`); empty: the same places
    origins: tuple[int, ...] = ()

    def origin(self, index: int | None) -> int | None:
        """The index in the document's events of the event the engine played at ``index``."""
        if index is None or not self.origins or not 0 <= index < len(self.origins):
            return index
        return self.origins[index]


def _is_card(event: Mapping[str, Any]) -> bool:
    return "card" in event or "dice" in event


def fold_corrections(events: Sequence[Mapping[str, Any]]) -> tuple[list[Json], list[int]]:
    """The events a round plays once the corrections of bets placed between stages are applied, with
    the index in ``events`` each one comes from.

    A bet placed during a betting round may be corrected, or withdrawn, while no card (nor dice) has
    been entered since it was placed:

    * ``{"bet": {..., "replaces": "x1"}}``: the bet ``x1`` is replaced by this one (same seat and
      type; a new id), which plays where ``x1`` was placed;
    * ``{"withdraw": {"bet": "x1"}}`` (optionally with a ``"reason"``): the bet ``x1`` no longer plays.

    A correction is refused (``correction_too_late``) once a card has followed the bet, and
    (``no_such_bet``) when it names no bet in play.

    >>> events = [{"card": "3"}, {"bet": {"id": "a", "seat": 1, "type": "count", "number": 2, "amount": 5}},
    ...           {"bet": {"id": "b", "seat": 1, "type": "count", "number": 4, "amount": 5, "replaces": "a"}},
    ...           {"card": "4"}]
    >>> fold_corrections(events)
    ([{'card': '3'}, {'bet': {'id': 'b', 'seat': 1, 'type': 'count', 'number': 4, 'amount': 5}}, {'card': '4'}], [0, 2, 3])
    """
    folded: list[Json] = []
    origins: list[int] = []
    cards = 0  # cards (or throws) seen so far
    placed_after: dict[str, int] = {}  # a bet in play: the cards seen when it was placed
    for index, event in enumerate(events):
        raw = event.get("bet")
        withdraw = event.get("withdraw")
        target = raw.get("replaces") if isinstance(raw, Mapping) else None
        if withdraw is not None or target is not None:
            if withdraw is not None:
                if set(event) != {"withdraw"} or not isinstance(withdraw, Mapping) or set(withdraw) - {"bet", "reason"}:
                    raise EngineError("bad_event", f'event {index}: a withdrawal is {{"withdraw": {{"bet": id}}}}',
                                      event=index)
                target = withdraw.get("bet")
            at = next((i for i, e in enumerate(folded) if isinstance(e.get("bet"), Mapping)
                       and e["bet"].get("id") == target), None)
            if not isinstance(target, str) or at is None:
                raise EngineError("no_such_bet", f"event {index}: no bet {target!r} is in play to correct",
                                  event=index, params={"bet": target})
            original = folded[at]["bet"]
            if placed_after.get(target, -1) != cards:
                raise EngineError("correction_too_late",
                                  f"event {index}: bet {target} cannot be corrected: a card has been dealt since",
                                  event=index, params={"bet": target, "seat": original.get("seat"),
                                                       "reason": "card_since"})
            if withdraw is not None:
                del folded[at], origins[at]
                continue
            assert isinstance(raw, Mapping)
            if (raw.get("seat"), raw.get("type")) != (original.get("seat"), original.get("type")):
                raise EngineError("bad_event", f"event {index}: a correction keeps the bet's seat and type "
                                  f"(seat {original.get('seat')}, {original.get('type')}): take the bet back and "
                                  "place another", event=index, params={"bet": target})
            corrected = {k: v for k, v in raw.items() if k != "replaces"}
            folded[at] = {**folded[at], "bet": corrected}
            origins[at] = index
            del placed_after[target]
            placed_after[str(corrected.get("id"))] = cards
            continue
        if _is_card(event):
            cards += 1
        if isinstance(raw, Mapping) and isinstance(raw.get("id"), str):
            placed_after[raw["id"]] = cards
        folded.append(dict(event))
        origins.append(index)
    return folded, origins


@dataclass(frozen=True, slots=True)
class EdgeRow:
    """The house edge of one bet type and how it was obtained."""

    bet: str
    edge: Fraction | float  # share of the stake the house keeps on average (0.0106 = 1.06 %)
    method: str  # "exact enumeration …" or "simulation …"
    ci95: tuple[float, float] | None = None
    note: str = ""

    def as_dict(self) -> Json:
        row: Json = {"bet": self.bet, "edge": float(self.edge), "edge_pct": round(float(self.edge) * 100, 4),
                     "method": self.method}
        if self.ci95 is not None:
            row["ci95_pct"] = [round(self.ci95[0] * 100, 4), round(self.ci95[1] * 100, 4)]
        if self.note:
            row["note"] = self.note
        return row


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_bet(raw: Any, spec_for: Callable[[str], BetSpec | None], *, where: str, event: int | None = None) -> Bet:
    """Read one bet object, refusing anything malformed with the field at fault."""
    if not isinstance(raw, Mapping):
        raise EngineError("bad_bet", f"{where} must be an object", event=event, field=where)
    bet_id, seat, bet_type, amount = raw.get("id"), raw.get("seat"), raw.get("type"), raw.get("amount")
    if not isinstance(bet_id, str) or not bet_id or len(bet_id) > 64:
        raise EngineError("bad_bet", f"{where}.id must be a non-empty string (64 characters at most)",
                          event=event, field=f"{where}.id")
    if not _is_int(seat) or not 1 <= seat <= 99:
        raise EngineError("bad_bet", f"bet {bet_id}: seat must be a whole number from 1 to 99",
                          event=event, field=f"{where}.seat", params={"bet": bet_id})
    if not isinstance(bet_type, str):
        raise EngineError("bad_bet", f"bet {bet_id}: type must be a string", event=event, field=f"{where}.type", params={"bet": bet_id})
    spec = spec_for(bet_type)
    if spec is None:
        raise EngineError("bad_bet_type", f"bet {bet_id}: this game takes no '{bet_type}' bet",
                          event=event, field=f"{where}.type", params={"bet": bet_id, "type": bet_type})
    if not _is_int(amount) or amount <= 0:
        raise EngineError("bad_amount", f"bet {bet_id}: amount must be a positive whole number of minor units",
                          event=event, field=f"{where}.amount", params={"bet": bet_id})
    extra = bet_extra(raw)
    for name in spec.required:
        if name not in extra:
            raise EngineError("bad_bet", f"bet {bet_id}: a '{bet_type}' bet needs '{name}'",
                              event=event, field=f"{where}.{name}", params={"bet": bet_id, "type": bet_type, "name": name})
    allowed = set(spec.required) | set(spec.optional)
    for name in extra:
        if name not in allowed:
            raise EngineError("bad_bet", f"bet {bet_id}: '{name}' is not a field of a '{bet_type}' bet",
                              event=event, field=f"{where}.{name}", params={"bet": bet_id, "name": name, "type": bet_type})
    return Bet(bet_id, seat, bet_type, amount, extra)


class Engine:
    """Base class: envelope and bet validation; subclasses implement :meth:`play`."""

    name: ClassVar[str]
    title: ClassVar[str]
    settings: ClassVar[tuple[Setting, ...]]
    bet_types: ClassVar[Mapping[str, BetSpec]]
    profile: ClassVar[GameProfile]

    @property
    def banked(self) -> bool:
        """The house banks every bet (False where a seat holds the bank, or players share a pot or pools)."""
        return self.profile.banked

    # -- config -------------------------------------------------------------------------
    def setting(self, name: str) -> Setting:
        for s in self.settings:
            if s.name == name:
                return s
        raise KeyError(name)

    def resolve_config(self, given: Any) -> dict[str, Any]:
        if given is None:
            given = {}
        if not isinstance(given, Mapping):
            raise EngineError("bad_config", "config must be an object of rule settings", field="config")
        known = {s.name: s for s in self.settings}
        for name in given:
            if name not in known:
                raise EngineError(
                    "unknown_setting",
                    f"config.{name} is not a setting of {self.name} (settings: {', '.join(sorted(known))})",
                    field=f"config.{name}", params={"name": name, "game": self.name, "settings": sorted(known)},
                )
        config = {s.name: s.clean(given[s.name]) if s.name in given else s.default for s in self.settings}
        lo, hi = config.get("min_bet"), config.get("max_bet")
        if lo is not None and hi is not None and lo > hi:
            raise EngineError("bad_config", "config.min_bet is above config.max_bet", field="config.min_bet")
        self.check_config(config)
        return config

    def check_config(self, config: dict[str, Any]) -> None:
        """Cross-setting checks; override where settings constrain each other."""

    # -- bets ---------------------------------------------------------------------------
    def spec_for(self, bet_type: str) -> BetSpec | None:
        return self.bet_types.get(bet_type)

    def check_limits(self, bet: Bet, config: Mapping[str, Any], *, event: int | None = None,
                     where: str = "bets") -> None:
        spec = self.bet_types[bet.type]
        if not spec.limits_apply:
            return
        lo, hi = config.get("min_bet"), config.get("max_bet")
        if lo is not None and bet.amount < lo:
            raise EngineError("under_table_min", f"bet {bet.id}: {bet.amount} is under the table minimum {lo}",
                              event=event, field=f"{where}.amount",
                              params={"bet": bet.id, "seat": bet.seat, "type": bet.type, "amount": bet.amount,
                                      "min": lo})
        if hi is not None and bet.amount > hi:
            raise EngineError("over_table_max", f"bet {bet.id}: {bet.amount} is over the table maximum {hi}",
                              event=event, field=f"{where}.amount",
                              params={"bet": bet.id, "seat": bet.seat, "type": bet.type, "amount": bet.amount,
                                      "max": hi})

    def parse_bets(self, raw_bets: Any, config: Mapping[str, Any]) -> tuple[Bet, ...]:
        if raw_bets is None:
            raw_bets = []
        if not isinstance(raw_bets, list):
            raise EngineError("bad_bet", "bets must be a list", field="bets")
        bets: list[Bet] = []
        seen: set[str] = set()
        for i, raw in enumerate(raw_bets):
            bet = parse_bet(raw, self.spec_for, where=f"bets[{i}]")
            if bet.id in seen:
                raise EngineError("duplicate_bet", f"bet id {bet.id} is used twice", field=f"bets[{i}].id", params={"bet": bet.id})
            seen.add(bet.id)
            self.check_limits(bet, config, where=f"bets[{i}]")
            self.check_bet(bet, config, where=f"bets[{i}]")
            bets.append(bet)
        one = self.profile.one_per_seat
        if one is not None:
            holding: set[int] = set()
            for i, bet in enumerate(bets):
                if bet.type not in one.types:
                    continue
                if bet.seat in holding:
                    raise EngineError("bad_bet", f"bet {bet.id}: seat {bet.seat} already has {one.holds}",
                                      field=f"bets[{i}].seat", params={"bet": bet.id, "seat": bet.seat})
                holding.add(bet.seat)
        return tuple(bets)

    def check_bet(self, bet: Bet, config: Mapping[str, Any], *, where: str) -> None:
        """Game-specific checks of one bet (a count in range, a rank on the layout…)."""

    # -- the round ----------------------------------------------------------------------
    def load(self, doc: Mapping[str, Any]) -> Round:
        config = self.resolve_config(doc.get("config"))
        bets = self.parse_bets(doc.get("bets"), config)
        events = doc.get("events")
        if events is None:
            events = []
        if not isinstance(events, list):
            raise EngineError("bad_event", "events must be a list", field="events")
        for i, ev in enumerate(events):
            if not isinstance(ev, Mapping):
                raise EngineError("bad_event", f"event {i} must be an object", event=i)
        if not any("withdraw" in e or (isinstance(e.get("bet"), Mapping) and "replaces" in e["bet"]) for e in events):
            return Round(self.name, config, bets, tuple(dict(e) for e in events))
        folded, origins = fold_corrections(events)
        return Round(self.name, config, bets, tuple(folded), tuple(origins))

    def play(self, rnd: Round) -> RoundResult:  # pragma: no cover - abstract
        raise NotImplementedError

    def result(self, doc: Mapping[str, Any]) -> RoundResult:
        """Validate and play a round document."""
        return self.answer(self.load(doc))

    def answer(self, rnd: Round) -> RoundResult:
        """Play a loaded round; a refusal names the event by its place in the document's events (where
        a correction folded some away, :attr:`Round.origins`)."""
        try:
            return self.play(rnd)
        except EngineError as exc:
            if rnd.origins and exc.event is not None:
                exc.event = rnd.origin(exc.event)
            raise


    # -- what the round service asks, without knowing the game ------------------------------
    def carry_over(self, previous: Mapping[str, Any] | None) -> tuple[Json, list[Any] | None]:
        """What the last settled round at a table (its stored answer, ``previous``) hands on to the
        next: settings to open it with, and the players still in (a first ``players`` event), or
        None. Only settings this engine knows are carried. Pool and pot games carry what is left in
        the pool (``pool.carry_out`` → ``carry_in``); games that hand on more override this."""
        if not isinstance(previous, Mapping):
            return {}, None
        pool = previous.get("pool")
        known = {s.name for s in self.settings}
        if isinstance(pool, Mapping) and "carry_in" in known and isinstance(pool.get("carry_out"), int):
            return {"carry_in": pool["carry_out"]}, None
        return {}, None

    def check_new_bet(self, config: Mapping[str, Any], bets: Sequence[Json], raw: Any) -> Bet:
        """Check one bet placed before the deal, beside ``bets`` (those already down), exactly as
        closing the betting will: its type, fields, seat and limits, and the bets as a whole. Its
        refusal names the field of the bet at fault (``amount``, ``seat``…), or ``bets`` for the set
        (a :class:`~tables.engines.errors.BetSetError`).

        Some games only make a round once several bets are down (a chemin de fer coup needs its
        bank and a punto, in whichever order the croupier takes them): while the bets so far do not
        make a round, a bet is checked on its own; a bet that breaks a set that was complete, or is
        wrong in itself, is refused."""
        index = len(bets)
        doc = {"game": self.name, "config": dict(config), "bets": [*bets, raw], "events": []}
        try:
            return self.load(doc).bets[-1]
        except BetSetError as exc:
            try:
                self.load({**doc, "bets": list(bets)})
            except BetSetError:
                pass
            except EngineError:
                raise exc from None
            else:
                raise exc from None
        except EngineError as exc:
            raise _relative_to_bet(exc, index) from None
        resolved = self.resolve_config(config)
        try:
            bet = parse_bet(raw, self.spec_for, where="bets")
            self.check_limits(bet, resolved, where="bets")
            self.check_bet(bet, resolved, where="bets")
        except EngineError as own:
            raise _relative_to_bet(own, index) from None
        return bet

    def check_placement(self, doc: Mapping[str, Any], raw: Any) -> Bet:
        """Check one bet placed while betting is open (``raw``, beside the bets of ``doc``, the round as
        closing the betting will play it) for whatever closing would refuse it for:
        :meth:`check_new_bet`, then the round played with it, where a rule about this bet may still
        refuse it (a seat that holds the bank). Only a set of bets that does not make a round yet (a
        :class:`~tables.engines.errors.BetSetError`) is left for closing to judge."""
        bets = [dict(b) for b in doc.get("bets") or []]
        bet = self.check_new_bet(doc.get("config") or {}, bets, raw)
        try:
            self.result({**doc, "game": self.name, "bets": [*bets, raw]})
        except BetSetError:
            pass
        except EngineError as exc:
            raise _relative_to_bet(exc, len(bets)) from None
        return bet

    # -- what the table is waiting for, seat by seat ------------------------------------------
    def bank_seat(self, rnd: Round) -> int | None:
        """The seat that holds the bank in ``rnd`` (None: the house's bank, or none yet)."""
        return None

    def button_of(self, rnd: Round) -> int | None:
        """The button's seat, for games that bet in order from it."""
        if self.profile.turn_order is not TurnOrder.BUTTON:
            return None
        button = rnd.config.get("button")
        return button if isinstance(button, int) else None

    def open_bet_of(self, entry: Mapping[str, Any]) -> OpenBet:
        """A ``bets_open`` entry of a step's input as an :class:`OpenBet`."""
        seats = entry.get("seats")
        label = str(entry.get("label") or entry["type"])
        return OpenBet(str(entry["type"]), tuple(seats) if seats is not None else None,
                       {s: speech("why_has_bet", seat=s, bet=label) for s in entry.get("seats_taken") or []})

    def table_now(self, doc: Mapping[str, Any], *, betting_open: bool, result: RoundResult | None = None) -> TableNow:
        """Where the round ``doc`` stands for the dealer: the bank's seat, the button, whose turn it is
        and what each seat may do now. ``betting_open``: the round service still takes the bets
        placed before the deal (the round's bets), so the engine has not been asked to deal yet.
        ``result``: this engine's answer for ``doc``, when the caller has just played it (not played again)."""
        try:
            rnd = self.load(doc)
        except BetSetError:
            if not betting_open:
                raise
            # the bets so far need not make a round yet: each is read on its own
            config = self.resolve_config(doc.get("config"))
            bets = tuple(parse_bet(raw, self.spec_for, where=f"bets[{i}]") for i, raw in enumerate(doc.get("bets") or []))
            rnd = Round(self.name, config, bets, ())
        bank, button = self.bank_seat(rnd), self.button_of(rnd)
        if betting_open:
            return TableNow(bank, button, None, "bets", self._open_before_deal(rnd, bank),
                            say="Place your bets", message=speech("place_bets").to_json())
        if result is None:
            result = self.play(rnd)
        step = result.next
        if step is None:
            return TableNow(bank, button, None, None)
        inp = step.input
        open_bets = tuple(self.open_bet_of(e) for e in inp.bets_open) if inp is not None else ()
        turn = step.seat
        if turn is None and step.betting is not None:
            turn = step.betting.turn  # a betting round taken in turn (Carousel's count bets)
        actions: tuple[str, ...] = ()
        actors: tuple[int, ...] | None = ()
        if step.expect == "action":
            actions, actors = step.allowed, (turn,) if turn is not None else None
        elif step.expect == "bid":
            seats = inp.seats if inp is not None else None
            actions, actors = ("bid",), seats
        return TableNow(bank, button, turn, step.expect, open_bets, actions, actors, step.say, step.message_json)

    def _open_before_deal(self, rnd: Round, bank: int | None) -> tuple[OpenBet, ...]:
        profile = self.profile
        held: dict[int, Speech] = {}
        if profile.one_per_seat is not None:
            held = {b.seat: speech(profile.one_per_seat.why, seat=b.seat)
                    for b in rnd.bets if b.type in profile.one_per_seat.types}
        out = []
        for bet_type in profile.before_deal:
            barred = dict(held) if profile.one_per_seat and bet_type in profile.one_per_seat.types else {}
            if profile.bank is Bank.SEAT and bank is not None:
                barred[bank] = speech("why_bank_seat", seat=bank)
                if bet_type in profile.bank_bets:
                    out.append(OpenBet(bet_type, (), barred, speech("why_bank_holder", seat=bank)))
                    continue
            out.append(OpenBet(bet_type, None, barred))
        return tuple(out)

    def bet_placed_by(self, event: Mapping[str, Any]) -> Bet | None:
        """The bet an accepted event places (a between-stage bet, a pot bet, a horse sold), or None."""
        raw = event.get("bet")
        if not isinstance(raw, Mapping):
            return None
        return Bet.of({k: v for k, v in raw.items() if k != "replaces"})  # a correction places the bet anew

    def stakes_taken_by_choices(self, lines: Sequence[Line], events: Sequence[Mapping[str, Any]],
                                placed: Collection[str]) -> list[tuple[Bet, int]]:
        """Stakes a choice put down rather than a bet (settled in lines whose id no bet in ``placed``
        has), each with the index of the event that took it. None in most games."""
        return []

    def limits_of(self, bet_type: str, config: Mapping[str, Any]) -> tuple[int | None, int | None]:
        """The table limits a bet of this type was placed under (none where the rules fix its size)."""
        spec = self.bet_types.get(bet_type)
        if spec is None or not spec.limits_apply:
            return None, None
        return config.get("min_bet"), config.get("max_bet")

    def check_set(self, cards: Sequence[str], hands: Mapping[str, Any]) -> str | None:
        """Why setting ``cards`` into ``hands`` fouls, in a dealer's words (None: it does not), for the
        games where a seat sets its hand (``set_hand`` inputs); others have no hands to set."""
        raise EngineError("no_set", f"{self.name} has no hands to set", params={"game": self.name})

    def house_edge(self, config: Mapping[str, Any], *, seed: int = 1) -> list[EdgeRow]:
        raise EngineError("no_house_edge", f"{self.name} has no house-edge calculation", params={"game": self.name})

    def describe(self) -> Json:
        """The engine's vocabulary for docs, the dealer screen and the API."""
        return {
            "game": self.name,
            "title": self.title,
            "banked": self.banked,
            "profile": self.profile.as_dict(),
            "settings": [
                {"name": s.name, "kind": s.kind.value, "default": s.default, "help": s.help,
                 **({"choices": list(s.choices)} if s.choices else {}),
                 **({"minimum": s.minimum} if s.minimum is not None else {}),
                 **({"maximum": s.maximum} if s.maximum is not None else {})}
                for s in self.settings
            ],
            "bet_types": {
                name: {"description": spec.description, "required": list(spec.required),
                       "optional": list(spec.optional), "limits_apply": spec.limits_apply,
                       "fields": [f.as_dict() for f in spec.fields]}
                for name, spec in self.bet_types.items()
            },
        }


def _relative_to_bet(exc: EngineError, index: int) -> EngineError:
    """The refusal of ``bets[index]`` with its field named within the bet (``amount``, not ``bets[3].amount``)."""
    prefix = f"bets[{index}]."
    if exc.field and exc.field.startswith(prefix):
        exc.field = exc.field[len(prefix):]
    return exc


# -- building the "out" document ---------------------------------------------------------

def bet_result(bet: Bet, result: str, net: int, commission: int = 0, **extra: Any) -> Json:
    """One settled bet: ``net`` is the bettor's gain (+) or loss (−), commission already taken."""
    row: Json = {"id": bet.id, "seat": bet.seat, "type": bet.type, "amount": bet.amount,
                 "result": result, "net": net, "commission": commission}
    row.update(extra)
    return row


def handover(*, at_bet: int = 0, pay: int = 0, take: int = 0, via: str = "", during_deal: bool = False) -> Json:
    """What the dealer moves for a bet in a pot or pool game, as chips: ``at_bet`` taken into the pot or
    pool when the bet was placed (an ante, a fixed stake, a bought horse), ``pay`` handed out of it and
    ``take`` taken into it when the bet is decided. ``pay - take - at_bet`` is the bet's ``net`` (a
    rake is kept before the pay). ``via`` names where the money goes other than the pot or pool (the
    house's tray, for a house-backed bet at a pool table, or the bank). ``when`` says whether ``pay`` and
    ``take`` were moved as the bet was decided during the deal (``deal``: the dealer paid at that moment,
    a pot bet's card, a faro turn) or are moved at the pay list (``settle``).

    >>> handover(at_bet=100, pay=700)
    {'at_bet': 100, 'pay': 700, 'take': 0, 'when': 'settle'}
    """
    moved: Json = {"at_bet": at_bet, "pay": pay, "take": take, "when": "deal" if during_deal else "settle"}
    if via:
        moved["via"] = via
    return moved


def banked_house(bet_rows: Iterable[Json]) -> Json:
    """The house's result from settled bets at a banked game: −Σ net; its commission part."""
    rows = list(bet_rows)
    return {"net": -sum(r["net"] for r in rows), "commission": sum(r["commission"] for r in rows), "rake": 0}


def awaiting(next_step: Json, *, hands: Json | None = None, bets: Sequence[Json] = (), **more: Any) -> RoundResult:
    """The round goes on: ``next_step`` is due; ``bets`` are the rows already decided (a fold, a foul)."""
    return round_result(Status.AWAITING, next_step, hands=hands or {}, outcome=None, bets=bets, house=None, more=more)


def settled(*, hands: Json, outcome: Json, bets: Sequence[Json], house: Json, **more: Any) -> RoundResult:
    """Every bet is decided: one row per bet, the house's totals; ``say`` (a :class:`Speech`) is the
    round's call, written as ``say`` and ``message``."""
    if "say" in more:
        more.update(said(more.pop("say")))  # a Speech: a sentence is refused
    return round_result(Status.SETTLED, None, hands=hands, outcome=outcome, bets=bets, house=house, more=more)


def expect_card(to: str | None, say: Speech, *, inp: Json | None = None, **more: Any) -> Json:
    """A card is due at ``to``; ``inp`` is its input (default: a card of the standard deck)."""
    step: Json = {"expect": "card", "to": to, **said(say)}
    step.update(more)
    step["input"] = inp if inp is not None else card_input(to)
    return step


def expect_action(seat: int | None, allowed: Sequence[str], say: Speech, *, inp: Json | None = None,
                  **more: Any) -> Json:
    """A choice is due at ``seat``; ``inp`` is its input (default: one option per action, ``{"seat", "action"}``)."""
    step: Json = {"expect": "action", "seat": seat, "allowed": list(allowed), **said(say)}
    step.update(more)
    if inp is None:
        # a hand named by number (blackjack's split hands) or by name (chemin de fer's, pontoon's
        # banker) is part of the event that answers; a hand given as its cards is not
        hand = more.get("hand")
        named = isinstance(hand, int | str) and not isinstance(hand, bool)
        base: Json = {"seat": seat, "hand": hand} if named else {"seat": seat}
        inp = actions_input(seat, allowed, event=base, hand=hand if named else None)
    step["input"] = inp
    return step
