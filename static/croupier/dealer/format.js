/* The dealer screen's words: money in the house currency, cards and hands as a dealer says them, and
 * refusals in the dealer's words (tables/wording.py sends the catalogue; this fills it in).
 * Loaded before dealer.js; everything hangs off window.CroupierDealer.
 */
(() => {
  "use strict";

  const CD = (window.CroupierDealer = window.CroupierDealer || {});
  const boot = JSON.parse(document.getElementById("dealer-boot").textContent);
  CD.boot = boot;
  const currency = boot.currency;

  // Django's JavaScript catalog (/jsi18n/, loaded before this file): the words in the reader's language
  const gettext = window.gettext || ((s) => s);
  const ngettext = window.ngettext || ((one, many, n) => (n === 1 ? one : many));
  const interpolate = window.interpolate || ((f, o) => f.replace(/%\((\w+)\)s/g, (_, k) => String(o[k])));
  /** A message with named values: fmt(gettext("Seat %(seat)s"), { seat: 3 }). */
  const fmt = (text, values) => interpolate(text, values, true);
  /** Words an engine gives (a bet's or option's label): the reader's when the catalog has them. */
  const label = (text) => (text ? (CD.labelWords && CD.labelWords[text]) || gettext(String(text)) : "");

  const SUITS = { S: ["♠", gettext("spades")], H: ["♥", gettext("hearts")], D: ["♦", gettext("diamonds")], C: ["♣", gettext("clubs")] };
  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
  const RANK_NAMES = { A: gettext("ace"), T: "10", J: gettext("jack"), Q: gettext("queen"), K: gettext("king") };
  const rankName = (r) => RANK_NAMES[r] || r;
  const suitName = (s) => (SUITS[s] ? SUITS[s][1] : s);

  /** Minor units as the screens write money: the one money format of the page's language (static/croupier/money.js,
   * the server's casino.money): 250000 → "€2,500.00", "2 500,00 €" in Spanish; no floats. */
  function money(minor) {
    return window.CroupierMoney.format(Number(minor) || 0);
  }

  /** What the dealer typed as money → minor units (the one parser: what the format shows); null if it is not
   * a positive amount. */
  function parseMoney(text) {
    try {
      const minor = window.CroupierMoney.parse(text);
      return minor > 0 ? minor : null;
    } catch (e) {
      return null;
    }
  }

  const rankLabel = (r) => (r === "T" ? "10" : r);

  function cardText(code) {
    const c = String(code);
    if (c.length === 2 && SUITS[c[1]]) return rankLabel(c[0]) + SUITS[c[1]][0];
    if (c === "JK" || c === "XX" || /^joker$/i.test(c)) return gettext("Joker");
    return c;
  }

  function cardName(code) {
    const c = String(code);
    if (c.length === 2 && SUITS[c[1]]) return fmt(gettext("%(rank)s of %(suit)s"), { rank: rankName(c[0]), suit: SUITS[c[1]][1] });
    if (c === "JK" || c === "XX" || /^joker$/i.test(c)) return gettext("joker");
    return fmt(gettext("card %(card)s"), { card: c });
  }

  function handLabel(name) {
    let m = /^seat:(\d+):(\d+)$/.exec(name);
    if (m) return fmt(gettext("Seat %(seat)s, hand %(n)s"), { seat: m[1], n: Number(m[2]) + 1 });
    m = /^seat:(\d+)$/.exec(name);
    if (m) return fmt(gettext("Seat %(seat)s"), { seat: m[1] });
    m = /^hand:(\d+)$/.exec(name);
    if (m) return fmt(gettext("Hand %(n)s"), { n: m[1] });
    if (SUITS[name]) return SUITS[name][1].charAt(0).toUpperCase() + SUITS[name][1].slice(1);
    const known = HAND_NAMES[name];
    if (known) return known;
    return words(name).charAt(0).toUpperCase() + words(name).slice(1);
  }

  const HAND_NAMES = {
    dealer: gettext("Dealer"), player: gettext("Player"), banker: gettext("Banker"), punter: gettext("Punter"),
    community: gettext("Community cards"), back: gettext("Back"), front: gettext("Front"), middle: gettext("Middle"),
    noir: gettext("Noir"), rouge: gettext("Rouge"), course: gettext("Course"), race: gettext("Race"),
    cards_left: gettext("Cards left"), hock: gettext("Hock"), soda: gettext("Soda"), pot: gettext("Pot"),
  };

  const words = (s) => String(s === null || s === undefined ? "" : s).replace(/_/g, " ");
  const capital = (s) => { const w = words(s); return w.charAt(0).toUpperCase() + w.slice(1); };

  /** A bet type as the layout names it ("player_pair" → "Player pair"), from the engine's description. */
  function betName(type) {
    const spec = (boot.bet_types || []).find((t) => t.type === type);
    return spec && spec.label ? label(spec.label) : capital(type);
  }

  const PLACEHOLDER = /\{(\w+)(?::(\w+))?\}/g;

  function fill(template, values) {
    return template.replace(PLACEHOLDER, (_, name, kind) => {
      const v = values[name];
      if (kind === "money") return money(v);
      if (kind === "card") return cardName(v);
      if (kind === "bet") return betName(v).toLowerCase();
      return String(v);
    });
  }

  function usable(template, values) {
    for (const m of template.matchAll(PLACEHOLDER)) {
      const v = values[m[1]];
      if (v === undefined || v === null || v === "") return false;
    }
    return true;
  }

  /** A refusal in the dealer's words: the catalogue's first wording whose figures the refusal gives. */
  function refusal(error, screen) {
    const code = (error && error.code) || "";
    const values = { ...((error && error.params) || {}), ...(screen || {}) };
    if (typeof values.next === "string") values.next = values.next.replace(/[.:]\s*$/, "").replace(/^./, (c) => c.toLowerCase());
    // the engine's reason first ("bad_bet:no_bets": why, and what to do), then the code's own wordings
    const reason = values.reason;
    const texts = [...((typeof reason === "string" && boot.words[`${code}:${reason}`]) || []), ...(boot.words[code] || boot.words[""])];
    for (const t of texts) if (usable(t, values)) return fill(t, values);
    return fill(boot.words[""][0], values);
  }

  const MONEY_KEY = /amount|pot|forfeit|carry|bank|ante|raise|stake|paid|net|bid|min|max|covered|rake/i;

  /** Every amount (minor units) a step or a settlement states in its fields. */
  function amountsIn(value, key, into) {
    if (typeof value === "number" && Number.isInteger(value) && MONEY_KEY.test(key || "")) into.add(Math.abs(value));
    else if (Array.isArray(value)) value.forEach((v) => amountsIn(v, key, into));
    else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) amountsIn(v, MONEY_KEY.test(k) ? k : (key && !/^(seat|hand|seats|hands|cards|card|dice|number|turn|round)$/.test(k) ? key : k), into);
    return into;
  }

  /** The engine's words with the amounts it states (the same numbers as its money fields) in major
   * units with the currency: "bet 500 to 2500" → "bet €5.00 to €25.00". A seat, hand, card or turn
   * number is never an amount, and nothing under one currency unit is taken for one. */
  function sayMoney(text, ...sources) {
    const amounts = new Set();
    for (const src of sources) amountsIn(src, "", amounts);
    const unit = 10 ** currency.digits;
    return String(text || "").replace(/(\b(?:seat|seats|hand|hands|card|turn|round|dice|ranks?)\s+)?\b(\d+)\b/gi, (all, before, digits) => {
      const n = Number(digits);
      if (before || n < unit || !amounts.has(n)) return all;
      return money(n);
    });
  }

  CD.format = { gettext, ngettext, fmt, label, rankName, suitName, sayMoney, SUITS, RANKS, RANK_NAMES, money, parseMoney, rankLabel, cardText, cardName, handLabel, words, capital, betName, refusal };
})();
