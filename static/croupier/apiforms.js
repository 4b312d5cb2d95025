/* The back-office forms that post JSON to the API (the slot floor, the card room): one binder for both.
 * Each `form[data-api]` is sent with an Idempotency-Key (kept across retries of the same submission, fresh once the
 * server answered) and the CSRF token. The page renders these forms' submit buttons disabled: a tap before this
 * script has bound the form would submit it to the page itself (nothing sent to the API, the entry lost in a
 * reload), so binding a form is what enables its button. The server is the only judge: its refusal is shown in
 * its own words (the reader's language); no answer at all says so and keeps the key, so sending again cannot
 * record the entry twice.
 *
 *   CroupierForms.bind({build, done, showError})
 *     build(form) → {url, body}: the request (throws an Error whose message is shown when the form is incomplete)
 *     done(form, answer): after a success (reload, or show the answer)
 */
(() => {
  "use strict";

  const gettext = window.gettext || ((t) => t); // Django's JavaScript catalog, loaded by the page before this
  const csrf = (document.querySelector('meta[name="csrf-token"]') || {}).content || "";
  const newKey = () => (window.crypto && crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`);

  function bindForm(form, { build, done, showError }) {
    for (const b of form.querySelectorAll('button[type="submit"][disabled]')) b.disabled = false;
    let pending = null; // the key of a submission not yet answered: a retry reuses it
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      showError("");
      let request;
      try {
        request = build(form);
      } catch (e) {
        showError(e.message);
        return;
      }
      pending = pending || newKey();
      const button = form.querySelector('button[type="submit"]');
      if (button) button.disabled = true;
      try {
        const resp = await fetch(request.url, {
          method: "POST", credentials: "same-origin",
          headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf,
            "Idempotency-Key": pending },
          body: JSON.stringify(request.body),
        });
        const answer = await resp.json().catch(() => ({}));
        pending = null; // answered: refused (nothing written) or done; a new try is a new request
        if (!resp.ok) {
          const err = answer.error || {};
          showError(err.message || resp.statusText); // the server's sentence; its field is the machine's pointer
          return;
        }
        done(form, answer);
      } catch (e) {
        showError(gettext("No answer from the server: send again (the same entry is not recorded twice)."));
      } finally {
        if (button) button.disabled = false;
      }
    });
  }

  window.CroupierForms = {
    bind(handlers) {
      for (const form of document.querySelectorAll("form[data-api]")) bindForm(form, handlers);
    },
  };
})();
