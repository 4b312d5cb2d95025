"""Play a whole round on the dealer's screen by taps alone, from a round document.

The document says what happens at the table (the bets, the cards, the choices, the dice, the bids);
this module taps it in, step by step, on whatever widget the screen draws for the step. Which widget
and which button follow from the engine's ``next.input`` for the step, worked out here by playing the
document so far through the engine (the screen is never asked; nothing is posted but by taps).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from tables.engines.registry import get_engine
from tests.browser.conftest import PHONE, TABLET
from tests.browser.dealer_steps import RANK_NAMES, SUIT_NAMES, button, idle

Json = dict[str, Any]

# the visible key controls of each step must lie inside the window without scrolling
PRIMARY_IN_VIEW_JS = """() => {
  const out = [];
  for (const el of document.querySelectorAll('#dealer [data-primary]')) {
    if (el.closest('[hidden]') || el.offsetParent === null) continue;
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.bottom > innerHeight + 0.5 || r.left < 0 || r.right > innerWidth + 0.5)
      out.push(`${el.id || el.className}: ${Math.round(r.top)}..${Math.round(r.bottom)} of ${innerHeight}`);
  }
  const small = [...document.querySelectorAll('#dealer button, dialog[open] button')]
    .filter(b => b.offsetParent !== null && !b.closest('[hidden]'))
    .map(b => [b, b.getBoundingClientRect()])
    .filter(([b, r]) => r.width < 44 || r.height < 44)
    .map(([b, r]) => `${(b.getAttribute('aria-label') || b.textContent).trim().slice(0, 30)} ${Math.round(r.width)}x${Math.round(r.height)}`);
  const primaries = document.querySelectorAll('#dealer [data-primary]').length;
  return {out, small, primaries, scrolled: scrollY};
}"""


# counts the dealer's taps on the page (a click on a button) and, for each card entered, the time from the
# tap that sends it to the screen's next step (the controls enabled again), in the page's own clock
COUNT_TAPS_JS = """() => {
  if (window.__taps) return;
  window.__taps = {taps: 0, cards: [], t0: null};
  document.addEventListener('click', (ev) => {
    const b = ev.target.closest('button');
    if (!b) return;
    window.__taps.taps += 1;
    const name = b.getAttribute('aria-label') || '';
    if (/^(Suit |Card |Again: |Joker$)/.test(name)) window.__taps.t0 = performance.now();
  }, true);
  const dealer = document.getElementById('dealer');
  new MutationObserver(() => {
    const t = window.__taps;
    if (t.t0 !== null && dealer.getAttribute('aria-busy') === 'false') { t.cards.push(performance.now() - t.t0); t.t0 = null; }
  }).observe(dealer, {attributes: true, attributeFilter: ['aria-busy']});
}"""


class Screen:
    """The dealer's page at a table, and the shots taken of each kind of step (named by game)."""

    def __init__(self, page: Any, screens: Any, game: str, chips: list[int], digits: int = 2, *, decks: int = 1,
                 keyboard: bool = False) -> None:
        self.page = page
        self.keyboard = keyboard  # cards keyed (rank then suit) on a keyboard instead of tapped
        self.screens = screens
        self.game = game
        self.chips = sorted(chips, reverse=True)
        self.digits = digits
        self.shots: list[str] = []
        self.seen: set[str] = set()
        self.decks = decks  # above 1, a card entered twice running is sent again by "Again" (one tap)
        self.last_card: str | None = None
        self.again = 0  # cards sent by "Again" (each a tap saved)

    def count_taps(self) -> None:
        """Count the taps from now on (and time each card's answer)."""
        self.page.evaluate(COUNT_TAPS_JS)

    def taps(self) -> dict[str, Any]:
        return dict(self.page.evaluate("() => window.__taps"))

    def step(self, name: str) -> None:
        """At the first step of each kind: the primary action in view and 44 px targets at both sizes, and a shot."""
        if name in self.seen:
            return
        self.seen.add(name)
        n = len(self.seen)
        for size in (TABLET, PHONE):
            self.page.set_viewport_size(size)
            self.page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
            found = self.page.evaluate(PRIMARY_IN_VIEW_JS)
            assert found["primaries"] > 0, f"{self.game} {name}: no primary action marked"
            assert found["out"] == [], f"{self.game} {name} at {size}: primary action out of view {found['out']}"
            assert found["small"] == [], f"{self.game} {name} at {size}: targets under 44 px {found['small'][:5]}"
            self.shots.append(str(self.screens.shot(self.page, f"dealer-{self.game}-{n:02d}-{name}")))
        self.page.set_viewport_size(TABLET)

    # -- money ----------------------------------------------------------------------------------
    def money(self, minor: int) -> str:
        from tables.wording import money

        return money(minor)

    def major(self, minor: int) -> str:
        whole, part = divmod(minor, 10**self.digits)
        return f"{whole}.{part:0{self.digits}d}" if self.digits else str(whole)

    def stake(self, scope: Any, amount: int, label: str = "Stake") -> None:
        """Chips where a few make the amount exactly, else the amount typed."""
        left, taps = amount, []
        for chip in self.chips:
            while left >= chip and len(taps) < 6:
                taps.append(chip)
                left -= chip
        if left == 0:
            scope.get_by_role("button", name=f"Clear the {label.lower()}", exact=True).click()
            for chip in taps:
                scope.get_by_role("button", name=f"Add chip {self.money(chip)}", exact=True).click()
        else:
            scope.get_by_label(f"{label}, typed", exact=True).fill(self.major(amount))


