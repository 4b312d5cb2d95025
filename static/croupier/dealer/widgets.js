/* One widget per input kind an engine's `next` can ask for, and one per kind of bet field: the dealer
 * screen draws whatever the engine names, with no code for any one game (docs/round_format.md, "input").
 *
 * A widget is `widget(kind, (input, ctx) => element)`. It builds the exact event the engine asked for
 * and hands it to `ctx.post(event)`. What the dealer has tapped so far in this step (a rank before its
 * suit, cards set into hands, dice) lives in `ctx.memo`, which the screen empties when the step changes.
 * tests/tables/test_dealer_widgets.py walks every game and fails on a kind with no widget here.
 */
(() => {
  "use strict";

  const CD = (window.CroupierDealer = window.CroupierDealer || {});
  const F = CD.format;
  const { gettext, fmt } = F;
  const WIDGETS = {};
  const FIELDS = {};
  const widget = (kind, draw) => { WIDGETS[kind] = draw; };
  const field = (kind, draw) => { FIELDS[kind] = draw; };

  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") el.className = v;
      else if (k === "text") el.textContent = v;
      else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c);
    return el;
  }

  /** The alternatives a step offers (options may share a value: Faro's take-downs), keyed by index. */
  function optionButtons(input, ctx, cls) {
    return (input.options || []).map((o, i) => btn(o.label ? F.label(o.label) : F.capital(o.value), () => ctx.post(withBetId(clone(o.event), ctx)), {
      class: `${cls} action-${o.value}`, "data-value": o.value, "data-option": i,
    }));
  }

  const btn = (label, onclick, attrs) => h("button", { type: "button", class: "btn", onclick, ...(attrs || {}) }, label);
  const pressed = (on) => (on ? "true" : "false");
  const group = (label, cls, ...children) => h("div", { class: `group ${cls || ""}`, role: "group", "aria-label": label },
    h("span", { class: "group-label", "aria-hidden": "true" }, label), ...children);
  const clone = (o) => JSON.parse(JSON.stringify(o || {}));

  /** Put `value` at a dotted `path` of an event template ("bet.amount"). */
  function setPath(event, path, value) {
    const keys = String(path || "amount").split(".");
    let at = event;
    for (const k of keys.slice(0, -1)) at = at[k] = at[k] && typeof at[k] === "object" ? at[k] : {};
    at[keys[keys.length - 1]] = value;
    return event;
  }

  /** A bet inside an event gets a fresh id (the engine needs one per bet; the server keeps it). */
  function withBetId(event, ctx) {
    if (event && event.bet && typeof event.bet === "object" && !event.bet.id) event.bet.id = ctx.newBetId();
    return event;
  }

  function seatsOf(input, ctx) {
    if (Array.isArray(input.seats) && input.seats.length) return input.seats;
    return Array.from({ length: ctx.table.seats }, (_, i) => i + 1);
  }

  // -- a stake: chips that add up, a Clear, and the amount typed for odd sums ------------------------
  // (no redraw while the stake is made: a redraw would take the focus from the typed amount)
  function stakeBox(ctx, memo, { min, max, label }) {
    const name = label ? F.label(label) : gettext("Stake");
    const chips = ctx.chips.filter((d) => !max || d <= max);
    const out = h("output", { class: "stake-amount", "aria-live": "polite" }, F.money(memo.stake || 0));
    const hintEl = h("span", { class: "hint", "aria-live": "polite" });
    function show() {
      out.textContent = F.money(memo.stake || 0);
      hintEl.className = "hint";
      if (max && memo.stake > max) {
        hintEl.textContent = fmt(gettext("Over the maximum %(amount)s"), { amount: F.money(max) });
        hintEl.classList.add("bad");
      } else if (memo.stake && min && memo.stake < min) {
        hintEl.textContent = fmt(gettext("Under the minimum %(amount)s"), { amount: F.money(min) });
        hintEl.classList.add("bad");
      } else {
        hintEl.textContent = min || max ? fmt(gettext("%(min)s to %(max)s"), { min: min ? F.money(min) : gettext("Any"), max: max ? F.money(max) : gettext("no limit") }) : "";
      }
    }
    const typed = h("input", {
      class: "stake-typed", inputmode: "decimal", autocomplete: "off", "aria-label": fmt(gettext("%(name)s, typed"), { name }),
      placeholder: gettext("or type it"), value: memo.typed || "",
      oninput: (ev) => { memo.typed = ev.target.value; memo.stake = F.parseMoney(ev.target.value) || 0; show(); },
    });
    const set = (v) => { memo.stake = v; memo.typed = ""; typed.value = ""; show(); };
    show();
    return h("div", { class: "stake-box-wide" },
      h("div", { class: "chip-grid", role: "group", "aria-label": gettext("Chips") },
        chips.map((d) => h("button", { type: "button", class: `btn chip chip-${d}`, "aria-label": fmt(gettext("Add chip %(amount)s"), { amount: F.money(d) }), onclick: () => set((memo.stake || 0) + d) }, F.money(d)))),
      h("div", { class: "stake-row" },
        h("span", { class: "stake-label" }, `${name} `, out),
        typed,
        btn(gettext("Clear"), () => set(0), { "aria-label": fmt(gettext("Clear the %(name)s"), { name: name.toLowerCase() }) }),
        hintEl));
  }

  // -- bets: the round is open; the bet panel (dealer.js: seats, bets and their fields, chips) ---------
  widget("bets", (input, ctx) => ctx.betPanel());

  // -- card ------------------------------------------------------------------------------------------
  widget("card", (input, ctx) => {
    const memo = ctx.memo;
    const send = (code) => {
      memo.rank = null;
      memo.suit = null;
      // the place the engine named goes with the card, so the record says where the dealer put it
      ctx.post(input.to !== null && input.to !== undefined ? { card: code, to: input.to } : { card: code });
    };
    const deck = input.deck || "standard";
    const others = (input.options || []).length ? h("div", { class: "action-grid options" }, optionButtons(input, ctx, "btn")) : null;
    if (deck === "triangle") {
      ctx.keys.card = { triangle: (n) => send(n) };
      return h("div", { class: "keypad", role: "group", "aria-label": gettext("Card") },
        h("span", { class: "group-label" }, gettext("Card (1 to 10)")),
        h("div", { class: "triangle-grid", "data-primary": "" },
          Array.from({ length: 10 }, (_, i) => String(i + 1)).map((n) => btn(n, () => send(n), { "aria-label": fmt(gettext("Card %(n)s"), { n }), class: "btn rank" }))),
        h("p", { class: "muted key-hint" }, gettext("Keyboard: 1 to 9, and 0 for 10.")),
        others);
    }
    const ranks = deck === "standard_no_aces" ? F.RANKS.filter((r) => r !== "A") : F.RANKS;
    const tapRank = (r) => { memo.rank = r; if (memo.suit) send(r + memo.suit); else ctx.rerender(); };
    const tapSuit = (s) => { memo.suit = s; if (memo.rank) send(memo.rank + s); else ctx.rerender(); };
    // a hardware keypad or keyboard: rank then suit (dealer.js reads the keys and taps these)
    ctx.keys.card = { rank: (r) => ranks.includes(r) && tapRank(r), suit: (s) => tapSuit(s), clear: () => { memo.rank = null; memo.suit = null; ctx.rerender(); },
      joker: deck === "standard_joker" ? () => send("JK") : null };
    // the same card again in one tap, where the shoe holds more than one of each card
    const last = ctx.lastCard();
    const again = last && ctx.decks > 1 && last !== "JK" && ranks.includes(last[0])
      ? btn(fmt(gettext("Again: %(card)s"), { card: F.cardText(last) }), () => send(last), { class: "btn again", "aria-label": fmt(gettext("Again: %(card)s"), { card: F.cardName(last) }), "data-action": "again" })
      : null;
    const preview = memo.rank || memo.suit ? `${memo.rank ? F.rankLabel(memo.rank) : "?"}${memo.suit ? F.SUITS[memo.suit][0] : "?"}` : "";
    return h("div", { class: "keypad", role: "group", "aria-label": gettext("Card") },
      h("span", { class: "group-label" }, `${gettext("Card")} `, h("output", { id: "card-preview", "aria-live": "polite" }, preview)),
      h("div", { class: "rank-grid", role: "group", "aria-label": gettext("Rank"), "data-primary": "" },
        ranks.map((r) => btn(F.rankLabel(r), () => tapRank(r), {
          class: "btn rank", "data-rank": r, "aria-pressed": pressed(memo.rank === r), "aria-label": fmt(gettext("Rank %(rank)s"), { rank: F.rankName(r) }),
        }))),
      h("div", { class: "suit-grid", role: "group", "aria-label": gettext("Suit") },
        Object.entries(F.SUITS).map(([code, [symbol, name]]) => btn(symbol, () => tapSuit(code), {
          class: `btn suit suit-${code}`, "data-suit": code, "aria-pressed": pressed(memo.suit === code), "aria-label": fmt(gettext("Suit %(suit)s"), { suit: F.suitName(code) }),
        })),
        deck === "standard_joker" ? btn(gettext("Joker"), () => send("JK"), { class: "btn suit joker", "aria-label": gettext("Joker") }) : null),
      again,
      h("p", { class: "muted key-hint" }, deck === "standard_joker" ? gettext("Keyboard: rank (A 2–9, T or 0 for 10, J Q K), then suit (S H D C); X for the joker; Esc clears.") : gettext("Keyboard: rank (A 2–9, T or 0 for 10, J Q K), then suit (S H D C); Esc clears.")),
      others);
  });

  // -- choice: every option is the complete event to post ----------------------------------------------
  widget("choice", (input, ctx) => h("div", { class: "action-grid", role: "group", "aria-label": gettext("Choices"), "data-primary": "" },
    optionButtons(input, ctx, "btn big")));

  // -- amount: a stake between bounds, or one of the options offered instead ---------------------------
  widget("amount", (input, ctx) => {
    const memo = ctx.memo;
    if (memo.stake === undefined) memo.stake = 0;
    const label = input.label ? F.label(input.label) : gettext("Amount");
    const submit = () => {
      if (!memo.stake) return ctx.showError(fmt(gettext("Tap chips or type the %(name)s."), { name: label.toLowerCase() }));
      ctx.post(withBetId(setPath(clone(input.event), input.path, memo.stake), ctx));
    };
    const quick = [];
    if (input.min) quick.push(btn(fmt(gettext("Minimum %(amount)s"), { amount: F.money(input.min) }), () => { memo.stake = input.min; memo.typed = ""; ctx.rerender(); }));
    if (input.max && input.max !== input.min) quick.push(btn(`${input.max_label ? F.label(input.max_label) : gettext("Maximum")} ${F.money(input.max)}`, () => { memo.stake = input.max; memo.typed = ""; ctx.rerender(); }));
    return h("div", { class: "amount-widget" },
      h("div", { class: "action-grid", "data-primary": "" },
        btn(label, submit, { class: "btn primary big", "data-action": "submit-amount" }),
        optionButtons(input, ctx, "btn big warn")),
      quick.length ? h("div", { class: "quick-grid" }, quick) : null,
      stakeBox(ctx, memo, { min: input.min, max: input.max, label }));
  });

  // -- set_hand: tap cards into the hands; the house way one tap away; a foul refused on the spot --------
  widget("set_hand", (input, ctx) => {
    const memo = ctx.memo;
    const hands = input.hands || [];
    if (!memo.placed) {
      memo.placed = {};
      for (const hand of hands) memo.placed[hand.name] = [];
      memo.target = hands.length ? hands[0].name : null;
    }
    const placedCards = new Set(Object.values(memo.placed).flat());
    const sizeOf = (name) => (hands.find((x) => x.name === name) || {}).size || 0;
    const full = (name) => memo.placed[name].length >= sizeOf(name);
    const nextOpen = () => { const open = hands.find((x) => !full(x.name)); return open ? open.name : memo.target; };
    const complete = hands.every((x) => full(x.name));
    const tapCard = (card) => {
      if (!memo.target || full(memo.target)) memo.target = nextOpen();
      memo.placed[memo.target].push(card);
      memo.verdict = null;
      if (full(memo.target)) memo.target = nextOpen();
      if (hands.every((x) => full(x.name))) ctx.checkSet(input, memo);
      ctx.rerender();
    };
    const takeBack = (name, card) => {
      memo.placed[name] = memo.placed[name].filter((c) => c !== card);
      memo.target = name;
      memo.verdict = null;
      ctx.rerender();
    };
    const face = (card, extra) => h("span", { class: `card-face ${/[HD]$/.test(card) ? "red" : ""}`, "aria-hidden": "true", ...(extra || {}) }, F.cardText(card));
    const left = (input.cards || []).filter((c) => !placedCards.has(c));
    const setIt = () => {
      const event = clone(input.event);
      for (const hand of hands) event[hand.name] = memo.placed[hand.name].slice();
      ctx.post(event);
    };
    return h("div", { class: "set-hand" },
      h("div", { class: "action-grid", "data-primary": "" },
        btn(complete ? gettext("Set these hands") : fmt(gettext("Tap cards into the hands (%(n)s of %(m)s)"), { n: placedCards.size, m: (input.cards || []).length }), setIt, {
          class: "btn primary big", "data-action": "set", disabled: !complete || (memo.verdict && !memo.verdict.ok),
        }),
        input.house_way_event ? btn(input.house_way_label ? F.label(input.house_way_label) : gettext("House way"), () => ctx.post(clone(input.house_way_event)), { class: "btn big", "data-action": "house-way" }) : null,
        btn(gettext("Start again"), () => { memo.placed = null; memo.verdict = null; ctx.rerender(); }, { "data-action": "reset" }),
        optionButtons(input, ctx, "btn")),
      input.house_way ? h("div", { class: "house-way-preview", role: "group", "aria-label": gettext("The house way, hand by hand") },
        hands.map((hand) => h("p", { class: "house-way-hand", "data-hand": hand.name },
          h("span", { class: "hand-name" }, fmt(gettext("House way, %(hand)s: "), { hand: F.handLabel(hand.name).toLowerCase() })),
          (input.house_way[hand.name] || []).map((c) => face(c, { role: "img", "aria-hidden": null, "aria-label": F.cardName(c) }))))) : null,
      memo.verdict && !memo.verdict.ok ? h("p", { class: "error foul", role: "alert" }, fmt(gettext("Foul: %(reason)s"), { reason: F.label(memo.verdict.reason) })) : null,
      memo.verdict && memo.verdict.ok ? h("p", { class: "ok", role: "status" }, gettext("These hands are set correctly.")) : null,
      h("div", { class: "set-cards", role: "group", "aria-label": gettext("Cards to set") },
        left.map((c) => h("button", { type: "button", class: "btn card-btn", "aria-label": fmt(gettext("Set %(card)s"), { card: F.cardName(c) }), "data-card": c, onclick: () => tapCard(c) }, face(c)))),
      h("div", { class: "set-hands" }, hands.map((hand) => h("div", { class: `set-zone${memo.target === hand.name ? " target" : ""}`, "data-hand": hand.name },
        btn(`${F.capital(hand.name)} (${memo.placed[hand.name].length}/${hand.size})`, () => { memo.target = hand.name; ctx.rerender(); }, {
          class: "btn zone-name", "aria-pressed": pressed(memo.target === hand.name), "aria-label": fmt(gettext("Fill the %(hand)s hand"), { hand: F.handLabel(hand.name).toLowerCase() }),
        }),
        h("span", { class: "cards" }, memo.placed[hand.name].map((c) => h("button", {
          type: "button", class: "btn card-btn", "aria-label": fmt(gettext("Take %(card)s out of the %(hand)s hand"), { card: F.cardName(c), hand: F.handLabel(hand.name).toLowerCase() }), onclick: () => takeBack(hand.name, c),
        }, face(c))))))));
  });

  // -- dice: each die's face tapped, then recorded ---------------------------------------------------
  widget("dice", (input, ctx) => {
    const memo = ctx.memo;
    const count = input.count || 3;
    const faces = input.faces || 6;
    if (!memo.dice) memo.dice = Array(count).fill(null);
    const done = memo.dice.every((d) => d !== null);
    return h("div", { class: "dice" },
      memo.dice.map((value, i) => group(fmt(gettext("Die %(n)s"), { n: i + 1 }), "die-row",
        h("div", { class: "die-grid" }, Array.from({ length: faces }, (_, f) => f + 1).map((f) => btn(String(f), () => { memo.dice[i] = f; ctx.rerender(); }, {
          class: "btn die", "aria-pressed": pressed(value === f), "aria-label": fmt(gettext("Die %(n)s: %(face)s"), { n: i + 1, face: f }),
        }))))),
      h("div", { class: "action-grid", "data-primary": "" },
        btn(done ? fmt(gettext("Record dice %(dice)s (total %(total)s)"), { dice: memo.dice.join(" "), total: memo.dice.reduce((a, b) => a + b, 0) }) : gettext("Tap each die's face"), () => ctx.post({ ...clone(input.event), dice: memo.dice.slice() }), {
          class: "btn primary big", "data-action": "record-dice", disabled: !done,
        })));
  });

  // -- bid: an auction; the high bid, a new bid by seat on a horse, or the hammer ---------------------
  widget("bid", (input, ctx) => {
    const memo = ctx.memo;
    const horses = (input.horses || []).map((x) => (typeof x === "object" ? x : { value: x, label: F.handLabel(x) }));
    const labelOf = (v) => (horses.find((x) => x.value === v) || { label: F.handLabel(v) }).label;
    const high = input.high_bid;
    const lot = high ? high.horse || (horses.length === 1 ? horses[0].value : null) : null;
    if (!memo.horse || (lot && memo.horse !== lot)) memo.horse = lot || (horses.length === 1 ? horses[0].value : null);
    if (memo.stake === undefined) memo.stake = 0;
    const minimum = input.min || 0;
    const seats = seatsOf(input, ctx).filter((s) => !high || s !== high.seat);
    const bid = () => {
      if (!memo.horse) return ctx.showError(gettext("Tap the horse being bid on."));
      if (!memo.seat) return ctx.showError(gettext("Tap the bidder's seat."));
      if (!memo.stake) return ctx.showError(gettext("Tap chips or type the bid."));
      const event = setPath(clone(input.event || { bid: {} }), input.path || "bid.amount", memo.stake);
      const target = event.bid || event;
      target.seat = memo.seat;
      target.horse = memo.horse;
      ctx.post(event);
    };
    return h("div", { class: "bid" },
      high
        ? h("p", { class: "high-bid" }, fmt(lot ? gettext("%(horse)s: high bid %(amount)s by seat %(seat)s") : gettext("High bid %(amount)s by seat %(seat)s"), { horse: lot ? labelOf(lot) : "", amount: F.money(high.amount), seat: high.seat }))
        : h("p", { class: "high-bid" }, fmt(gettext("No bid yet: an opening bid is at least %(amount)s"), { amount: F.money(minimum) })),
      h("div", { class: "action-grid", "data-primary": "" },
        btn(memo.seat ? fmt(gettext("Bid for seat %(seat)s"), { seat: memo.seat }) : gettext("Bid"), bid, { class: "btn primary big", "data-action": "bid" }),
        input.sell && high ? btn(fmt(gettext("Sold to seat %(seat)s for %(amount)s"), { seat: high.seat, amount: F.money(high.amount) }), () => ctx.post(withBetId(clone(input.sell), ctx)), {
          class: "btn warn big", "data-action": "sell",
        }) : null),
      lot ? null : group(gettext("Horse"), "", h("div", { class: "type-grid" }, horses.map((x) => btn(x.label, () => { memo.horse = x.value; ctx.rerender(); }, {
        "aria-pressed": pressed(memo.horse === x.value), "data-horse": x.value,
      })))),
      group(gettext("Bidder"), "", h("div", { class: "seat-grid" }, seats.map((s) => btn(String(s), () => { memo.seat = s; ctx.rerender(); }, {
        class: "btn seat", "aria-pressed": pressed(memo.seat === s), "aria-label": fmt(gettext("Bidder seat %(seat)s"), { seat: s }),
      })))),
      stakeBox(ctx, memo, { min: minimum || (high ? high.amount + 1 : 0), label: gettext("Bid") }));
  });

  // -- bet fields, by the kind the engine declares for them -----------------------------------------
  const fieldName = (spec) => (spec.label ? F.label(F.capital(spec.label)) : F.capital(spec.name));
  const ranksOf = (spec) => (spec.ranks || F.RANKS.map((r) => ({ value: r, label: F.rankLabel(r) })));

  field("rank", (spec, value, set) => h("div", { class: "rank-grid small" }, ranksOf(spec).map((r) => btn(r.label, () => set(r.value), {
    class: "btn rank", "aria-pressed": pressed(value === r.value), "aria-label": `${fieldName(spec)}: ${F.rankName(r.value)}`,
  }))));

  field("ranks", (spec, value, set) => {
    const list = Array.isArray(value) ? value : [];
    const count = spec.count || 3;
    return h("div", { class: "ranks-field" },
      h("output", { class: "ranks-so-far", "aria-live": "polite" }, list.length ? list.map(F.rankLabel).join(" · ") : fmt(gettext("Tap %(n)s ranks in order"), { n: count })),
      h("div", { class: "rank-grid small" }, ranksOf(spec).map((r) => btn(r.label, () => set(list.length >= count ? [r.value] : [...list, r.value]), {
        class: "btn rank", "aria-label": fmt(gettext("%(field)s: add %(rank)s"), { field: fieldName(spec), rank: F.rankName(r.value) }),
      }))),
      btn(gettext("Clear"), () => set([]), { "aria-label": fmt(gettext("Clear the %(name)s"), { name: fieldName(spec).toLowerCase() }) }));
  });

  field("int", (spec, value, set) => {
    const lo = spec.min !== undefined ? spec.min : 0;
    const hi = spec.max !== undefined ? spec.max : lo + 12;
    const values = [];
    for (let n = lo; n <= hi && values.length < 40; n++) values.push(n);
    return h("div", { class: "type-grid" }, values.map((n) => btn(String(n), () => set(n), {
      "aria-pressed": pressed(value === n), "aria-label": `${fieldName(spec)}: ${n}`,
    })));
  });

  field("choice", (spec, value, set) => h("div", { class: "type-grid" }, (spec.options || []).map((o) => btn(o.label ? F.label(o.label) : F.capital(o.value), () => set(o.value), {
    "aria-pressed": pressed(value === o.value), "data-value": o.value,
  }))));

  field("bool", (spec, value, set) => btn(fieldName(spec), () => set(!value), {
    class: "btn toggle", "aria-pressed": pressed(!!value),
  }));

  /** The fields a bet type declares, each drawn by its kind. */
  function betFields(spec, values, set) {
    return (spec.fields || []).map((f) => {
      const draw = FIELDS[f.kind];
      if (!draw) return h("p", { class: "error" }, fmt(gettext("This screen cannot take the %(field)s of this bet."), { field: F.words(f.name) }));
      return group(fieldName(f), `field-${f.kind}`, draw(f, values[f.name], (v) => set(f.name, v)));
    });
  }

  CD.widgets = { WIDGETS, FIELDS, h, btn, group, stakeBox, betFields, setPath, withBetId, clone, pressed };
})();
