/* The one money format and parser in the browser, the same as the server's (casino/money.py: money_amount
 * and money_parse; the page gives the format in data-money, {% money_conf %}). Totals shown while a person
 * types, and money typed into forms the page posts itself (slots, rating slips). The server reads and
 * checks everything again.
 */
(() => {
  "use strict";
  const t = (s) => (typeof window.gettext === "function" ? window.gettext(s) : s);
  const fill = (s, values) => s.replace(/%\((\w+)\)s/g, (_, k) => String(values[k]));

  function conf(el) {
    const holder = (el && el.closest && el.closest("[data-money]")) || document.querySelector("[data-money]");
    try {
      return JSON.parse(holder ? holder.dataset.money : "{}");
    } catch (e) {
      return {};
    }
  }

  function number(minor, c, places) {
    const digits = places === undefined ? (c.digits ?? 2) : places;
    const group = c.group || ",", size = c.size || 3, decimal = c.decimal || ".";
    const abs = BigInt(Math.abs(minor)), unit = 10n ** BigInt(digits);
    const whole = String(abs / unit);
    const head = whole.length % size || size;
    const parts = [whole.slice(0, head)];
    for (let i = head; i < whole.length; i += size) parts.push(whole.slice(i, i + size));
    const sign = minor < 0 ? "-" : "";
    const frac = digits ? decimal + String(abs % unit).padStart(digits, "0") : "";
    return sign + parts.join(group) + frac;
  }

  /** Minor units as the screens write money: 250000 → "€2,500.00" (the page's language and currency). */
  function format(minor, c) {
    c = c || conf();
    const text = number(Math.abs(minor), c);
    const sign = minor < 0 ? "-" : "";
    if (!c.symbol) return `${sign}${text} ${c.code || ""}`.trim();
    return c.after ? `${sign}${text}\u00a0${c.symbol}` : `${sign}${c.symbol}${text}`;
  }

  /** What a person typed as money → minor units; throws an Error whose message says why, in words. */
  function parse(text, c) {
    c = c || conf();
    const places = c.digits ?? 2;
    const raw = String(text ?? "").trim();
    if (!raw) throw new Error(t("Type an amount."));
    const example = format(123456, c);
    const notAmount = () => new Error(fill(t("“%(text)s” is not an amount: write it like %(example)s."), { text: raw, example }));
    let body = raw.replace(/\u2212/g, "-");
    let sign = 1;
    if (body.startsWith("-")) { sign = -1; body = body.slice(1).trim(); }
    const marks = [c.symbol, c.code, (c.code || "").toLowerCase()].filter(Boolean).sort((a, b) => b.length - a.length);
    for (const mark of marks) {
      if (body.startsWith(mark)) body = body.slice(mark.length);
      else if (body.endsWith(mark)) body = body.slice(0, -mark.length);
    }
    body = body.trim();
    if (body.startsWith("-") && sign === 1) { sign = -1; body = body.slice(1); }
    body = body.replace(/[\u00a0\u202f\u2009 ]/g, "");
    if (!/^[0-9.,]+$/.test(body) || !/^\d/.test(body) || !/\d$/.test(body)) throw notAmount();
    const seps = [...body].filter((ch) => ch === "." || ch === ",");
    let whole = body, part = "";
    if (seps.length) {
      const lastSep = seps[seps.length - 1];
      const last = body.lastIndexOf(lastSep);
      const kinds = new Set(seps).size;
      if (kinds === 2 || seps.filter((s) => s === lastSep).length === 1) {
        const tail = body.slice(last + 1);
        const lone = seps.length === 1;
        if (lone && tail.length === 3 && lastSep !== (c.decimal || ".")) {
          whole = body;
        } else if (lone && tail.length === 3 && places < 3) {
          const thousands = format(Number(body.slice(0, last) + tail) * 10 ** places, c);
          throw new Error(fill(t("“%(text)s” could be read two ways: write %(thousands)s, or the amount with at most %(places)s decimals."),
            { text: raw, thousands, places }));
        } else {
          whole = body.slice(0, last); part = tail;
        }
      }
      const groupSeps = [...whole].filter((ch) => ch === "." || ch === ",");
      if (groupSeps.length) {
        const groups = whole.split(groupSeps[0]);
        if (new Set(groupSeps).size > 1 || groups[0].length < 1 || groups[0].length > 3 || groups.slice(1).some((g) => g.length !== 3)) {
          throw new Error(fill(t("“%(text)s” is not an amount: its thousands are not in threes (write it like %(example)s)."), { text: raw, example }));
        }
        whole = groups.join("");
      }
    }
    if (part.length > places) {
      throw new Error(fill(t("“%(text)s” has more decimals than the currency: at most %(places)s."), { text: raw, places }));
    }
    if (whole.length > 15) throw new Error(fill(t("“%(text)s” is too large an amount."), { text: raw }));
    const value = Number(whole) * 10 ** places + (part ? Number(part.padEnd(places, "0")) : 0);
    if (!Number.isSafeInteger(value)) throw new Error(fill(t("“%(text)s” is too large an amount."), { text: raw }));
    return sign * value;
  }

  window.CroupierMoney = { conf, format, parse };
})();
