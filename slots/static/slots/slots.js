/* Slot-floor screens: every form's fields turned into JSON and posted to /api/slots/… by the shared binder
 * (static/croupier/apiforms.js: an Idempotency-Key kept across retries, the CSRF token), then the page reloads.
 * The server is the only judge: its refusal is shown as is.
 *
 * Fields: data-type="int" → a whole number; data-type="money" → a decimal amount turned into minor units
 * exactly (text arithmetic, no floats; the form's data-digits decimals); a checkbox → true/false; a multiple
 * select → a list; empty fields are left out; a dotted name ("supervisor.pin") goes into an object ("supervisor").
 * "{name}" in the form's data-api is filled from the field of that name. */
(() => {
  "use strict";

  // Django's JavaScript catalog (/jsi18n/, loaded by the page): the words in the reader's language
  const gettext = window.gettext || ((t) => t);
  const fmt = (text, values) => text.replace(/%\((\w+)\)s/g, (_, k) => String(values[k]));
  // a field as its form names it (the label's words before the input), never its code
  const fieldWords = (el) => ((el.closest("label") || {}).firstChild?.textContent || el.name).trim();
  const errorBox = document.getElementById("error");

  function showError(message) {
    if (!errorBox) return;
    errorBox.textContent = message;
    errorBox.hidden = !message;
    if (message) errorBox.scrollIntoView({ block: "nearest" });
  }

  function minorUnits(text, digits, label) {
    try { // the one parser of typed money (static/croupier/money.js), the server's rules
      return window.CroupierMoney.parse(text, { ...window.CroupierMoney.conf(), digits });
    } catch (e) {
      throw new Error(fmt(gettext("%(field)s: %(why)s"), { field: label, why: e.message }));
    }
  }

  function build(form) {
    const digits = Number(form.dataset.digits || 2);
    const body = {};
    for (const el of form.elements) {
      if (!el.name) continue;
      if (el.type === "checkbox") {
        body[el.name] = el.checked;
        continue;
      }
      if (el.multiple) { // a list: every option chosen (ids for data-type="int")
        const chosen = [...el.selectedOptions].map((o) => o.value);
        body[el.name] = el.dataset.type === "int" ? chosen.map(Number) : chosen;
        continue;
      }
      const text = el.value.trim();
      if (text === "") continue;
      if (el.dataset.type === "int") {
        if (!/^\d+$/.test(text)) throw new Error(fmt(gettext("%(field)s: type a whole number."), { field: fieldWords(el) }));
        body[el.name] = Number(text);
      } else if (el.dataset.type === "money") {
        body[el.name] = minorUnits(text, digits, fieldWords(el));
      } else {
        body[el.name] = text;
      }
    }
    for (const name of Object.keys(body)) { // "supervisor.username" → body.supervisor.username
      const [outer, inner] = name.split(".");
      if (inner === undefined) continue;
      body[outer] = { ...(body[outer] || {}), [inner]: body[name] };
      delete body[name];
    }
    let url = form.dataset.api;
    url = url.replace(/\{(\w+)\}/g, (_, name) => {
      const value = body[name];
      delete body[name];
      return encodeURIComponent(value === undefined ? "" : value);
    });
    return { url, body };
  }

  // sent by the shared binder (static/croupier/apiforms.js); a success reloads the page with its new figures
  CroupierForms.bind({ build, showError, done: () => window.location.reload() });
})();
