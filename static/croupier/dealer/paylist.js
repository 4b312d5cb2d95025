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
  const RESULTS = {
    win: "Win", lose: "Lose", push: "Push", anted: "Anted", forfeit: "Forfeit", void: "Void", refund: "Returned",
    surrender: "Surrender", blackjack: "Blackjack", natural: "Natural", split: "Split", lost: "Lose", won: "Win",
  };
  const DETAIL_FIELDS = ["rank", "number", "horse", "hand", "order", "coppered"];

  const resultWord = (r) => RESULTS[r] || F.capital(r || "");

  function detailOf(row) {
    const parts = [];
    for (const name of DETAIL_FIELDS) {
      const v = row[name];
      if (v === undefined || v === null || v === false) continue;
      if (name === "coppered") parts.push("coppered");
      else if (name === "rank") parts.push(F.rankLabel(v));
      else if (name === "horse") parts.push(F.handLabel(v));
      else if (Array.isArray(v)) parts.push(v.map(F.rankLabel).join(" "));
      else if (typeof v !== "object") parts.push(`${F.words(name)} ${v}`);
    }
    return parts.join(", ");
  }

  /** Where a pot or pool game's chips go: the pot, the pool, or the house's tray. */
  const placeOf = (state, moved) => (moved && moved.via === "house" ? "the tray" : state.pot !== undefined ? "the pot" : "the pool");

  /** What the dealer hands over for a bet that says so (pot and pool games, faro's turns): [words, class,
   * pay now, take now]. A move made as the bet was decided during the deal is recalled, not asked again. */
  function handWords(state, moved, result) {
    const where = placeOf(state, moved);
    const done = moved.when === "deal";
    if (moved.pay > 0) {
      const from = where === "the tray" ? "" : ` from ${where}`;
      return [done ? `Paid ${F.money(moved.pay)}${from}` : `Pay ${F.money(moved.pay)}${from}`, done ? "done" : "pay", done ? 0 : moved.pay, 0];
    }
    if (moved.take > 0) {
      const into = where === "the tray" ? "" : ` into ${where}`;
      return [done ? `Took ${F.money(moved.take)}${into}` : `Take ${F.money(moved.take)}${into}`, done ? "done" : "collect", 0, done ? 0 : moved.take];
    }
    if (moved.at_bet > 0) {
      return [result === "anted" ? `Anted ${F.money(moved.at_bet)} at the start` : `In ${where} since the bet`, "done", 0, 0];
    }
    return ["Stake stays", "push", 0, 0];
  }

  /** The lines, in seat order: {who, bet, stake, result, net, commission} (money in minor units). */
  function lines(state) {
    const rows = [...(state.bets || [])].sort((a, b) => (a.seat || 0) - (b.seat || 0) || String(a.id).localeCompare(String(b.id)));
    const out = [];
    for (const r of rows) {
      const bet = [F.betName(r.type), detailOf(r)].filter(Boolean).join(" · ");
      if (Array.isArray(r.hands) && r.hands.length > 1) {
        r.hands.forEach((hand, i) => out.push({
          id: r.id, who: `Seat ${r.seat}, hand ${i + 1}`, bet, stake: hand.stake, result: hand.result, net: hand.net, commission: hand.commission || 0,
        }));
      } else {
        out.push({ id: r.id, who: `Seat ${r.seat}`, bet, stake: r.staked || r.amount, result: r.result, net: r.net, commission: r.commission || 0,
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
      out.push(`Banker at seat ${state.banker.seat}: ${n > 0 ? `collects ${F.money(n)}` : n < 0 ? `pays ${F.money(-n)}` : "even"}`);
    } else if (outcome.banker_seat) {
      out.push(`Bank at seat ${outcome.banker_seat}${outcome.bank ? `: ${F.money(outcome.bank)}` : ""}${outcome.covered !== undefined ? `, covered ${F.money(outcome.covered)}` : ""}`);
    }
    const moved = totals(state).before;
    if (moved.at_bet || moved.paid || moved.took) {
      const where = state.pot !== undefined ? "pot" : state.pool ? "pool" : "";
      const parts = [];
      if (moved.at_bet) parts.push(`${F.money(moved.at_bet)} taken at the bets${where ? ` into the ${where}` : ""}`);
      if (moved.paid) parts.push(`${F.money(moved.paid)} paid as bets were decided`);
      if (moved.took) parts.push(`${F.money(moved.took)} taken as bets were decided`);
      out.push(`Already moved: ${parts.join(", ")}`);
    }
    const pool = state.pool;
    if (pool) {
      const parts = [];
      if (pool.carry_in) parts.push(`carried in ${F.money(pool.carry_in)}`);
      parts.push(`staked ${F.money(pool.stakes || 0)}`, `paid ${F.money(pool.paid || 0)}`);
      if (pool.rake) parts.push(`rake ${F.money(pool.rake)}`);
      parts.push(`carries ${F.money(pool.carry_out || 0)}`);
      out.push(`${state.pot !== undefined ? "Pot" : "Pool"}: ${parts.join(", ")}`);
    } else if ((state.house || {}).rake) {
      out.push(`Rake ${F.money(state.house.rake)}`);
    }
    return out;
  }

  /** Pay / collect words for a net amount. */
  function what(net) {
    if (net > 0) return [`Pay ${F.money(net)}`, "pay"];
    if (net < 0) return [`Collect ${F.money(-net)}`, "collect"];
    return ["Stake stays", "push"];
  }

  /** Pay / collect words for a line: what to hand over where the engine says it, else the net. */
  function whatFor(state, row) {
    if (row.handover) {
      const [words, cls] = handWords(state, row.handover, row.result);
      return [words, cls];
    }
    return what(row.net);
  }

  CD.paylist = { lines, totals, tableLines, what, whatFor, handWords, resultWord, detailOf, placeOf };
})();