def _same(a: Any, b: Any) -> bool:
    """Two events alike but for the id of a bet in them (the screen gives its own)."""

    def plain(e: Any) -> Any:
        e = copy.deepcopy(e)
        if isinstance(e, dict) and isinstance(e.get("bet"), dict):
            e["bet"].pop("id", None)
        return e

    return plain(a) == plain(b)


def _label(spec: Json) -> str:
    text = str(spec.get("label") or spec["name"]).replace("_", " ")
    return text[:1].upper() + text[1:]


def tap_card(screen: Screen, code: str, deck: str) -> None:
    page = screen.page.locator("#deal-work .widget")
    if screen.keyboard and deck != "triangle" and code != "JK":
        screen.page.keyboard.press(code[0])
        screen.page.keyboard.press(code[1])
        return
    again = screen.last_card == code and screen.decks > 1 and deck != "triangle" and code != "JK"
    screen.last_card = code
    if again:
        page.locator("[data-action='again']").click()
        screen.again += 1
    elif deck == "triangle":
        button(page, f"Card {code}").click()
    elif code == "JK":
        button(page, "Joker").click()
    else:
        button(page, f"Rank {RANK_NAMES.get(code[0], code[0])}").click()
        button(page, f"Suit {SUIT_NAMES[code[1]]}").click()


def tap_fields(scope: Any, spec: Json, bet: Json) -> None:
    for f in spec.get("fields") or []:
        value = bet.get(f["name"])
        if value is None or value is False:
            continue
        name = _label(f)
        kind = f["kind"]
        if kind == "rank":
            scope.get_by_role("button", name=f"{name}: {RANK_NAMES.get(value, value)}", exact=True).click()
        elif kind == "ranks":
            for r in value:
                scope.get_by_role("button", name=f"{name}: add {RANK_NAMES.get(r, r)}", exact=True).click()
        elif kind == "int":
            scope.get_by_role("button", name=f"{name}: {value}", exact=True).click()
        elif kind == "choice":
            option = next(o for o in f["options"] if o["value"] == value)
            scope.locator(f"[data-value='{value}']").filter(has_text=option["label"]).first.click()
        elif kind == "bool":
            scope.get_by_role("button", name=name, exact=True).click()
        else:
            raise AssertionError(f"no taps for a {kind} field")


def tap_bet(screen: Screen, panel: str, specs: list[Json], bet: Json, submit: str) -> None:
    """A bet on the bet panel: seat, bet (where there are several), its fields, the stake, then submit."""
    scope = screen.page.locator(f"#{panel}")
    spec = next(s for s in specs if s["type"] == bet["type"])
    if len(specs) > 1:
        scope.locator(f"[data-type='{bet['type']}']").click()
    scope.get_by_role("button", name=f"Seat {bet['seat']}", exact=True).click()
    tap_fields(scope, spec, bet)
    if not spec.get("amount"):
        screen.stake(scope, bet["amount"])
    scope.get_by_role("button", name=submit, exact=True).click()
    idle(screen.page)


