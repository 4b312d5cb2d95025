/* The dealer's screen: a thin client of the JSON API (/api/rounds/…), one action at a time.
 *
 * Every action carries a fresh Idempotency-Key and is retried with the same key until the server
 * answers, so a lost request or a lost answer never loses or duplicates an entry; the pending
 * action is kept in localStorage so a reload sends it again rather than forgetting it. The engine
 * is the only judge: the screen draws the input its `next` names (dealer/widgets.js, one widget per
 * kind, no code per game) and shows its refusals in the dealer's words (dealer/format.js).
 */
(() => {
  "use strict";

  const CD = window.CroupierDealer;
  const F = CD.format;
  const W = CD.widgets;
  const P = CD.paylist;
  const { h, btn } = W;
  const { gettext, ngettext, fmt } = F;
  const boot = CD.boot;
  const $ = (id) => document.getElementById(id);
  const table = boot.table;
  const PENDING = `croupier.pending.${table.code}`;
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const WITHDRAW_REASONS = [gettext("The player took the bet back"), gettext("Entered by mistake")];
  const VOID_REASONS = [gettext("Misdeal"), gettext("A card was exposed"), gettext("Wrong bets recorded"), gettext("Wrong card entered")];

  let round = boot.round;
  let busy = false;
  let stepKey = "";
  let memo = {}; // what the dealer has tapped in the current step (widgets.js)
  const betSel = { seat: null, type: boot.bet_types.length ? boot.bet_types[0].type : null, stake: 0, fields: {}, correcting: null };
  const stageSel = { seat: null, type: null, stake: 0, fields: {} };
  let pollTimer = null;

  // -- helpers ---------------------------------------------------------------------------------
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
  const nextStep = () => (round && round.state && round.state.next) || {};
  const specOf = (type) => boot.bet_types.find((t) => t.type === type) || { type, fields: [] };

  // -- talking to the server -------------------------------------------------------------------
  class Refused extends Error {
    constructor(status, error) {
      super(error && error.message ? error.message : fmt(gettext("The server refused (%(status)s)"), { status }));
      this.status = status;
      this.error = error || { code: "error" };
    }
  }

  function showOffline(attempt, why) {
    $("offline").hidden = false;
    $("offline-text").textContent = why
      ? fmt(gettext("retrying (attempt %(n)s, %(why)s)…"), { n: attempt + 1, why })
      : fmt(gettext("retrying (attempt %(n)s)…"), { n: attempt + 1 });
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
        showOffline(attempt, gettext("no connection"));
        await sleep(Math.min(400 * 2 ** (attempt - 1), 5000));
        continue;
      }
      if (resp.status >= 500 || resp.status === 408) {
        showOffline(attempt, fmt(gettext("server %(status)s"), { status: resp.status }));
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

  async function getJson(path) {
    const resp = await fetch(path, { credentials: "same-origin", headers: { Accept: "application/json" } });
    const data = await resp.json().catch(() => null);
    if (!resp.ok) throw new Refused(resp.status, data && data.error);
    return data;
  }

  async function refresh() {
    if (!round) return;
    try {
      round = await getJson(`/api/rounds/${round.id}/`);
    } catch (err) {
      /* offline: keep what we have */
    }
  }

  function setBusy(on) {
    busy = on;
    $("controls").disabled = on;
    $("dealer").setAttribute("aria-busy", on ? "true" : "false");
  }

  /** The refusal in the dealer's words, with what the engine asks for now. */
  function wordsFor(err) {
    return F.refusal(err.error, { next: (round && round.words && round.words.next) || F.sayMoney(nextStep().say || "", nextStep()), table: table.code });
  }

  /** One action: a fresh key, kept until answered (not for approvals: no password at rest). */
  async function act(path, body, { keep = true, onRefused = null } = {}) {
    if (busy) return null;
    setBusy(true);
    showError("");
    const action = { path, body: body || {}, key: uuid() };
    if (keep) localStorage.setItem(PENDING, JSON.stringify(action));
    const before = decidedIds(round);
    try {
      const data = await deliver(action);
      if (data && data.id) {
        if (round && data.id === round.id) noteDecided(before, data);
        round = data;
      }
      return data;
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      if (err.status === 403 && /credentials|authenticat/i.test(err.message)) {
        showError(F.refusal({ code: "not_authenticated" }));
      } else if (onRefused) {
        onRefused(err);
      } else {
        showError(wordsFor(err));
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
      if (err instanceof Refused) showError(fmt(gettext("The entry sent before the reload was refused: %(why)s"), { why: wordsFor(err) }));
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
  const postEvent = (event) => act(roundUrl("events/"), event);

  function openRound() {
    betSel.correcting = null;
    act("/api/rounds/", { table: table.id });
  }

  /** The bet the panel's taps make, or null (and the dealer is told what is missing). */
  function betBody(sel, spec) {
    if (sel.seat === null) return showError(gettext("Tap a seat first."));
    if (!sel.type) return showError(gettext("Tap the bet."));
    const amount = spec.amount || sel.stake;
    if (!amount) return showError(gettext("Tap chips to make the stake."));
    const body = { seat: sel.seat, type: sel.type, amount };
    for (const f of spec.fields || []) {
      const v = sel.fields[f.name];
      const missing = v === undefined || v === null || (Array.isArray(v) && v.length < (f.count || 1));
      const required = f.required !== false && f.kind !== "bool";
      if (missing && required) return showError(fmt(gettext("Tap the %(field)s of this bet."), { field: F.label(f.label || F.words(f.name)).toLowerCase() }));
      if (!missing && !(f.kind === "bool" && v === false)) body[f.name] = v;
    }
    return body;
  }

  function placeBet() {
    const body = betBody(betSel, specOf(betSel.type));
    if (!body) return;
    const correcting = betSel.correcting;
    const request = correcting
      ? act(roundUrl("bets/withdraw/"), { bet: correcting.id, reason: "Corrected", replacement: body })
      : act(roundUrl("bets/"), body);
    request.then((data) => {
      if (data) {
        betSel.stake = 0;
        betSel.typed = "";
        betSel.seat = null;
        betSel.fields = {};
        betSel.correcting = null;
        render();
      }
    });
  }

  function startCorrection(bet) {
    betSel.correcting = bet;
    betSel.seat = bet.seat;
    betSel.type = bet.type;
    betSel.stake = bet.amount;
    betSel.fields = {};
    for (const f of specOf(bet.type).fields || []) if (bet[f.name] !== undefined) betSel.fields[f.name] = bet[f.name];
    render();
    $("place-bet-submit").focus();
  }

  function openWithdraw(bet, between = false) {
    $("withdraw-what").textContent = fmt(gettext("Seat %(seat)s: %(bet)s %(amount)s"), { seat: bet.seat, bet: F.betName(bet.type), amount: F.money(bet.amount) });
    const box = $("withdraw-reasons");
    box.replaceChildren(...WITHDRAW_REASONS.map((reason) => btn(reason, () => {
      $("withdraw-dialog").close();
      if (between) postEvent({ withdraw: { bet: bet.id, reason } });
      else act(roundUrl("bets/withdraw/"), { bet: bet.id, reason });
    }, { class: "btn warn wide" })));
    $("withdraw-dialog").showModal();
  }

  function openVoid() {
    $("void-error").hidden = true;
    $("void-other").value = "";
    const box = $("void-reasons");
    box.replaceChildren(...VOID_REASONS.map((reason) => btn(reason, () => requestVoid(reason), { class: "btn warn wide" })));
    $("void-dialog").showModal();
  }

  function requestVoid(reason) {
    if (!reason || !reason.trim()) {
      $("void-error").textContent = F.refusal({ code: "reason_required" });
      $("void-error").hidden = false;
      return;
    }
    act(roundUrl("void/"), { reason: reason.trim() }, {
      onRefused: (err) => {
        $("void-error").textContent = wordsFor(err);
        $("void-error").hidden = false;
      },
    }).then((data) => {
      if (data) $("void-dialog").close();
    });
  }

  // -- the supervisor's approval: their name from the pit's managers, their PIN on a pad ----------------
  // (the PIN lives in this closure only while the dialog is open: never in localStorage, never in the DOM)
  const approval = { who: null, pin: "" };
  const PIN_MAX = 12;

  function drawApproval() {
    const people = boot.supervisors || [];
    const signable = people.filter((p) => p.pin);
    if (!approval.who && signable.length === 1) approval.who = signable[0].username;
    $("approver-none").hidden = signable.length > 0;
    $("approver-list").replaceChildren(...people.map((p) => btn(p.pin ? p.name : fmt(gettext("%(name)s (no PIN set)"), { name: p.name }), () => {
      approval.who = p.username;
      drawApproval();
    }, {
      class: "btn approver", role: "radio", "aria-checked": approval.who === p.username ? "true" : "false",
      "data-username": p.username, disabled: !p.pin,
    })));
    $("pin-dots").textContent = approval.pin ? "•".repeat(approval.pin.length) : "—";
    $("pin-dots").setAttribute("aria-label", approval.pin ? fmt(ngettext("%(n)s digit typed", "%(n)s digits typed", approval.pin.length), { n: approval.pin.length }) : gettext("No digit typed"));
    $("undo-submit").disabled = !(approval.who && approval.pin.length >= 4);
  }

  function pinKey(key) {
    if (/^[0-9]$/.test(key)) { if (approval.pin.length < PIN_MAX) approval.pin += key; }
    else if (key === "back") approval.pin = approval.pin.slice(0, -1);
    else if (key === "clear") approval.pin = "";
    $("undo-error").hidden = true;
    drawApproval();
  }

  function buildPinPad() {
    const keys = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "clear", "0", "back"];
    const label = { clear: gettext("Clear the PIN"), back: gettext("Delete the last digit") };
    const text = { clear: gettext("Clear"), back: "⌫" };
    $("pin-pad").replaceChildren(...keys.map((k) => btn(text[k] || k, () => pinKey(k), {
      class: `btn pin-key pin-${/^[0-9]$/.test(k) ? "digit" : k}`, "aria-label": label[k] || fmt(gettext("Digit %(k)s"), { k }), "data-key": k,
    })));
    // a hardware keypad types the PIN too; Enter approves
    $("undo-dialog").addEventListener("keydown", (ev) => {
      if (/^[0-9]$/.test(ev.key)) { ev.preventDefault(); pinKey(ev.key); }
      else if (ev.key === "Backspace") { ev.preventDefault(); pinKey("back"); }
    });
    $("undo-dialog").addEventListener("close", () => { approval.pin = ""; });
  }

  function openUndo() {
    const events = (round && round.document && round.document.events) || [];
    const last = events[events.length - 1] || {};
    $("undo-what").textContent = last.card
      ? fmt(gettext("Take back %(card)s (entry %(n)s)."), { card: F.cardName(last.card), n: events.length })
      : (last.action ? fmt(gettext("Take back entry %(n)s: %(action)s."), { n: events.length, action: F.label(F.words(last.action)) })
        : fmt(gettext("Take back entry %(n)s."), { n: events.length }));
    $("undo-error").hidden = true;
    approval.pin = "";
    drawApproval();
    $("undo-dialog").showModal();
    const first = $("approver-list").querySelector("[aria-checked='true']") || $("approver-list").querySelector("button:not([disabled])");
    if (first) first.focus();
  }

  function submitUndo(ev) {
    ev.preventDefault();
    if (!approval.who) return;
    const body = { approver_username: approval.who, approver_pin: approval.pin };
    $("undo-submit").disabled = true;
    act(roundUrl("events/undo/"), body, {
      keep: false,
      onRefused: (err) => {
        $("undo-error").textContent = wordsFor(err);
        $("undo-error").hidden = false;
      },
    }).then((data) => {
      approval.pin = "";
      drawApproval();
      if (data) $("undo-dialog").close();
    });
  }

  /** A dry run of a set hand: the engine says at once whether it fouls and why (nothing is written). */
  async function checkSet(input, setMemo) {
    const hands = {};
    for (const hand of input.hands || []) hands[hand.name] = setMemo.placed[hand.name];
    const params = new URLSearchParams({ seat: String(input.seat), hands: JSON.stringify(hands) });
    try {
      setMemo.verdict = await getJson(roundUrl(`set-check/?${params}`));
    } catch (err) {
      setMemo.verdict = err instanceof Refused ? { ok: false, reason: wordsFor(err) } : null;
    }
    render();
  }

  // -- the widget context ------------------------------------------------------------------------
  // what the hardware keys do in the step on screen (the card widget fills it as it draws)
  let keys = {};

  /** The last card entered in this round, for the "Again" key. */
  function lastCard() {
    const events = (round && round.document && round.document.events) || [];
    for (let i = events.length - 1; i >= 0; i--) if (events[i].card) return String(events[i].card);
    return null;
  }

  /** A hardware keypad or keyboard enters a card as rank then suit (A 2-9 T/0 J Q K, then S H D C; X the
   * joker; Esc clears); at the 1-10 pad, 1 to 9 and 0 for 10. Never while a dialog is open or a field typed in. */
  function onKey(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || busy || document.querySelector("dialog[open]")) return;
    const target = ev.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    const card = keys.card;
    if (!card || phase() !== "deal") return;
    const k = ev.key.length === 1 ? ev.key.toUpperCase() : ev.key;
    if (card.triangle) {
      if (/^[0-9]$/.test(k)) { ev.preventDefault(); card.triangle(k === "0" ? "10" : k); }
      return;
    }
    if (k === "Escape") { card.clear(); return; }
    if (k === "X" && card.joker) { ev.preventDefault(); card.joker(); return; }
    if ("SHDC".includes(k) && k.length === 1) { ev.preventDefault(); card.suit(k); return; }
    const rank = k === "0" || k === "1" ? "T" : k;
    if (rank.length === 1 && F.RANKS.includes(rank)) { ev.preventDefault(); card.rank(rank); }
  }

  function context() {
    return {
      keys, decks: boot.decks || 1, lastCard,
      table, chips: boot.chips, memo, state: round.state, round,
      post: postEvent, rerender: render, showError, checkSet,
      newBetId: () => `x${uuid().slice(0, 8)}`,
    };
  }

  /** The input the step asks for: the engine's `input`, or (an engine without one) its card or choices. */
  function inputOf(next) {
    if (next.input) return next.input;
    if (next.expect === "card") return { kind: "card", to: next.to, deck: boot.deck };
    if (next.expect === "action") {
      const base = {};
      if (next.seat !== null && next.seat !== undefined) base.seat = next.seat;
      if (next.hand !== null && next.hand !== undefined && !Array.isArray(next.hand)) base.hand = next.hand;
      const options = next.results
        ? next.results.map((r) => ({ value: r, label: F.capital(r), event: { action: "peek", result: r } }))
        : (next.allowed || []).map((a) => ({ value: a, label: F.capital(a), event: { ...base, action: a } }));
      return { kind: "choice", seat: next.seat, options };
    }
    return { kind: next.expect || "none" };
  }

  // -- the bet panel: before the deal, and between stages where the engine takes bets --------------
  /** `specs`: the bets the panel takes, each {type, label, fields, amount (fixed, or null), seats (or null)}. */
  function betPanel(sel, { specs, submitLabel, onSubmit, idPrefix, extra }) {
    if (!sel.type || !specs.some((x) => x.type === sel.type)) sel.type = specs.length ? specs[0].type : null;
    const spec = specs.find((x) => x.type === sel.type) || { fields: [] };
    const taken = new Set(spec.seats_taken || []);
    // the engine's table now (who holds the bank, whose turn, what each seat may do): every seat is shown,
    // those that may not take this bet now marked, and a tap on one says the rule instead of sending it
    const now = round && round.table_now;
    const seatNow = (s) => (now && now.seats ? now.seats.find((x) => x.seat === s) : null);
    const barredWhy = (s) => {
      const n = seatNow(s);
      return n && !(n.bets || []).includes(sel.type) ? (n.why ? F.label(n.why) : fmt(gettext("Seat %(seat)s cannot take this bet now"), { seat: s })) : null;
    };
    const seats = now && now.seats
      ? now.seats.map((x) => x.seat)
      : (spec.seats || Array.from({ length: table.seats }, (_, i) => i + 1)).filter((s) => !taken.has(s));
    const setField = (name, value) => { sel.fields[name] = value; render(); };
    const stakeMemo = {
      get stake() { return sel.stake; }, set stake(v) { sel.stake = v; },
      get typed() { return sel.typed; }, set typed(v) { sel.typed = v; },
    };
    const limits = spec.limits_apply !== false;
    const stake = spec.amount
      ? h("p", { class: "stake-fixed" }, fmt(gettext("Stake %(amount)s (fixed)"), { amount: F.money(spec.amount) }))
      : W.stakeBox({ ...context(), memo: stakeMemo }, stakeMemo, { min: limits ? table.min_bet : null, max: limits ? table.max_bet : null });
    return h("div", { class: "bet-panel", id: `${idPrefix}-panel` },
      h("div", { class: "bet-actions" },
        btn(submitLabel(sel), () => onSubmit(spec), { class: "btn primary big", id: `${idPrefix}-submit`, "data-primary": "" }),
        extra || null),
      W.group(gettext("Seat"), "", h("div", { class: "seat-grid" }, seats.map((s) => {
        const why = barredWhy(s);
        const role = now && now.bank === s ? "bank" : now && now.button === s ? "button" : null;
        return btn([String(s), role ? h("span", { class: "seat-role" }, role === "bank" ? " Bank" : " Button") : null], () => {
          if (why) { sel.seat = null; render(); showError(`${why}.`); return; }
          sel.seat = sel.seat === s ? null : s;
          render();
        }, {
          class: `btn seat${why ? " barred" : ""}`, "data-seat": s, "aria-label": fmt(gettext("Seat %(seat)s"), { seat: s }), "aria-pressed": W.pressed(sel.seat === s),
          "aria-disabled": why ? "true" : null, title: why,
        });
      }))),
      specs.length > 1 ? W.group(gettext("Bet"), "", h("div", { class: "type-grid" }, specs.map((x) => btn(x.label ? F.label(x.label) : F.betName(x.type), () => { sel.type = x.type; sel.fields = {}; render(); }, {
        class: "btn bet-type", "data-type": x.type, "aria-pressed": W.pressed(sel.type === x.type), title: x.description ? F.label(x.description) : null,
      })))) : null,
      W.betFields(spec, sel.fields, setField),
      stake);
  }

  function preDealPanel() {
    const specs = boot.bet_types.filter((t) => t.before_deal !== false);
    if (!specs.length) {
      return h("div", { class: "bet-panel" },
        h("div", { class: "bet-actions" }, btn(gettext("No more bets"), () => act(roundUrl("close-betting/")), {
          class: "btn warn big", id: "close-betting", "data-primary": "",
        })),
        h("p", { class: "muted" }, gettext("At this game the bets are taken during the deal: close betting to start it.")));
    }
    return betPanel(betSel, {
      specs, submitLabel: (sel) => (sel.correcting ? gettext("Save correction") : gettext("Place bet")), onSubmit: placeBet, idPrefix: "place-bet",
      extra: betSel.correcting
        ? btn(gettext("Cancel correction"), () => { betSel.correcting = null; betSel.stake = 0; betSel.seat = null; render(); })
        : btn(gettext("No more bets"), () => act(roundUrl("close-betting/")), { class: "btn warn big", id: "close-betting", "data-primary": "" }),
    });
  }

  /** Bets the engine takes now as events (between Faro turns, a Carousel betting round, the horse race's book). */
  function stagePanel(open) {
    const submit = (spec) => {
      const body = betBody(stageSel, spec);
      if (!body) return;
      const event = W.clone(spec.event || { bet: {} });
      event.bet = { ...(event.bet || {}), ...body };
      if (!event.bet.id || stageSel.correcting) event.bet.id = `x${uuid().slice(0, 8)}`;
      // a correction of a bet placed this betting round: the engine plays it where the first one was
      if (stageSel.correcting) event.bet.replaces = stageSel.correcting.id;
      act(roundUrl("events/"), event).then((data) => {
        if (data) { stageSel.seat = null; stageSel.stake = 0; stageSel.typed = ""; stageSel.fields = {}; stageSel.correcting = null; render(); }
      });
    };
    const cancel = () => { stageSel.correcting = null; stageSel.seat = null; stageSel.stake = 0; stageSel.fields = {}; render(); };
    return h("section", { class: "stage-bets", "aria-label": gettext("Bets taken now") },
      h("h3", {}, stageSel.correcting ? gettext("Correct a bet") : gettext("Bets taken now")),
      betPanel(stageSel, {
        specs: open, idPrefix: "stage-bet", onSubmit: submit,
        submitLabel: () => (stageSel.correcting ? gettext("Save correction") : gettext("Record bet")),
        extra: stageSel.correcting ? btn(gettext("Cancel correction"), cancel, { id: "stage-bet-cancel" }) : null,
      }));
  }

  /** The bets placed between stages still in play (corrections and withdrawals applied, as the engine
   * replays them), each with whether it may still be corrected: no card has been entered since. */
  function betsBetween(events) {
    const live = [];
    let cards = 0;
    for (const e of events) {
      if (e.withdraw) {
        const i = live.findIndex((x) => x.bet.id === e.withdraw.bet);
        if (i >= 0) live.splice(i, 1);
        continue;
      }
      if (e.bet && e.bet.replaces) {
        const i = live.findIndex((x) => x.bet.id === e.bet.replaces);
        const bet = { ...e.bet };
        delete bet.replaces;
        if (i >= 0) live[i] = { bet, cards: live[i].cards };
        continue;
      }
      if (e.card !== undefined || e.dice !== undefined) cards += 1;
      if (e.bet) live.push({ bet: e.bet, cards });
    }
    return live.map((x) => ({ bet: x.bet, open: x.cards === cards }));
  }

  function startStageCorrection(bet) {
    stageSel.correcting = bet;
    stageSel.seat = bet.seat;
    stageSel.type = bet.type;
    stageSel.stake = bet.amount;
    stageSel.fields = {};
    for (const f of specOf(bet.type).fields || []) if (bet[f.name] !== undefined) stageSel.fields[f.name] = bet[f.name];
    render();
  }

  // -- bets decided during the deal: said at that moment, with what to pay and take ------------------
  let decidedNow = { key: null, rows: [] };

  const decidedIds = (r) => new Set(((r && r.state && r.state.bets) || []).filter((b) => b.result).map((b) => b.id));

  /** After an action: the bets it decided (a faro turn, a pot bet's card, a fold) become the announcement. */
  function noteDecided(before, data) {
    const state = data.state || {};
    if (state.status === "settled") { decidedNow = { key: null, rows: [] }; return; }
    const fresh = (state.bets || []).filter((b) => b.result && b.result !== "withdrawn" && !before.has(b.id));
    if (fresh.length) decidedNow = { key: (data.document.events || []).length, rows: fresh };
  }

  /** The faro turn just dealt, from the engine's state alone (so it survives a reload). */
  function lastTurn(state) {
    const turns = (state.hands && state.hands.turns) || [];
    const done = turns.filter((t) => t.winner);
    return done.length ? done[done.length - 1] : null;
  }

  const rankWord = (r) => F.RANK_NAMES[r] || F.rankLabel(r);

  /** What a bet is on, in words: the rank (king, not K), coppered, the order called, the horse, the number. */
  function betDetail(b) {
    const parts = [];
    if (b.rank) parts.push(rankWord(b.rank));
    if (b.coppered) parts.push(gettext("coppered"));
    if (Array.isArray(b.order)) parts.push(b.order.map(rankWord).join(", "));
    if (b.horse) parts.push(F.handLabel(b.horse));
    if (b.number !== undefined && b.number !== null) parts.push(fmt(gettext("number %(n)s"), { n: b.number }));
    if (b.hand !== undefined && b.hand !== null && typeof b.hand !== "object") parts.push(fmt(gettext("hand %(n)s"), { n: b.hand }));
    return parts.join(", ");
  }

  /** One decided bet in the dealer's words: who, on what, the result and what to hand over now. */
  function decidedLine(state, row) {
    const who = row.rank
      ? fmt(row.coppered ? gettext("Seat %(seat)s on the %(rank)s (coppered)") : gettext("Seat %(seat)s on the %(rank)s"), { seat: row.seat, rank: rankWord(row.rank) })
      : fmt(gettext("Seat %(seat)s (%(bet)s)"), { seat: row.seat, bet: [F.betName(row.type).toLowerCase(), betDetail(row)].filter(Boolean).join(", ") });
    const moved = row.handover;
    if (moved) {
      const where = P.placeOf(state, moved);
      const tray = where === P.TRAY;
      const v = { who, where, amount: F.money(moved.at_bet), take: F.money(moved.take), pay: F.money(moved.pay) };
      if (row.result === "anted") return [fmt(tray ? gettext("%(who)s antes %(amount)s.") : gettext("%(who)s antes %(amount)s into %(where)s."), v), "done"];
      if (row.result === "forfeit") return [fmt(tray ? gettext("%(who)s passes: %(amount)s forfeit.") : gettext("%(who)s passes: %(amount)s forfeit into %(where)s."), v), "collect"];
      if (row.result === "split" && moved.take >= row.amount) return [fmt(tray ? gettext("%(who)s split: take all %(take)s.") : gettext("%(who)s split: take all %(take)s into %(where)s."), v), "collect"];
      if (row.result === "split" && moved.take) return [fmt(tray ? gettext("%(who)s split: take %(take)s, the rest goes back to the player.") : gettext("%(who)s split: take %(take)s into %(where)s, the rest goes back to the player."), v), "collect"];
      if (moved.pay) return [fmt(tray ? gettext("%(who)s wins %(pay)s: pay it now.") : gettext("%(who)s wins %(pay)s from %(where)s: pay it now."), v), "pay"];
      if (moved.take) return [fmt(tray ? gettext("%(who)s loses: take %(take)s.") : gettext("%(who)s loses: take %(take)s into %(where)s."), v), "collect"];
      return [fmt(gettext("%(who)s: %(result)s, nothing to hand over."), { who, result: P.resultWord(row.result).toLowerCase() }), "push"];
    }
    if (row.net > 0) return [fmt(gettext("%(who)s wins: pay %(amount)s."), { who, amount: F.money(row.net) }), "pay"];
    if (row.net < 0) return [fmt(row.result === "forfeit" ? gettext("%(who)s forfeits: take %(amount)s.") : gettext("%(who)s loses: take %(amount)s."), { who, amount: F.money(-row.net) }), "collect"];
    return [fmt(gettext("%(who)s: %(result)s, the stake goes back."), { who, result: P.resultWord(row.result).toLowerCase() }), "push"];
  }

  function renderDecided(p) {
    const box = $("decided");
    const state = (round && round.state) || {};
    let title = null;
    let rows = [];
    const turn = state.casekeeper ? lastTurn(state) : null;
    if (p === "deal" && turn) {
      // faro and stuss: the turn just dealt, every bet it decided, from the state
      title = fmt(gettext("Turn %(turn)s: loser %(loser)s, winner %(winner)s"), { turn: turn.turn, loser: F.cardName(turn.loser), winner: F.cardName(turn.winner) });
      rows = (state.bets || []).filter((b) => b.turn === turn.turn && b.result !== "withdrawn");
    } else if (p === "deal" && decidedNow.rows.length && decidedNow.key === (round.document.events || []).length) {
      title = gettext("Just decided");
      rows = decidedNow.rows;
    }
    box.hidden = title === null;
    if (title === null) { box.replaceChildren(); return; }
    const items = rows.map((r) => { const [text, cls] = decidedLine(state, r); return h("li", { class: cls, "data-bet": r.id }, text); });
    box.replaceChildren(h("h2", { class: "decided-title" }, title),
      items.length ? h("ul", { class: "decided-list" }, items) : h("p", { class: "muted" }, gettext("No bet on these ranks: nothing to pay or take.")));
  }

  /** Faro and stuss: the casekeeper, how many of each rank are out and still to come. */
  function renderCasekeeper() {
    const box = $("casekeeper");
    const keeper = round && round.state && round.state.casekeeper;
    box.hidden = !keeper;
    if (!keeper) { box.replaceChildren(); return; }
    const ranks = F.RANKS.filter((r) => keeper[r] !== undefined);
    box.replaceChildren(h("h2", {}, gettext("Casekeeper")),
      h("ol", { class: "keeper" }, ranks.map((r) => {
        const left = keeper[r];
        return h("li", { class: `keeper-rank${left === 0 ? " dead" : ""}`, "data-rank": r,
          "aria-label": fmt(gettext("%(rank)s: %(out)s out, %(left)s to come"), { rank: F.rankName(r), out: 4 - left, left }) },
        h("span", { class: "keeper-name", "aria-hidden": "true" }, F.rankLabel(r)),
        h("span", { class: "keeper-out", "aria-hidden": "true" }, "●".repeat(4 - left) + "○".repeat(left)));
      })));
  }

  /** Who holds the bank, where the button is and whose turn it is, as the engine says (always shown). */
  function renderTableNow(p) {
    const now = round && (p === "bets" || p === "deal") ? round.table_now : null;
    const parts = [];
    if (now && now.bank) parts.push(fmt(gettext("Bank: seat %(seat)s"), { seat: now.bank }));
    if (now && now.button) parts.push(fmt(gettext("Button: seat %(seat)s"), { seat: now.button }));
    if (now && now.turn) parts.push(fmt(gettext("Seat %(seat)s to act"), { seat: now.turn }));
    $("table-now").textContent = parts.join(" · ");
    $("table-now").hidden = !parts.length;
  }

  // -- rendering -------------------------------------------------------------------------------
  function phase() {
    if (!round || round.status === "voided") return "idle";
    if (round.status === "settled") return "settled";
    if (round.status === "open") return "bets";
    if (round.state && round.state.status === "settled") return "pay";
    return "deal";
  }

  const STATUS_WORDS = { open: gettext("open for bets"), betting_closed: gettext("betting closed"), dealing: gettext("dealing"), settled: gettext("settled"), voided: gettext("voided") };

  function sayText(p) {
    const state = (round && round.state) || {};
    if (p === "idle") {
      if (table.status !== "open") return gettext("The table is closed");
      return round && round.status === "voided" ? fmt(gettext("Round #%(n)s was voided. Open a new round."), { n: round.number }) : gettext("Open a round to take bets");
    }
    const words = round.words || {};
    const said = words.said || F.sayMoney(state.say, state);
    if (p === "pay") return fmt(gettext("%(said)s: pay and collect"), { said: said || gettext("Round complete") });
    if (p === "settled") return fmt(gettext("%(said)s · settled"), { said: said || gettext("Round complete") });
    if (p === "bets" && !state.next) return gettext("Place your bets");
    return state.next ? (words.next || F.sayMoney(state.next.say, state.next, { pot: state.pot, pool: state.pool })) : "";
  }

  function renderBets() {
    const input = nextStep().input || { kind: "bets" };
    $("bet-panel").replaceChildren(W.WIDGETS[input.kind]({ ...input }, { ...context(), betPanel: preDealPanel }));
  }

  function renderDeal() {
    const next = nextStep();
    const input = inputOf(next);
    const key = JSON.stringify([round.id, (round.document.events || []).length, input]);
    if (key !== stepKey) {
      stepKey = key;
      memo = {};
    }
    const draw = W.WIDGETS[input.kind];
    keys = {};
    const main = draw
      ? draw(input, context())
      : h("p", { class: "error" }, gettext("This screen cannot take what the round needs now: ask for a void, or call the pit manager."));
    let open = input.bets_open && input.bets_open.length ? input.bets_open : null;
    if (stageSel.correcting && !(open || []).some((x) => x.type === stageSel.correcting.type)) {
      open = [...(open || []), specOf(stageSel.correcting.type)];  // every seat has acted: the correction is still taken
    }
    $("deal-work").replaceChildren(h("div", { class: `widget widget-${input.kind}`, "data-kind": input.kind }, main), open ? stagePanel(open) : "");
  }

  function renderPay(settledAlready) {
    const state = round.state || {};
    const rows = P.lines(state);
    const totals = P.totals(state);
    const { pay, collect } = totals;
    $("pay-list").tBodies[0].replaceChildren(...rows.map((r) => {
      const [what, cls] = P.whatFor(state, r);
      return h("tr", { class: cls, "data-bet": r.id },
        h("th", { scope: "row" }, r.who), h("td", { class: "col-bet" }, r.bet), h("td", { class: "num col-stake" }, F.money(r.stake)),
        h("td", { class: "col-result" }, P.resultWord(r.result)), h("td", { class: "num what" }, what),
        h("td", { class: "num" }, r.commission ? F.money(r.commission) : "—"));
    }));
    $("pay-totals").textContent = fmt(gettext("Pay %(pay)s · collect %(collect)s"), { pay: F.money(pay), collect: F.money(collect) });
    $("pay-list").tFoot.replaceChildren(h("tr", {},
      h("th", { scope: "row", colspan: "3" }, gettext("Totals")), h("td", { class: "col-result" }),
      h("td", { class: "num" }, fmt(gettext("Pay %(pay)s · collect %(collect)s"), { pay: F.money(pay), collect: F.money(collect) })),
      h("td", { class: "num" }, F.money(totals.commission))));
    $("pay-table").replaceChildren(...P.tableLines(state).map((line) => h("li", {}, line)));
    $("confirm-settle").hidden = settledAlready;
    $("next-round").hidden = !settledAlready;
  }

  const CARD_CODE = /^(?:[2-9TJQKA][SHDC]|JK|10|[1-9])$/;

  /** The cards in an engine's hand, whatever its shape: a hand's `cards`, one card, or the cards of a
   * list of turns; null when it holds none. */
  function cardsIn(value) {
    if (typeof value === "string") return CARD_CODE.test(value) ? [value] : null;
    if (Array.isArray(value)) {
      const found = value.flatMap((v) => (typeof v === "string" ? (CARD_CODE.test(v) ? [v] : [])
        : v && typeof v === "object" ? Object.values(v).filter((x) => typeof x === "string" && CARD_CODE.test(x)) : []));
      return found.length || !value.length ? found : null;
    }
    if (value && typeof value === "object" && Array.isArray(value.cards)) return value.cards;
    return null;
  }

  const SET_PARTS = ["back", "middle", "front"];

  /** One row per hand; a hand made of named parts (a race's horses) gives one row per part; a hand set
   * into the hands of a house way (pai gow, pusoy) gives one row per hand, each card where it goes. */
  function handRows(hands) {
    const rows = [];
    for (const [name, hand] of Object.entries(hands || {})) {
      const parts = hand && typeof hand === "object" && !Array.isArray(hand) ? SET_PARTS.filter((p) => Array.isArray(hand[p]) && hand[p].length) : [];
      if (parts.length) {
        for (const part of parts) {
          rows.push({ name: `${name}:${part}`, label: `${F.handLabel(name)} · ${F.handLabel(part)}`, cards: hand[part],
            desc: hand[`${part}_hand`] ? String(hand[`${part}_hand`]) : null });
        }
        continue;
      }
      const cards = cardsIn(hand);
      if (cards !== null) {
        rows.push({ name, label: F.handLabel(name), cards, total: hand && typeof hand === "object" ? hand.total : undefined });
      } else if (typeof hand === "number") {
        rows.push({ name, label: F.handLabel(name), cards: [], total: hand });
      } else if (hand && typeof hand === "object") {
        for (const [part, value] of Object.entries(hand)) {
          const partCards = cardsIn(value);
          if (partCards !== null && value && typeof value === "object" && !Array.isArray(value)) {
            rows.push({ name: `${name}:${part}`, label: F.handLabel(part), cards: partCards, total: value.total });
          }
        }
      }
    }
    return rows;
  }

  function renderHands() {
    const rows = handRows(round && round.state && round.state.hands);
    const box = $("hands");
    if (!rows.length) {
      box.replaceChildren(h("p", { class: "muted" }, round && round.status !== "open" ? gettext("No cards yet.") : gettext("Cards appear here as they are dealt.")));
      return;
    }
    box.replaceChildren(...rows.map((row) => h("div", { class: "hand", "data-hand": row.name },
      h("span", { class: "hand-name" }, row.label),
      h("span", { class: "cards" }, row.cards.map((c) => h("span", {
        class: `card-face ${/[HD]$/.test(c) ? "red" : ""}`, role: "img", "aria-label": F.cardName(c),
      }, F.cardText(c)))),
      row.total !== undefined && row.total !== null && typeof row.total !== "object"
        ? h("span", { class: "total", "aria-label": fmt(row.name === "cards_left" ? gettext("cards left %(n)s") : gettext("total %(n)s"), { n: row.total }) }, String(row.total)) : null,
      row.desc ? h("span", { class: "hand-desc" }, row.desc) : null)));
  }

  function renderPlaced(p) {
    const doc = (round && round.document) || { bets: [], events: [] };
    const before = doc.bets || [];
    const live = betsBetween(doc.events || []);
    const correctable = new Set(live.filter((x) => x.open).map((x) => x.bet));
    const between = live.map((x) => x.bet);
    const bets = [...before, ...between];
    const decided = new Map(((round && round.state && round.state.bets) || []).filter((r) => r.result).map((r) => [r.id, r]));
    $("bets-list").replaceChildren(...bets.map((b) => h("li", { "data-bet": b.id },
      h("span", {}, fmt(gettext("Seat %(seat)s"), { seat: b.seat })), h("span", {}, [F.betName(b.type), betDetail(b)].filter(Boolean).join(" · ")),
      h("span", { class: "num" }, F.money(b.amount)),
      decided.has(b.id) && p === "deal" ? h("span", { class: "bet-result" }, P.resultWord(decided.get(b.id).result)) : null,
      p === "bets" && before.includes(b)
        ? h("span", { class: "bet-tools" },
          btn(gettext("Correct"), () => startCorrection(b), { class: "btn small", "aria-label": fmt(gettext("Correct seat %(seat)s %(bet)s %(amount)s"), { seat: b.seat, bet: F.betName(b.type), amount: F.money(b.amount) }) }),
          btn(gettext("Take back"), () => openWithdraw(b), { class: "btn small warn", "aria-label": fmt(gettext("Take back seat %(seat)s %(bet)s %(amount)s"), { seat: b.seat, bet: F.betName(b.type), amount: F.money(b.amount) }) }))
        : p === "deal" && correctable.has(b) && !decided.has(b.id)
          ? h("span", { class: "bet-tools" },  // placed this betting round, no card since: still correctable
            btn(gettext("Correct"), () => startStageCorrection(b), { class: "btn small", "aria-label": fmt(gettext("Correct seat %(seat)s %(bet)s %(amount)s"), { seat: b.seat, bet: F.betName(b.type), amount: F.money(b.amount) }) }),
            btn(gettext("Take back"), () => openWithdraw(b, true), { class: "btn small warn", "aria-label": fmt(gettext("Take back seat %(seat)s %(bet)s %(amount)s"), { seat: b.seat, bet: F.betName(b.type), amount: F.money(b.amount) }) }))
          : null)));
    const total = bets.reduce((s, b) => s + (b.amount || 0), 0);
    $("bets-total").textContent = bets.length ? fmt(ngettext("%(n)s bet · %(total)s", "%(n)s bets · %(total)s", bets.length), { n: bets.length, total: F.money(total) }) : gettext("No bets yet.");
  }

  function renderVoid(p) {
    const asked = round && round.void_reason && round.status !== "voided" && round.status !== "settled";
    $("void-pending").hidden = !asked;
    if (asked) $("void-pending-text").textContent = fmt(gettext("Void asked for: “%(reason)s”. A pit manager approves it on the pit screen."), { reason: round.void_reason });
    $("void").hidden = !(p === "bets" || p === "deal" || p === "pay") || asked;
    if (asked && !pollTimer) {
      pollTimer = setInterval(async () => {
        if (busy) return;
        await refresh();
        if (!round || round.status === "voided" || !round.void_reason) { clearInterval(pollTimer); pollTimer = null; }
        render();
      }, 4000);
    }
  }

  let shownPhase = null;

  function render() {
    // the engine's labels and reasons now, in the reader's words (tables/wording.py labels_in)
    CD.labelWords = Object.assign(CD.labelWords || {}, (round && round.words && round.words.labels) || {});
    const p = phase();
    // a new phase starts at the top: its main button there (a long deal may have scrolled the page down)
    if (shownPhase !== null && p !== shownPhase && (p === "pay" || p === "idle")) window.scrollTo(0, 0);
    shownPhase = p;
    $("dealer").dataset.phase = p;
    $("panel-idle").hidden = p !== "idle";
    $("panel-bets").hidden = p !== "bets";
    $("panel-deal").hidden = p !== "deal";
    $("panel-pay").hidden = !(p === "pay" || p === "settled");
    $("say").textContent = sayText(p);
    $("round-label").textContent = round && p !== "idle"
      ? fmt(gettext("Round #%(n)s · %(status)s"), { n: round.number, status: STATUS_WORDS[round.status] || round.status })
      : (round ? fmt(gettext("Last round #%(n)s · %(status)s"), { n: round.number, status: STATUS_WORDS[round.status] || round.status }) : gettext("No round yet"));
    $("open-round").disabled = table.status !== "open";
    renderTableNow(p);
    if (p === "bets") renderBets();
    if (p === "deal") renderDeal();
    if (p === "pay" || p === "settled") renderPay(p === "settled");
    renderHands();
    renderCasekeeper();
    renderDecided(p);
    renderPlaced(p);
    renderVoid(p);
    const events = (round && round.document && round.document.events) || [];
    const last = events[events.length - 1];
    // a between-stage bet is a financial record: the server refuses to undo it, so no button for it
    $("undo").hidden = !((p === "deal" || p === "pay") && last && !last.bet);
    renderShoe(p);
    if (busy) $("controls").disabled = true;
  }

  /** A shoe game: which shoe the table deals from, and one tap to mark a new one between rounds. */
  function renderShoe(p) {
    const between = p === "idle" || p === "settled";
    $("shoe-label").hidden = !boot.shoe;
    $("new-shoe").hidden = !boot.shoe || !between;
    if (!boot.shoe) return;
    $("shoe-label").textContent = boot.shoe.number
      ? fmt(gettext("Shoe %(n)s"), { n: boot.shoe.number })
      : gettext("No shoe marked yet");
  }

  async function newShoe() {
    if (busy) return;
    setBusy(true);
    showError("");
    try {
      const data = await deliver({ path: `/api/tables/${table.id}/shoes/`, body: {}, key: uuid() });
      boot.shoe = { number: data.number };
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      showError(wordsFor(err));
    } finally {
      setBusy(false);
      render();
    }
  }

  function buildControls() {
    $("new-shoe").addEventListener("click", newShoe);
    $("open-round").addEventListener("click", openRound);
    $("next-round").addEventListener("click", openRound);
    $("confirm-settle").addEventListener("click", () => act(roundUrl("settle/")));
    $("undo").addEventListener("click", openUndo);
    buildPinPad();
    $("undo-form").addEventListener("submit", submitUndo);
    $("undo-cancel").addEventListener("click", () => $("undo-dialog").close());
    $("void").addEventListener("click", openVoid);
    $("void-form").addEventListener("submit", (ev) => { ev.preventDefault(); requestVoid($("void-other").value); });
    $("void-cancel").addEventListener("click", () => $("void-dialog").close());
    $("withdraw-cancel").addEventListener("click", () => $("withdraw-dialog").close());
  }

  window.addEventListener("online", hideOffline);
  document.addEventListener("keydown", onKey);
  buildControls();
  render();
  resumePending().then(() => {
    setBusy(false);
    render();
  });
})();
