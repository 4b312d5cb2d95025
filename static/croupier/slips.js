/* Rating slips on the dealer's screen, the pit dashboard and the players page: a thin client of
 * /api/rating-slips/. Each action carries a fresh Idempotency-Key and is retried with the same key
 * while the network fails, so a lost answer never opens two slips or records a buy-in twice.
 */
(() => {
  "use strict";

  const root = document.querySelector("[data-slips-mode]");
  if (!root) return;
  // Django's JavaScript catalog (/jsi18n/), where the page loads it: the words in the reader's language
  const gettext = window.gettext || ((t) => t);
  const fmt = (text, values) => text.replace(/%\((\w+)\)(?:\d*)[sd]/g, (_, k) => String(values[k])); // (zero-padded numbers come padded)
  const STATUS = { open: gettext("open"), paused: gettext("paused"), closed: gettext("closed") };
  const mode = root.dataset.slipsMode; // dealer, pit or page
  const digits = Number(root.dataset.digits || 2);

  function csrf() {
    const meta = document.querySelector('meta[name="csrf-token"]');
    if (meta) return meta.content;
    const input = document.querySelector('input[name="csrfmiddlewaretoken"]');
    return input ? input.value : "";
  }

  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const x = [...b].map((v) => v.toString(16).padStart(2, "0")).join("");
    return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
  }

  // the dealer's screen shows every amount with the house currency (its panel says which)
  const symbol = root.dataset.currencySymbol || "";
  const code = root.dataset.currencyCode || "";

  function money(minor) {
    if (minor === null || minor === undefined) return "—";
    const sign = minor < 0 ? "-" : "";
    const abs = Math.abs(minor);
    const unit = 10 ** digits;
    const text = digits ? `${Math.floor(abs / unit)}.${String(abs % unit).padStart(digits, "0")}` : String(abs);
    if (symbol) return `${sign}${symbol}${text}`;
    return code ? `${sign}${text} ${code}` : sign + text;
  }

  /** "25", "25.5", "25.50" → minor units (exact); null if blank; NaN if not an amount. */
  function parseMoney(text) {
    if (!String(text || "").trim()) return null;
    try { // the one parser of typed money (static/croupier/money.js)
      return window.CroupierMoney.parse(text, { ...window.CroupierMoney.conf(), digits });
    } catch (e) {
      return NaN;
    }
  }

  function played(seconds) {
    const minutes = Math.floor(seconds / 60);
    const h = Math.floor(minutes / 60);
    // the server's words for time at a table (casino.words.duration_words, from minutes)
    return h
      ? fmt(gettext("%(hours)s h %(minutes)02d min"), { hours: h, minutes: String(minutes % 60).padStart(2, "0") })
      : fmt(gettext("%(minutes)s min"), { minutes });
  }

  function showError(message) {
    const el = document.querySelector(".slips-error"); // looked up each time: htmx replaces the pit's panel
    if (!el) return;
    el.textContent = message || "";
    el.hidden = !message;
  }

  async function send(path, body) {
    const key = uuid();
    for (let attempt = 0; attempt < 6; attempt += 1) {
      let resp;
      try {
        resp = await fetch(path, {
          method: "POST", credentials: "same-origin",
          headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf(),
            "Idempotency-Key": key },
          body: JSON.stringify(body || {}),
        });
      } catch (e) {
        await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
        continue; // the network: the same key again
      }
      const data = await resp.json().catch(() => ({}));
      if (resp.ok) return data;
      if (resp.status >= 500 && resp.status !== 503) throw new Error(gettext("The server failed; try again."));
      if (resp.status === 503) {
        await new Promise((r) => setTimeout(r, 1000 * (attempt + 1)));
        continue;
      }
      throw new Error((data.error && data.error.message) || fmt(gettext("Refused (%(status)s)"), { status: resp.status }));
    }
    throw new Error(gettext("No answer from the server: check the connection and try again."));
  }

  async function after() {
    if (mode === "dealer") await refresh();
    else if (mode === "pit" && window.htmx && document.getElementById("live")) {
      window.htmx.ajax("GET", "/pit/live/", { target: "#live", swap: "outerHTML" });
    } else window.location.reload();
  }

  // -- actions on a slip (every mode) --------------------------------------------------------------
  document.addEventListener("click", async (ev) => {
    const button = ev.target.closest("[data-slip-action]");
    if (!button) return;
    const { slipAction, slipId, confirm: question } = button.dataset;
    if (question && !window.confirm(question)) return;
    let body = {};
    if (slipAction === "buy-ins") {
      const input = document.getElementById(`buy-in-${slipId}`);
      const amount = parseMoney(input && input.value);
      if (!amount || Number.isNaN(amount)) {
        showError(gettext("Enter the cash amount, e.g. 500 or 500.00"));
        return;
      }
      body = { method: "cash", amount };
    }
    button.disabled = true;
    try {
      await send(`/api/rating-slips/${slipId}/${slipAction}/`, body);
      showError("");
      await after();
    } catch (e) {
      showError(e.message);
    } finally {
      button.disabled = false;
    }
  });

  // -- opening a slip --------------------------------------------------------------------------
  const form = document.getElementById("slip-open");
  if (form) {
    const seat = form.elements.seat;
    if (seat && seat.tagName === "SELECT") {
      for (let n = 1; n <= Number(root.dataset.seats || 7); n += 1) seat.append(new Option(fmt(gettext("Seat %(seat)s"), { seat: n }), String(n)));
    }
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const estimate = parseMoney(form.elements.estimated_average_bet.value);
      if (Number.isNaN(estimate)) {
        showError(gettext("The estimated average bet must be an amount, e.g. 25 or 25.00"));
        return;
      }
      const body = {
        table: Number(form.elements.table ? form.elements.table.value : root.dataset.tableId),
        seat: Number(form.elements.seat.value),
        card_number: form.elements.card_number.value.trim() || null,
        description: form.elements.description.value.trim(),
        estimated_average_bet: estimate,
      };
      const submit = form.querySelector('button[type="submit"]');
      submit.disabled = true;
      try {
        await send("/api/rating-slips/", body);
        form.reset();
        showError("");
        await after();
      } catch (e) {
        showError(e.message);
      } finally {
        submit.disabled = false;
      }
    });
  }

  // -- the dealer's list ---------------------------------------------------------------------------
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") el.className = v;
      else if (k === "text") el.textContent = v;
      else if (k.startsWith("data-")) el.setAttribute(k, v);
      else el.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) if (c !== null && c !== undefined) el.append(c);
    return el;
  }

  function row(slip) {
    const f = slip.figures;
    const act = (action, label, cls) => h("button", { type: "button", class: `btn ${cls || ""}`, "data-slip-action": action,
      "data-slip-id": slip.id, text: label });
    return h("li", { "data-slip": slip.id },
      h("strong", { text: fmt(gettext("Seat %(seat)s"), { seat: slip.seat }) }), " ",
      h("span", { text: slip.player_name }), " ",
      h("span", { class: "muted", text: fmt(gettext("%(status)s · %(played)s · average %(average)s · buy-in %(buy_in)s"), {
        status: STATUS[slip.status] || slip.status, played: played(f.active_seconds), average: money(f.average_bet),
        buy_in: money(slip.buy_in_cash + slip.buy_in_markers) }) }),
      h("span", { class: "slip-actions" },
        slip.status === "open" ? act("pause", gettext("Pause")) : act("resume", gettext("Resume")),
        h("label", { class: "visually-hidden", for: `buy-in-${slip.id}`, text: fmt(gettext("Cash buy-in at seat %(seat)s"), { seat: slip.seat }) }),
        h("input", { id: `buy-in-${slip.id}`, inputmode: "decimal", size: "7", placeholder: gettext("cash"), autocomplete: "off" }),
        act("buy-ins", gettext("Buy-in")),
        h("button", { type: "button", class: "btn warn", "data-slip-action": "close", "data-slip-id": slip.id,
          "data-confirm": fmt(gettext("Close the slip at seat %(seat)s (%(player)s)?"), { seat: slip.seat, player: slip.player_name }), text: gettext("Close") })));
  }

  async function refresh() {
    const list = document.getElementById("slips-list");
    if (!list) return;
    try {
      const resp = await fetch(`/api/rating-slips/?table=${root.dataset.tableId}&status=live&limit=50`,
        { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (!resp.ok) return;
      const data = await resp.json();
      const slips = data.results || data;
      list.replaceChildren(...(slips.length ? slips.map(row) : [h("li", { class: "muted", text: gettext("No open slip.") })]));
      const count = document.getElementById("slips-count");
      if (count) count.textContent = slips.length ? `(${slips.length})` : "";
    } catch (e) {
      /* offline: the next refresh shows the list */
    }
  }

  if (mode === "dealer") {
    refresh();
    setInterval(refresh, 30000);
  }
})();
