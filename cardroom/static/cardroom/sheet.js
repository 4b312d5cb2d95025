/* Card-room screens: every form's entry built from its fields and posted as JSON to /api/cardroom/… by the shared
 * binder (static/croupier/apiforms.js: an Idempotency-Key kept across retries, the CSRF token); then the page
 * reloads (or, for a check, shows the answer). The server is the only judge: its refusal is shown as is. */
(() => {
  "use strict";

  const errorBox = document.getElementById("error");

  const split = (text, sep) => (text || "").split(sep).map((s) => s.trim()).filter(Boolean);
  const num = (form, name) => Number(form.elements[name] ? form.elements[name].value : 0) || 0;
  const checked = (form, name) => {
    const el = form.querySelector(`input[name="${name}"]:checked`);
    return el ? el.value : null;
  };

  function showError(message) {
    if (!errorBox) return;
    errorBox.textContent = message;
    errorBox.hidden = !message;
    if (message) errorBox.scrollIntoView({ block: "nearest" });
  }

  // a deal's entry from the fields its game declares (templates/cardroom/_entry_fields.html; the twin of
  // tables.scoring.entry.assemble): each field read by its kind, an empty one left out; "all passed" ticked, only
  // the parts it keeps
  const whole = /^-?\d+$/;
  function entryOf(form) {
    const entry = {};
    let passed = null;
    for (const box of form.querySelectorAll(".entry-field")) {
      const { name, kind } = box.dataset;
      const one = box.querySelector("select, input");
      if (kind === "player" || kind === "suit") {
        if (one.value) entry[name] = one.value;
      } else if (kind === "bid") {
        if (one.value !== "") entry[name] = whole.test(one.value) ? Number(one.value) : one.value;
      } else if (kind === "number") {
        if (one.value.trim() !== "") entry[name] = Number(one.value);
      } else if (kind === "players") {
        const names = [...box.querySelectorAll("input:checked")].map((el) => el.value);
        if (names.length) entry[name] = names;
      } else if (kind === "per_side") {
        const each = {};
        for (const el of box.querySelectorAll("input")) if (Number(el.value)) each[el.dataset.side] = Number(el.value);
        if (Object.keys(each).length) entry[name] = each;
      } else if (one.checked) {
        entry[name] = true;
        if (kind === "passed") passed = box;
      }
    }
    if (!passed) return entry;
    const keep = [passed.dataset.name, ...split(passed.dataset.keep, " ")];
    return Object.fromEntries(Object.entries(entry).filter(([k]) => keep.includes(k)));
  }

  // "all passed" ticked: the parts it does not keep are not entered (greyed out)
  function showPassed(form) {
    const passed = form.querySelector('.entry-field[data-kind="passed"]');
    if (!passed) return;
    const keep = [passed.dataset.name, ...split(passed.dataset.keep, " ")];
    const off = passed.querySelector("input").checked;
    for (const box of form.querySelectorAll(".entry-field")) {
      if (keep.includes(box.dataset.name)) continue;
      for (const el of box.querySelectorAll("select, input")) el.disabled = off;
    }
  }
  for (const form of document.querySelectorAll("form")) {
    const passed = form.querySelector('.entry-field[data-kind="passed"] input');
    if (passed) passed.addEventListener("change", () => showPassed(form));
  }

  // the game's rules as labelled fields (no JSON to type): the fieldset of the chosen game, read by kind
  function settingsOf(form) {
    const set = form.querySelector(`fieldset.settings[data-game="${form.elements.game.value}"]`);
    const config = {};
    if (!set) return config;
    for (const el of set.querySelectorAll("[name^='config:']")) {
      const [, name, key] = el.name.split(":");
      const kind = el.dataset.kind;
      if (kind === "bool") config[name] = el.checked;
      else if (kind === "int") { if (el.value !== "") config[name] = Number(el.value); }
      else if (kind === "chart") (config[name] = config[name] || {})[key] = Number(el.value);
      else config[name] = el.value;
    }
    return config;
  }

  function showSettings(form) {
    for (const set of form.querySelectorAll("fieldset.settings")) {
      const mine = set.dataset.game === form.elements.game.value;
      set.hidden = !mine;
      set.disabled = !mine;
    }
  }
  for (const form of document.querySelectorAll('form[data-build="open"]')) {
    if (form.elements.game) {
      form.elements.game.addEventListener("change", () => showSettings(form));
      showSettings(form);
    }
  }

  const builders = {
    open(form) {
      const body = { table: Number(form.elements.table.value), players: split(form.elements.players.value, ",") };
      const tournament = form.elements.tournament.value.trim();
      if (tournament) body.tournament = Number(tournament);
      else body.game = form.elements.game.value;
      const config = settingsOf(form);
      if (!tournament && Object.keys(config).length) body.config = config;
      return body;
    },
    hearts(form, players) {
      const penalty = [...form.querySelectorAll('input[name="penalty"]:checked')].map((el) => el.value);
      if (penalty.length) return { entry: { penalty } };
      const queen = checked(form, "queen");
      const plus = checked(form, "plus");
      const taken = {};
      for (const p of players) {
        const got = { hearts: num(form, `hearts:${p}`) };
        if (form.elements[`queens:${p}`]) got.queens = num(form, `queens:${p}`);
        if (form.querySelector('input[name="queen"]')) got.queen = queen === p;
        if (form.querySelector('input[name="plus"]')) got.plus = plus === p;
        taken[p] = got;
      }
      return { entry: { taken } };
    },
    auction(form, players) {
      const entry = { suit: form.elements.suit.value, taken: {} };
      if (form.elements.bidder && form.elements.bidder.value) {
        entry.bid = { player: form.elements.bidder.value, chips: num(form, "chips") };
      }
      for (const p of players) entry.taken[p] = num(form, `cards:${p}`);
      return { entry };
    },
    rummy(form, players) {
      const hands = {};
      for (const p of players) {
        const melds = split(form.elements[`melds:${p}`].value, ";").map((m) => split(m, /\s+/));
        hands[p] = { deadwood: split(form.elements[`deadwood:${p}`].value, /\s+/) };
        if (melds.length) hands[p].melds = melds;
      }
      return { entry: { knocker: checked(form, "knocker"), hands } };
    },
    casino(form, players) {
      const captured = {};
      const big = checked(form, "big_casino");
      const little = checked(form, "little_casino");
      for (const p of players) {
        captured[p] = { count: num(form, `count:${p}`), spades: num(form, `spades:${p}`), aces: num(form, `aces:${p}`),
          big_casino: big === p, little_casino: little === p, sweeps: num(form, `sweeps:${p}`) };
      }
      return { entry: { captured } };
    },
    fields(form) {
      return { entry: entryOf(form) };
    },
    correct(form, players) {
      // the same labelled fields as entering a deal
      const entry = builders[form.dataset.fields](form, players).entry;
      return { deal: num(form, "deal") - 1, entry, reason: form.elements.reason.value };
    },
    rake(form) {
      // typed in the currency ("12.50"), posted in minor units (1250): exact, by the decimal digits typed
      const el = form.elements.amount;
      const digits = Number(el.dataset.digits || 2);
      const [whole, part = ""] = String(el.value).trim().split(".");
      if (part.length > digits) throw new Error(`the rake has at most ${digits} decimals`);
      const amount = Number(whole || 0) * 10 ** digits + Number((part + "0".repeat(digits)).slice(0, digits) || 0);
      return { amount, memo: form.elements.memo.value };
    },
    close(form) {
      return { reason: form.elements.reason.value };
    },
    "check-meld"(form) {
      return { melds: split(form.elements.melds.value, ";").map((m) => split(m, /\s+/)) };
    },
    "check-build"(form) {
      const body = { items: split(form.elements.items.value, /\s+/) };
      const match = form.elements.match.value.trim();
      if (match) body.match = match;
      return body;
    },
  };

  // the correction form, filled in with the deal it corrects (as it was entered): the fields a deal's entry sets
  const inForce = document.getElementById("deals-in-force");
  const entries = inForce ? JSON.parse(inForce.textContent) : {};
  const setValue = (form, name, value) => { if (form.elements[name]) form.elements[name].value = value; };
  const tick = (form, name, value) => {
    for (const el of form.querySelectorAll(`input[name="${name}"]`)) el.checked = Array.isArray(value) ? value.includes(el.value) : el.value === value;
  };
  const fillers = {
    hearts(form, entry) {
      tick(form, "penalty", entry.penalty || []);
      const taken = entry.taken || {};
      tick(form, "queen", Object.keys(taken).find((p) => taken[p].queen) || null);
      tick(form, "plus", Object.keys(taken).find((p) => taken[p].plus) || null);
      for (const [p, got] of Object.entries(taken)) {
        setValue(form, `hearts:${p}`, got.hearts || 0);
        setValue(form, `queens:${p}`, got.queens || 0);
      }
    },
    auction(form, entry) {
      setValue(form, "bidder", entry.bid ? entry.bid.player : "");
      setValue(form, "chips", entry.bid ? entry.bid.chips : "");
      setValue(form, "suit", entry.suit || "clubs");
      for (const [p, n] of Object.entries(entry.taken || {})) setValue(form, `cards:${p}`, n);
    },
    rummy(form, entry) {
      tick(form, "knocker", entry.knocker || null);
      for (const [p, hand] of Object.entries(entry.hands || {})) {
        setValue(form, `deadwood:${p}`, (hand.deadwood || []).join(" "));
        setValue(form, `melds:${p}`, (hand.melds || []).map((m) => m.join(" ")).join("; "));
      }
    },
    casino(form, entry) {
      const captured = entry.captured || {};
      tick(form, "big_casino", Object.keys(captured).find((p) => captured[p].big_casino) || null);
      tick(form, "little_casino", Object.keys(captured).find((p) => captured[p].little_casino) || null);
      for (const [p, got] of Object.entries(captured)) {
        for (const key of ["count", "spades", "aces", "sweeps"]) setValue(form, `${key}:${p}`, got[key] || 0);
      }
    },
    fields(form, entry) {
      for (const box of form.querySelectorAll(".entry-field")) {
        const value = entry[box.dataset.name];
        const kind = box.dataset.kind;
        for (const el of box.querySelectorAll("select, input")) {
          if (kind === "players") el.checked = Array.isArray(value) && value.includes(el.value);
          else if (kind === "flag" || kind === "passed") el.checked = value === true;
          else if (kind === "per_side") el.value = value && typeof value === "object" && el.dataset.side in value ? value[el.dataset.side] : "";
          else el.value = value === undefined || value === null ? "" : String(value);
        }
      }
      showPassed(form);
    },
  };
  const correctForm = document.getElementById("correct-form");
  if (correctForm) {
    const fill = () => {
      const entry = entries[String(num(correctForm, "deal"))];
      const filler = fillers[correctForm.dataset.fields];
      if (entry && filler) filler(correctForm, entry);
    };
    correctForm.elements.deal.addEventListener("change", fill);
    fill();
  }

  // a check's answer as the server words it in the reader's language (cardroom/wording.py: check_words)
  function describe(answer) {
    return typeof answer.said === "string" ? answer.said : "";
  }

  // sent by the shared binder (static/croupier/apiforms.js): the body built by the form's builder; a check shows
  // its answer, a new sheet opens, anything else reloads the page
  CroupierForms.bind({
    showError,
    build: (form) => ({ url: form.dataset.api, body: builders[form.dataset.build](form, split(form.dataset.players, "|")) }),
    done: (form, answer) => {
      if (form.dataset.output) {
        document.getElementById(form.dataset.output).textContent = describe(answer);
      } else if (form.dataset.next === "sheet" && answer.id) {
        window.location.assign(`/cardroom/sheets/${answer.id}/`);
      } else {
        window.location.reload();
      }
    },
  });
})();
