/* The dealer's screen: a thin client of the JSON API (/api/rounds/…), one action at a time.
 *
 * Every action carries a fresh Idempotency-Key and is retried with the same key until the server
 * answers, so a lost request or a lost answer never loses or duplicates an entry; the pending
 * action is kept in localStorage so a reload sends it again rather than forgetting it. The engine
 * is the only judge: the screen shows what it says next and its refusals, word for word.
 */
(() => {
  "use strict";

  const boot = JSON.parse(document.getElementById("dealer-boot").textContent);
  const $ = (id) => document.getElementById(id);
  const table = boot.table;
  const PENDING = `croupier.pending.${table.code}`;
  const csrf = document.querySelector('meta[name="csrf-token"]').content;

  const SUITS = { S: ["♠", "spades"], H: ["♥", "hearts"], D: ["♦", "diamonds"], C: ["♣", "clubs"] };
  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
  const RANK_NAMES = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };
  const ACTION_LABELS = {
    hit: "Hit", stand: "Stand", double: "Double", split: "Split", surrender: "Surrender",
    insurance: "Insurance", no_insurance: "No insurance", fold: "Fold", raise: "Raise", draw: "Draw",
    pull_back: "Pull back", call: "Call", check: "Check",
  };
  const PEEK_LABELS = { blackjack: "Peek: dealer has blackjack", no_blackjack: "Peek: no blackjack" };

  let round = boot.round;
  const sel = { seat: null, type: boot.bet_types.length ? boot.bet_types[0].type : null, stake: 0, rank: null, suit: null };
  let busy = false;

  // -- helpers ---------------------------------------------------------------------------------
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") el.className = v;
      else if (k === "text") el.textContent = v;
      else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) if (c !== null && c !== undefined) el.append(c);
    return el;
  }

  function money(minor) {
    const digits = boot.digits;
    const sign = minor < 0 ? "-" : "";
    const abs = Math.abs(minor);
    if (!digits) return sign + abs;
    const unit = 10 ** digits;
    return `${sign}${Math.floor(abs / unit)}.${String(abs % unit).padStart(digits, "0")}`;
  }

  /** "25", "25.5", "25.50" → minor units (exact, no floats); null if it is not an amount. */
  function parseMoney(text) {
    const digits = boot.digits;
    const m = new RegExp(`^\\s*(\\d+)(?:[.,](\\d{0,${digits}}))?\\s*$`).exec(String(text));
    if (!m) return null;
    const minor = Number(m[1]) * 10 ** digits + Number((m[2] || "").padEnd(digits, "0") || 0);
    return minor > 0 ? minor : null;
  }

  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    // plain-HTTP floors have no randomUUID (secure contexts only); getRandomValues is everywhere
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const x = [...b].map((v) => v.toString(16).padStart(2, "0")).join("");
    return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
  }

  function deviceId() {
    let id = localStorage.getItem("croupier.device");
    if (!id) {
      id = `tablet-${uuid().slice(0, 8)}`;
      localStorage.setItem("croupier.device", id);
    }
    return id;
  }

  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  function cardText(code) {
    const c = String(code);
    if (c.length === 2 && SUITS[c[1]]) return (c[0] === "T" ? "10" : c[0]) + SUITS[c[1]][0];
    return c;
  }

  function cardName(code) {
    const c = String(code);
    if (c.length === 2 && SUITS[c[1]]) return `${RANK_NAMES[c[0]] || c[0]} of ${SUITS[c[1]][1]}`;
    return `card ${c}`;
  }

  function handLabel(name) {
    let m = /^seat:(\d+):(\d+)$/.exec(name);
    if (m) return `Seat ${m[1]}, hand ${Number(m[2]) + 1}`;
    m = /^seat:(\d+)$/.exec(name);
    if (m) return `Seat ${m[1]}`;
    m = /^hand:(\d+)$/.exec(name);
    if (m) return `Hand ${m[1]}`;
    return name.charAt(0).toUpperCase() + name.slice(1).replace(/_/g, " ");
  }

  const words = (s) => String(s).replace(/_/g, " ");

  // -- talking to the server -------------------------------------------------------------------
  class Refused extends Error {
    constructor(status, error) {
      super(error && error.message ? error.message : `The server refused (${status})`);
      this.status = status;
      this.code = error && error.code;
      this.field = error && error.field;
    }
  }

  function showOffline(attempt, why) {
    $("offline").hidden = false;
    $("offline-text").textContent = `retrying (attempt ${attempt + 1}${why ? `, ${why}` : ""})…`;
    document.body.classList.add("is-offline");
  }

  function hideOffline() {
    $("offline").hidden = true;
    document.body.classList.remove("is-offline");
  }

  async function post(action) {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), 15000);
    try {
      return await fetch(action.path, {
        method: "POST",
        credentials: "same-origin",
        signal: ctl.signal,
        headers: {
          "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf,
          "Idempotency-Key": action.key, "X-Device-Id": deviceId(),
        },
        body: JSON.stringify(action.body || {}),
      });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Send until the server answers; a refusal (4xx) is an answer, a network error or 5xx is not. */
  async function deliver(action) {
    for (let attempt = 1; ; attempt++) {
      let resp;
      try {
        resp = await post(action);
      } catch (err) {
        showOffline(attempt, "no connection");
        await sleep(Math.min(400 * 2 ** (attempt - 1), 5000));
        continue;
      }
      if (resp.status >= 500 || resp.status === 408) {
        showOffline(attempt, `server ${resp.status}`);
        await sleep(Math.min(400 * 2 ** (attempt - 1), 5000));
        continue;
      }
      hideOffline();
      let data = null;
      try {
        data = await resp.json();
      } catch (err) {
        data = null;
      }
      if (!resp.ok) throw new Refused(resp.status, data && data.error);
      return data;
    }
  }

  async function refresh() {
    if (!round) return;
    try {
      const resp = await fetch(`/api/rounds/${round.id}/`, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (resp.ok) round = await resp.json();
    } catch (err) {
      /* offline: keep what we have */
    }
  }

  function setBusy(on) {
    busy = on;
    $("controls").disabled = on;
    $("dealer").setAttribute("aria-busy", on ? "true" : "false");
  }

  /** One action: a fresh key, kept until answered (not for approvals: no password at rest). */
  async function act(path, body, { keep = true, onRefused = null } = {}) {
    if (busy) return null;
    setBusy(true);
    showError("");
    const action = { path, body: body || {}, key: uuid() };
    if (keep) localStorage.setItem(PENDING, JSON.stringify(action));
    try {
      const data = await deliver(action);
      if (data && data.id) round = data;
      return data;
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      if (err.status === 403 && /credentials|authenticat/i.test(err.message)) {
        showError("Your session has ended: sign in again.");
      } else if (onRefused) {
        onRefused(err);
      } else {
        showError(err.message);
      }
      if (err.status === 409) await refresh();
      return null;
    } finally {
      if (keep) localStorage.removeItem(PENDING);
      setBusy(false);
      render();
    }
  }

  async function resumePending() {
    const raw = localStorage.getItem(PENDING);
    if (!raw) return;
    let action;
    try {
      action = JSON.parse(raw);
    } catch (err) {
      localStorage.removeItem(PENDING);
      return;
    }
    setBusy(true);
    try {
      const data = await deliver(action);
      if (data && data.id) round = data;
    } catch (err) {
      if (err instanceof Refused) showError(`The entry sent before the reload was refused: ${err.message}`);
    } finally {
      localStorage.removeItem(PENDING);
      setBusy(false);
    }
    await refresh();
  }

  function showError(message) {
    $("error").textContent = message;
    $("error").hidden = !message;
  }

  // -- actions ---------------------------------------------------------------------------------
  const roundUrl = (suffix) => `/api/rounds/${round.id}/${suffix}`;

  function openRound() {
    act("/api/rounds/", { table: table.id });
  }

  function placeBet() {
    if (sel.seat === null) return showError("Tap a seat first.");
    if (!sel.type) return showError("Choose the bet.");
    if (sel.stake <= 0) return showError("Tap chips to make the stake.");
    const body = { seat: sel.seat, type: sel.type, amount: sel.stake };
    for (const input of $("bet-extra").querySelectorAll("input")) {
      if (input.value === "") return showError(`Enter the ${input.dataset.field} for this bet.`);
      body[input.dataset.field] = Number.isNaN(Number(input.value)) ? input.value : Number(input.value);
    }
    act(roundUrl("bets/"), body).then((data) => {
      if (data) {
        sel.stake = 0;
        sel.seat = null;
        render();
      }
    });
  }

  function sendCard(code) {
    sel.rank = null;
    sel.suit = null;
    act(roundUrl("events/"), { card: code });
  }

  function tapRank(rank) {
    sel.rank = rank;
    if (sel.suit) sendCard(rank + sel.suit);
    else renderKeypad();
  }

  function tapSuit(suit) {
    sel.suit = suit;
    if (sel.rank) sendCard(sel.rank + suit);
    else renderKeypad();
  }

  function choose(next, action, extra) {
    const event = { action };
    if (next.seat !== null && next.seat !== undefined) event.seat = next.seat;
    if (next.hand !== null && next.hand !== undefined) event.hand = next.hand;
    Object.assign(event, extra || {});
    act(roundUrl("events/"), event);
  }

  function openUndo() {
    const events = (round && round.document && round.document.events) || [];
    const last = events[events.length - 1];
    $("undo-what").textContent = last && last.card
      ? `Take back ${cardName(last.card)} (entry ${events.length}).`
      : `Take back entry ${events.length}: ${JSON.stringify(last)}.`;
    $("undo-error").hidden = true;
    $("approver-username").value = "";
    $("approver-password").value = "";
    $("undo-dialog").showModal();
    $("approver-username").focus();
  }

  function submitUndo(ev) {
    ev.preventDefault();
    const body = { approver_username: $("approver-username").value, approver_password: $("approver-password").value };
    $("undo-submit").disabled = true;
    act(roundUrl("events/undo/"), body, {
      keep: false,
      onRefused: (err) => {
        $("undo-error").textContent = err.message;
        $("undo-error").hidden = false;
      },
    }).then((data) => {
      $("undo-submit").disabled = false;
      $("approver-password").value = "";
      if (data) $("undo-dialog").close();
    });
  }

  // -- building the fixed controls ----------------------------------------------------------------
  function buildControls() {
    const seats = $("seat-buttons");
    for (let s = 1; s <= table.seats; s++) {
      seats.append(h("button", {
        type: "button", class: "btn seat", "data-seat": s, "aria-label": `Seat ${s}`, "aria-pressed": "false",
        onclick: () => { sel.seat = sel.seat === s ? null : s; render(); },
      }, String(s)));
    }
    const types = $("type-buttons");
    for (const bt of boot.bet_types) {
      types.append(h("button", {
        type: "button", class: "btn bet-type", "data-type": bt.type, "aria-pressed": "false", title: bt.description,
        onclick: () => { sel.type = bt.type; render(); },
      }, words(bt.type)));
    }
    const chips = $("chip-buttons");
    for (const d of boot.chips) {
      chips.append(h("button", {
        type: "button", class: `btn chip chip-${d}`, "aria-label": `Add chip ${money(d)}`,
        onclick: () => { sel.stake += d; render(); },
      }, money(d)));
    }
    $("clear-stake").addEventListener("click", () => { sel.stake = 0; render(); });
    $("place-bet").addEventListener("click", placeBet);
    $("close-betting").addEventListener("click", () => act(roundUrl("close-betting/")));
    $("open-round").addEventListener("click", openRound);
    $("next-round").addEventListener("click", openRound);
    $("confirm-settle").addEventListener("click", () => act(roundUrl("settle/")));
    $("undo").addEventListener("click", openUndo);
    $("undo-form").addEventListener("submit", submitUndo);
    $("undo-cancel").addEventListener("click", () => $("undo-dialog").close());

    const ranks = $("rank-buttons");
    for (const r of RANKS) {
      const label = r === "T" ? "10" : r;
      ranks.append(h("button", {
        type: "button", class: "btn rank", "data-rank": r, "aria-pressed": "false",
        "aria-label": `Rank ${RANK_NAMES[r] || r}`, onclick: () => tapRank(r),
      }, label));
    }
    const suits = $("suit-buttons");
    for (const [code, [symbol, name]] of Object.entries(SUITS)) {
      suits.append(h("button", {
        type: "button", class: `btn suit suit-${code}`, "data-suit": code, "aria-pressed": "false",
        "aria-label": `Suit ${name}`, onclick: () => tapSuit(code),
      }, symbol));
    }
    const tri = $("triangle-buttons");
    for (let n = 1; n <= 10; n++) {
      tri.append(h("button", {
        type: "button", class: "btn rank", "aria-label": `Card ${n}`, onclick: () => sendCard(String(n)),
      }, String(n)));
    }
    $("stage-bet").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const betting = bettingOf((round.state && round.state.next) || {});
      if (!betting) return;
      const bet = { id: `x${uuid().slice(0, 8)}`, seat: Number($("stage-seat").value), type: $("stage-type").value };
      if (betting.amount) {
        bet.amount = betting.amount;
      } else {
        const amount = parseMoney($("stage-amount").value);
        if (amount === null) return showError("Enter the stake, e.g. 25.00.");
        bet.amount = amount;
      }
      for (const el of $("stage-fields").querySelectorAll("[data-field]")) {
        if (el.value === "") return showError(`Choose the ${words(el.dataset.field)}.`);
        bet[el.dataset.field] = el.dataset.numeric ? Number(el.value) : el.value;
      }
      act(roundUrl("events/"), { bet });
    });
    $("raw-event").addEventListener("submit", (ev) => {
      ev.preventDefault();
      let event;
      try {
        event = JSON.parse($("raw-event-text").value);
      } catch (err) {
        return showError("The entry is not valid JSON.");
      }
      act(roundUrl("events/"), event).then((data) => { if (data) $("raw-event-text").value = ""; });
    });
  }

  // -- rendering -------------------------------------------------------------------------------
  function phase() {
    if (!round || round.status === "voided") return "idle";
    if (round.status === "settled") return "settled";
    if (round.status === "open") return "bets";
    if (round.state && round.state.status === "settled") return "pay";
    return "deal";
  }

  const STATUS_WORDS = { open: "open for bets", betting_closed: "betting closed", dealing: "dealing", settled: "settled", voided: "voided" };

  function sayText(p) {
    const state = (round && round.state) || {};
    if (p === "idle") {
      if (table.status !== "open") return "The table is closed";
      return round && round.status === "voided" ? `Round #${round.number} was voided. Open a new round.` : "Open a round to take bets";
    }
    if (p === "pay") return `${state.say || "Round complete"}: pay and collect`;
    if (p === "settled") return `${state.say || "Round complete"} · settled`;
    return (state.next && state.next.say) || "";
  }

  function renderKeypad() {
    for (const b of $("rank-buttons").children) b.setAttribute("aria-pressed", String(b.dataset.rank === sel.rank));
    for (const b of $("suit-buttons").children) b.setAttribute("aria-pressed", String(b.dataset.suit === sel.suit));
    $("card-preview").textContent = sel.rank || sel.suit
      ? `${sel.rank ? (sel.rank === "T" ? "10" : sel.rank) : "?"}${sel.suit ? SUITS[sel.suit][0] : "?"}`
      : "";
  }

  function renderBets() {
    for (const b of $("seat-buttons").children) b.setAttribute("aria-pressed", String(Number(b.dataset.seat) === sel.seat));
    for (const b of $("type-buttons").children) b.setAttribute("aria-pressed", String(b.dataset.type === sel.type));
    const spec = boot.bet_types.find((t) => t.type === sel.type);
    const extra = $("bet-extra");
    const wanted = spec ? spec.required : [];
    if (extra.dataset.type !== sel.type) {
      extra.replaceChildren(...wanted.map((f) => h("label", {}, `${words(f)} `,
        h("input", { type: "number", inputmode: "numeric", "data-field": f, "aria-label": `Bet ${words(f)}` }))));
      extra.dataset.type = sel.type || "";
    }
    $("stake").textContent = money(sel.stake);
    const hint = $("stake-hint");
    hint.className = "hint";
    if (sel.stake > table.max_bet) {
      hint.textContent = `Over the table maximum ${money(table.max_bet)}`;
      hint.classList.add("bad");
    } else if (sel.stake > 0 && sel.stake < table.min_bet) {
      hint.textContent = `Under the table minimum ${money(table.min_bet)}`;
      hint.classList.add("bad");
    } else {
      hint.textContent = sel.seat ? `Seat ${sel.seat} · ${words(sel.type || "")}` : "Tap a seat";
    }
    $("place-bet").disabled = sel.stake <= 0 || sel.seat === null;
  }

  /** The betting window an engine opens between stages (Carousel rounds, the Horse Race), if any. */
  function bettingOf(next) {
    if (next.betting) return next.betting;
    return next.expect === "bet" ? next : null;
  }

  function renderStage(betting) {
    const fields = $("stage-fields");
    const key = JSON.stringify(betting);
    if (fields.dataset.key === key) return; // keep the dealer's choices while the window is the same
    fields.dataset.key = key;
    const select = (id, label, values, text, attrs) => [
      h("label", { for: id }, label),
      h("select", { id, ...(attrs || {}) }, values.map((v) => h("option", { value: v }, text(v)))),
    ];
    const seats = betting.seats || Array.from({ length: table.seats }, (_, i) => i + 1);
    const types = betting.bet_types || boot.bet_types.map((t) => t.type);
    const extra = h("span", { id: "stage-extra", class: "stage-extra" });
    const fillExtra = () => {
      const spec = boot.bet_types.find((t) => t.type === $("stage-type").value);
      const parts = [];
      for (const f of (spec && spec.required) || []) {
        const id = `stage-${f}`;
        if (f === "number" && betting.numbers) {
          const [lo, hi] = betting.numbers;
          const nums = [];
          for (let n = lo; n <= hi; n++) nums.push(n);
          parts.push(...select(id, words(f), nums, String, { "data-field": f, "data-numeric": "1" }));
        } else if (f === "horse" && betting.odds) {
          parts.push(...select(id, words(f), Object.keys(betting.odds), (v) => (SUITS[v] ? `${SUITS[v][0]} ${SUITS[v][1]}` : v), { "data-field": f }));
        } else {
          parts.push(h("label", { for: id }, words(f)), h("input", { id, "data-field": f, size: "6" }));
        }
      }
      extra.replaceChildren(...parts);
    };
    fields.replaceChildren(
      ...select("stage-seat", "Seat", seats, (s) => `Seat ${s}`),
      ...select("stage-type", "Bet", types, words, { onchange: fillExtra }),
      extra,
      betting.amount
        ? h("span", {}, "Stake ", h("output", { id: "stage-amount" }, money(betting.amount)))
        : h("span", {}, h("label", { for: "stage-amount" }, "Stake "), h("input", { id: "stage-amount", inputmode: "decimal", size: "8" })),
    );
    fillExtra();
  }

  function renderDeal() {
    const next = (round.state && round.state.next) || {};
    const actions = $("actions");
    actions.replaceChildren();
    const expect = next.expect;
    if (expect === "action") {
      if (next.results) {
        for (const r of next.results) {
          actions.append(h("button", { type: "button", class: "btn primary big", onclick: () => choose(next, "peek", { result: r }) },
            PEEK_LABELS[r] || words(r)));
        }
      } else {
        for (const a of next.allowed || []) {
          actions.append(h("button", { type: "button", class: `btn big action-${a}`, onclick: () => choose(next, a) },
            ACTION_LABELS[a] || words(a)));
        }
      }
    }
    const betting = bettingOf(next);
    const cardDue = expect === "card" || (expect === "bet" && next.card_to);
    $("keypad-standard").hidden = !(cardDue && boot.deck === "standard");
    $("keypad-triangle").hidden = !(cardDue && boot.deck === "triangle");
    $("stage-bet").hidden = !betting;
    if (betting) renderStage(betting);
    $("raw-event").hidden = ["card", "action", "bet"].includes(expect);
    renderKeypad();
  }

  function payRows(state) {
    return [...(state.bets || [])].sort((a, b) => (a.seat || 0) - (b.seat || 0) || String(a.id).localeCompare(String(b.id)));
  }

  function renderPay(settledAlready) {
    const state = round.state || {};
    const body = $("pay-list").tBodies[0];
    const rows = payRows(state);
    let pay = 0;
    let collect = 0;
    let commission = 0;
    body.replaceChildren(...rows.map((r) => {
      const net = r.net || 0;
      const stake = r.staked || r.amount || 0;
      commission += r.commission || 0;
      let what;
      let cls;
      if (net > 0) {
        pay += net;
        what = `Pay ${money(net)}`;
        cls = "pay";
      } else if (net < 0) {
        collect += -net;
        what = `Collect ${money(-net)}`;
        cls = "collect";
      } else {
        what = "Push: stake stays";
        cls = "push";
      }
      return h("tr", { class: cls, "data-seat": r.seat, "data-bet": r.id },
        h("th", { scope: "row" }, `Seat ${r.seat}`), h("td", {}, words(r.type || "")), h("td", { class: "num" }, money(stake)),
        h("td", { class: "col-result" }, words(r.result || "")), h("td", { class: "num what" }, what),
        h("td", { class: "num" }, r.commission ? money(r.commission) : "—"));
    }));
    $("pay-list").tFoot.replaceChildren(h("tr", {},
      h("th", { scope: "row", colspan: "3" }, "Totals"), h("td", { class: "col-result" }),
      h("td", { class: "num" }, `Pay ${money(pay)} · collect ${money(collect)}`),
      h("td", { class: "num" }, money(commission))));
    $("confirm-settle").hidden = settledAlready;
    $("next-round").hidden = !settledAlready;
  }

  function renderHands() {
    const hands = (round && round.state && round.state.hands) || {};
    const box = $("hands");
    const names = Object.keys(hands);
    if (!names.length) {
      box.replaceChildren(h("p", { class: "muted" }, round && round.status !== "open" ? "No cards yet." : "Cards appear here as they are dealt."));
      return;
    }
    box.replaceChildren(...names.map((name) => {
      const hand = hands[name] || {};
      const cards = Array.isArray(hand.cards) ? hand.cards : [];
      return h("div", { class: "hand", "data-hand": name },
        h("span", { class: "hand-name" }, handLabel(name)),
        h("span", { class: "cards" }, cards.map((c) => h("span", {
          class: `card-face ${/[HD]$/.test(c) ? "red" : ""}`, role: "img", "aria-label": cardName(c),
        }, cardText(c)))),
        hand.total !== undefined && hand.total !== null ? h("span", { class: "total", "aria-label": `total ${hand.total}` }, String(hand.total)) : null);
    }));
  }

  function renderPlaced() {
    const doc = (round && round.document) || { bets: [], events: [] };
    const bets = [...(doc.bets || []), ...(doc.events || []).filter((e) => e.bet).map((e) => e.bet)];
    $("bets-list").replaceChildren(...bets.map((b) => h("li", { "data-bet": b.id },
      h("span", {}, `Seat ${b.seat}`), h("span", {}, words(b.type)), h("span", { class: "num" }, money(b.amount)))));
    const total = bets.reduce((s, b) => s + (b.amount || 0), 0);
    $("bets-total").textContent = bets.length ? `${bets.length} bet${bets.length > 1 ? "s" : ""} · ${money(total)}` : "No bets yet.";
  }

  function render() {
    const p = phase();
    $("dealer").dataset.phase = p;
    $("panel-idle").hidden = p !== "idle";
    $("panel-bets").hidden = p !== "bets";
    $("panel-deal").hidden = p !== "deal";
    $("panel-pay").hidden = !(p === "pay" || p === "settled");
    $("say").textContent = sayText(p);
    $("round-label").textContent = round && p !== "idle"
      ? `Round #${round.number} · ${STATUS_WORDS[round.status] || round.status}`
      : (round ? `Last round #${round.number} · ${STATUS_WORDS[round.status] || round.status}` : "No round yet");
    $("open-round").disabled = table.status !== "open";
    if (p === "bets") renderBets();
    if (p === "deal") renderDeal();
    if (p === "pay" || p === "settled") renderPay(p === "settled");
    renderHands();
    renderPlaced();
    const events = (round && round.document && round.document.events) || [];
    const last = events[events.length - 1];
    // a between-stage bet is a financial record: the server refuses to undo it, so no button for it
    $("undo").hidden = !((p === "deal" || p === "pay") && last && !last.bet);
    if (busy) $("controls").disabled = true;
  }

  window.addEventListener("online", hideOffline);
  buildControls();
  render();
  resumePending().then(() => {
    setBusy(false);
    render();
  });
})();