def tap_set_hand(screen: Screen, step: Json, event: Json) -> None:
    page = screen.page
    if _same(event, step["house_way_event"]):
        page.locator("[data-action='house-way']").click()
        return
    for hand in step["hands"]:
        button(page, f"Fill the {hand['name'].replace('_', ' ')} hand").click()
        for card in event[hand["name"]]:
            page.locator(f".set-cards [data-card='{card}']").click()
    expect(page.locator(".set-hand .ok")).to_have_text("These hands are set correctly.")
    screen.step("set_hand-set")
    page.locator("[data-action='set']").click()


def tap_event(screen: Screen, step: Json, event: Json, layout: list[Json]) -> None:
    """One event of the document, tapped on the widget the step's input names."""
    page = screen.page
    kind = step["kind"]
    open_bets = step.get("bets_open") or []
    if isinstance(event.get("bet"), dict) and any(b["type"] == event["bet"]["type"] for b in open_bets) and not any(
        _same(event, o["event"]) for o in step.get("options") or []
    ) and kind != "amount" and not (kind == "bid" and step.get("sell") and _same(event, step["sell"])):
        screen.step(f"{kind}-bets")
        tap_bet(screen, "stage-bet-panel", open_bets, event["bet"], "Record bet")
        return
    screen.step(kind)
    options = step.get("options") or []
    # the option that is the event; or, where the document words it otherwise, the one of the same action
    chosen = next((i for i, o in enumerate(options) if _same(event, o["event"])), None)
    if chosen is None and kind == "choice":
        alike = [i for i, o in enumerate(options) if o["event"].get("action") == event.get("action")]
        chosen = alike[0] if len(alike) == 1 else None
    if chosen is not None:
        page.locator(f"#deal-work .widget [data-option='{chosen}']").click()
        idle(page)
        return
    if kind == "card":
        tap_card(screen, event["card"], step["deck"])
    elif kind == "amount":
        value: Any = event
        for key in step["path"].split("."):
            value = value[key]
        screen.stake(page.locator("#deal-work .widget"), int(value), step["label"])
        page.locator("[data-action='submit-amount']").click()
    elif kind == "set_hand":
        tap_set_hand(screen, step, event)
    elif kind == "dice":
        for i, face in enumerate(event["dice"], start=1):
            button(page, f"Die {i}: {face}").click()
        page.locator("[data-action='record-dice']").click()
    elif kind == "bid":
        if step.get("sell") and _same(event, step["sell"]):
            page.locator("[data-action='sell']").click()
        else:
            bid = event["bid"]
            if not step.get("high_bid"):
                page.locator(f".bid [data-horse='{bid['horse']}']").click()
            button(page, f"Bidder seat {bid['seat']}").click()
            screen.stake(page.locator("#deal-work .widget"), bid["amount"], "Bid")
            page.locator("[data-action='bid']").click()
    else:
        raise AssertionError(f"no taps for a {kind} step")
    idle(page)


def play_round_by_taps(screen: Screen, doc: Json, layout: list[Json],
                       before_close: Callable[[], None] | None = None, *, open_with: str = "Open round") -> None:
    """Open a round (``open_with``: "Open next round" where the last one is still on the screen), tap the
    document's bets, close betting, tap every event: the pay list shows."""
    page = screen.page
    engine = get_engine(doc["game"])
    button(page, open_with).click()
    idle(page)
    screen.step("open")
    for bet in doc["bets"]:
        tap_bet(screen, "place-bet-panel", [b for b in layout if b.get("before_deal", True)], bet, "Place bet")
        screen.step("bets")
    if before_close is not None:
        before_close()
    button(page, "No more bets").click()
    idle(page)
    events = doc["events"]
    first = 1 if events and "players" in events[0] else 0  # carried players: close-betting posts them
    for k in range(first, len(events)):
        state = engine.play(engine.load({**doc, "events": events[:k]})).to_json()
        tap_event(screen, state["next"]["input"], events[k], layout)
    expect(page.locator("#confirm-settle")).to_be_visible()
    screen.step("pay-list")
