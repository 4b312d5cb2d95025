/* The cage screens (templates/accounting/cage/): amounts of a chip-tray grid as it is typed, the drop's
 * total, the signing boxes (the fields of another person only when another person signs), and one submit
 * per form. The server computes and checks everything again; this only helps the eye.
 */
(() => {
  "use strict";

  function formatter(el) {
    const conf = window.CroupierMoney.conf(el); // the one format (static/croupier/money.js)
    return (minor) => window.CroupierMoney.format(minor, conf);
  }

  for (const tray of document.querySelectorAll("[data-chip-tray]")) {
    const money = formatter(tray);
    const update = () => {
      let total = 0;
      for (const input of tray.querySelectorAll("input[data-denomination]")) {
        const count = /^\d+$/.test(input.value.trim()) ? Number(input.value.trim()) : 0;
        const amount = count * Number(input.dataset.denomination);
        total += amount;
        const out = input.closest("tr").querySelector("[data-amount]");
        if (out) out.textContent = money(amount);
      }
      const out = tray.querySelector("[data-total]");
      if (out) out.textContent = money(total);
    };
    tray.addEventListener("input", update);
    update();
  }

  for (const box of document.querySelectorAll("[data-drop]")) {
    const money = formatter(box);
    const conf = window.CroupierMoney.conf(box);
    const parse = (text) => {
      if (!String(text || "").trim()) return 0;
      try {
        return window.CroupierMoney.parse(text, conf);
      } catch (e) {
        return NaN;
      }
    };
    const update = () => {
      let total = 0;
      for (const input of box.querySelectorAll("[data-part]")) total += parse(input.value);
      box.querySelector("[data-total]").textContent = Number.isNaN(total) ? "—" : money(total);
    };
    box.addEventListener("input", update);
    update();
  }

  for (const box of document.querySelectorAll("[data-sign]")) {
    const other = box.querySelector("[data-sign-other]");
    const update = () => {
      const chosen = box.querySelector("input[type=radio]:checked");
      other.hidden = Boolean(chosen && chosen.value === "me");
    };
    box.addEventListener("change", update);
    update();
  }

  for (const form of document.querySelectorAll("form[data-cage-form]")) {
    form.addEventListener("submit", (event) => {
      if (form.dataset.sent) { event.preventDefault(); return; }
      form.dataset.sent = "1";
      for (const b of form.querySelectorAll("button[type=submit]")) b.disabled = true;
    });
  }
})();
