/* The pay list: what the dealer pays or collects, line by line, from the engine's settlement.
 *
 * One line per bet, or per hand where a bet played several (a blackjack split); the stake is what the
 * bet staked in all (a double, a raise); the commission taken; totals to pay and collect; the house's
 * rake; for a pot or a pool, what came in and what carries; in a banking game, the banker's seat and
 * bank. tests/browser/pay_list.py builds the same lines from the settlement replayed through the engine.
 */
(() => {
  "use strict";

  const CD = (window.CroupierDealer = window.CroupierDealer || {});
  const F = CD.format;
  const { gettext, fmt } = F;
  const RESULTS = {
    win: gettext("Win"), lose: gettext("Lose"), push: gettext("Push"), anted: gettext("Anted"), forfeit: gettext("Forfeit"),
    void: gettext("Void"), refund: gettext("Returned"), surrender: gettext("Surrender"), blackjack: gettext("Blackjack"),
    natural: gettext("Natural"), split: gettext("Split"), lost: gettext("Lose"), won: gettext("Win"),
  };
  const TRAY = "tray";
  const DETAIL_FIELDS = ["rank", "number", "horse", "hand", "order", "coppered"];

  const resultWord = (r) => RESULTS[r] || F.capital(r || "");

  function detailOf(row) {
    const parts = [];
    for (const name of DETAIL_FIELDS) {
      const v = row[name];
      if (v === undefined || v === null || v === false) continue;
      if (name === "coppered") parts.push(gettext("coppered"));
      else if (name === "rank") parts.push(F.rankLabel(v));
      else if (name === "horse") parts.push(F.handLabel(v));
      else if (Array.isArray(v)) parts.push(v.map(F.rankLabel).join(" "));
      else if (typeof v !== "object") parts.push(fmt(name === "number" ? gettext("number %(n)s") : name === "hand" ? gettext("hand %(n)s") : `${F.words(name)} %(n)s`, { n: v }));
    }
    return parts.join(", ");
  }

  /** Where a pot or pool game's chips go: the pot, the pool, or the house's tray. */
  const placeOf = (state, moved) => (moved && moved.via === "house" ? TRAY : state.pot !== undefined ? gettext("the pot") : gettext("the pool"));

  /** What the dealer hands over for a bet that says so (pot and pool games, faro's turns): [words, class,
   * pay now, take now]. A move made as the bet was decided during the deal is recalled, not asked again. */
  function handWords(state, moved, result) {
    const where = placeOf(state, moved);
    const done = moved.when === "deal";
    const tray = where === TRAY;
    const v = { where, pay: F.money(moved.pay), take: F.money(moved.take), amount: F.money(moved.at_bet) };
    if (moved.pay > 0) {
      const text = done ? (tray ? gettext("Paid %(pay)s") : gettext("Paid %(pay)s from %(where)s"))
        : (tray ? gettext("Pay %(pay)s") : gettext("Pay %(pay)s from %(where)s"));
      return [fmt(text, v), done ? "done" : "pay", done ? 0 : moved.pay, 0];
    }
    if (moved.take > 0) {
      const text = done ? (tray ? gettext("Took %(take)s") : gettext("Took %(take)s into %(where)s"))
        : (tray ? gettext("Take %(take)s") : gettext("Take %(take)s into %(where)s"));
      return [fmt(text, v), done ? "done" : "collect", 0, done ? 0 : moved.take];
    }
    if (moved.at_bet > 0) {
      return [result === "anted" ? fmt(gettext("Anted %(amount)s at the start"), v)
        : fmt(tray ? gettext("In the tray since the bet") : gettext("In %(where)s since the bet"), v), "done", 0, 0];
    }
    return [gettext("Stake stays"), "push", 0, 0];
  }

  /** The lines, in seat order: {who, bet, stake, result, net, commission} (money in minor units). */
  function lines(state) {
    const rows = [...(state.bets || [])].sort((a, b) => (a.seat || 0) - (b.seat || 0) || String(a.id).localeCompare(String(b.id)));
    const out = [];
    for (const r of rows) {
      const bet = [F.betName(r.type), detailOf(r)].filter(Boolean).join(" · ");
      if (Array.isArray(r.hands) && r.hands.length > 1) {
        r.hands.forEach((hand, i) => out.push({
          id: r.id, who: fmt(gettext("Seat %(seat)s, hand %(n)s"), { seat: r.seat, n: i + 1 }), bet, stake: hand.stake, result: hand.result, net: hand.net, commission: hand.commission || 0,
        }));
      } else {
        out.push({ id: r.id, who: fmt(gettext("Seat %(seat)s"), { seat: r.seat }), bet, stake: r.staked || r.amount, result: r.result, net: r.net, commission: r.commission || 0,
          handover: r.handover || null });
      }
    }
    return out;
  }

  /** What the pay list moves now (pay, collect), the commission, the rake, and for pot and pool games what
   * was moved before: stakes and antes taken at the bet, pays and takes made as bets were decided. */
  function totals(state) {
    let pay = 0;
    let collect = 0;
    let commission = 0;
    const before = { at_bet: 0, paid: 0, took: 0 };
    for (const row of lines(state)) {
      commission += row.commission || 0;
      if (row.handover) {
        const [, , p, c] = handWords(state, row.handover, row.result);
        pay += p;
        collect += c;
        before.at_bet += row.handover.at_bet || 0;
        if (row.handover.when === "deal") { before.paid += row.handover.pay || 0; before.took += row.handover.take || 0; }
      } else if (row.net > 0) pay += row.net; else collect -= row.net;
    }
    const house = state.house || {};
    return { pay, collect, commission, rake: house.rake || 0, before };
  }

  /** Lines about the table as a whole: the banker in a banking game, the pot or pool, the rake. */
  function tableLines(state) {
    const out = [];
    const outcome = state.outcome || {};
    if (state.banker && state.banker.seat) {
      const n = state.banker.net || 0;
      const v = { seat: state.banker.seat, amount: F.money(Math.abs(n)) };
      out.push(fmt(n > 0 ? gettext("Banker at seat %(seat)s: collects %(amount)s") : n < 0 ? gettext("Banker at seat %(seat)s: pays %(amount)s")
        : gettext("Banker at seat %(seat)s: even"), v));
    } else if (outcome.banker_seat) {
      let text = fmt(outcome.bank ? gettext("Bank at seat %(seat)s: %(bank)s") : gettext("Bank at seat %(seat)s"), { seat: outcome.banker_seat, bank: F.money(outcome.bank || 0) });
      if (outcome.covered !== undefined) text = fmt(gettext("%(bank)s, covered %(covered)s"), { bank: text, covered: F.money(outcome.covered) });
      out.push(text);
    }
    const moved = totals(state).before;
    if (moved.at_bet || moved.paid || moved.took) {
      const parts = [];
      const atBet = state.pot !== undefined ? gettext("%(amount)s taken at the bets into the pot")
        : state.pool ? gettext("%(amount)s taken at the bets into the pool") : gettext("%(amount)s taken at the bets");
      if (moved.at_bet) parts.push(fmt(atBet, { amount: F.money(moved.at_bet) }));
      if (moved.paid) parts.push(fmt(gettext("%(amount)s paid as bets were decided"), { amount: F.money(moved.paid) }));
      if (moved.took) parts.push(fmt(gettext("%(amount)s taken as bets were decided"), { amount: F.money(moved.took) }));
      out.push(fmt(gettext("Already moved: %(list)s"), { list: parts.join(gettext(", ")) }));
    }
    const pool = state.pool;
    if (pool) {
      const parts = [];
      if (pool.carry_in) parts.push(fmt(gettext("carried in %(amount)s"), { amount: F.money(pool.carry_in) }));
      parts.push(fmt(gettext("staked %(amount)s"), { amount: F.money(pool.stakes || 0) }), fmt(gettext("paid %(amount)s"), { amount: F.money(pool.paid || 0) }));
      if (pool.rake) parts.push(fmt(gettext("rake %(amount)s"), { amount: F.money(pool.rake) }));
      parts.push(fmt(gettext("carries %(amount)s"), { amount: F.money(pool.carry_out || 0) }));
      out.push(fmt(state.pot !== undefined ? gettext("Pot: %(list)s") : gettext("Pool: %(list)s"), { list: parts.join(gettext(", ")) }));
    } else if ((state.house || {}).rake) {
      out.push(fmt(gettext("Rake %(amount)s"), { amount: F.money(state.house.rake) }));
    }
    return out;
  }

  /** Pay / collect words for a net amount. */
  function what(net) {
    if (net > 0) return [fmt(gettext("Pay %(pay)s"), { pay: F.money(net) }), "pay"];
    if (net < 0) return [fmt(gettext("Collect %(amount)s"), { amount: F.money(-net) }), "collect"];
    return [gettext("Stake stays"), "push"];
  }

  /** Pay / collect words for a line: what to hand over where the engine says it, else the net. */
  function whatFor(state, row) {
    if (row.handover) {
      const [words, cls] = handWords(state, row.handover, row.result);
      return [words, cls];
    }
    return what(row.net);
  }

  CD.paylist = { TRAY, lines, totals, tableLines, what, whatFor, handWords, resultWord, detailOf, placeOf };
})();
