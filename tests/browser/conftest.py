"""Playwright in Debian's chromium against pytest-django's live server.

Never ``playwright install``: the tests drive ``/usr/bin/chromium`` (``apt-get install chromium``)
and are skipped, saying so, when it is missing. One browser per session, a fresh context per page,
signed in through the session as the test client signs in (the sign-in form is clicked only by the tests
of signing in: ``Screens.login``).
Screenshots of every screen go to ``artifacts/screenshots/`` (README, "Screens").
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.factories import PASSWORD

# Playwright's sync API keeps an event loop in this thread; Django refuses ORM calls from a thread
# with a running loop unless told it is safe (it is: the loop is Playwright's, not ours).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing: apt-get install -y chromium (never `playwright install`)")
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=10_000)  # the dashboard polls every 3 s; a loaded CI machine is slower
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


class Screens:
    """Pages signed in as someone, at a size; screenshots and layout checks."""

    def __init__(self, browser: Any, base_url: str) -> None:
        self.browser = browser
        self.base_url = base_url
        self.contexts: list[Any] = []

    def page(self, username: str | None = None, *, size: dict[str, int] = TABLET, at: str | None = None) -> Any:
        """A new page (its own context) at ``size``; with ``username``, signed in as them (:meth:`signed_in`) and on
        their home page, or straight on ``at`` (a path) when the test starts elsewhere: one page load, not two."""
        context = self.browser.new_context(
            viewport=size, base_url=self.base_url, accept_downloads=True, has_touch=True, locale="en-GB"
        )
        context.set_default_timeout(10_000)
        self.contexts.append(context)
        page = context.new_page()
        if username is not None:
            self.signed_in(page, username, at=at)
        elif at is not None:
            page.goto(at)
        return page

    def signed_in(self, page: Any, username: str, *, at: str | None = None) -> None:
        """Signed in as ``username`` without the form, as Django's test client signs in (the same session, the
        same ``user_logged_in`` and its audit record), then on their home page as after the form, or on ``at``:
        the sign-in form is the flow under test only where a test clicks it (:meth:`login`)."""
        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.test import Client

        client = Client()
        client.force_login(get_user_model().objects.get(username=username))
        page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": self.base_url,
                                   "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
        page.goto(at or "/")
        page.wait_for_url(lambda url: "/login/" not in url)

    def login(self, page: Any, username: str) -> None:
        """Signed in through the sign-in form, as a person does."""
        page.goto("/login/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(lambda url: "/login/" not in url)

    def shot(self, page: Any, name: str) -> Path:
        SHOTS.mkdir(parents=True, exist_ok=True)
        size = page.viewport_size
        path = SHOTS / f"{name}-{size['width']}x{size['height']}.png"
        # The whole page; one that fits its window is shot as the window (the same picture: chromium's
        # whole-page capture lays the page out again beyond the window, about ten times the CPU of a plain shot)
        fits = page.evaluate("() => document.documentElement.scrollHeight <= innerHeight"
                             " && document.documentElement.scrollWidth <= innerWidth")
        page.screenshot(path=str(path), full_page=not fits)
        return path

    def shots(self, page: Any, name: str, layout: list[str]) -> None:
        """The page checked (every control named, no overlap, no sideways scroll) and shot at both sizes."""
        assert_labelled(page)
        for size in (TABLET, PHONE):
            page.set_viewport_size(size)
            assert_layout(page, layout)
            self.shot(page, name)
        page.set_viewport_size(TABLET)

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def screens(browser: Any, live_server: Any, floor: Any) -> Iterator[Screens]:
    helper = Screens(browser, live_server.url)
    yield helper
    helper.close()


# Visible key elements must not intersect one another, and the page must not scroll sideways.
LAYOUT_JS = """(selectors) => {
  const seen = [];
  for (const sel of selectors) {
    for (const el of document.querySelectorAll(sel)) {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (r.width === 0 || r.height === 0 || style.visibility === 'hidden' || el.closest('[hidden]')) continue;
      seen.push({sel, label: (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 40),
                 x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height, el});
    }
  }
  const overlaps = [];
  for (let i = 0; i < seen.length; i++) {
    for (let j = i + 1; j < seen.length; j++) {
      const a = seen[i], b = seen[j];
      if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
      const dx = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
      const dy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
      if (dx > 1 && dy > 1) overlaps.push(`${a.sel} "${a.label}" overlaps ${b.sel} "${b.label}"`);
    }
  }
  const sideways = document.documentElement.scrollWidth - document.documentElement.clientWidth;
  return {count: seen.length, overlaps, sideways};
}"""


def assert_layout(page: Any, selectors: list[str]) -> int:
    """No two visible key elements intersect and nothing overflows sideways; returns how many were checked."""
    # after a resize, let the page (and Chart.js, on its ResizeObserver) lay out again first
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    result = page.evaluate(LAYOUT_JS, selectors)
    assert result["overlaps"] == [], result["overlaps"][:10]
    assert result["sideways"] <= 0, f"the page scrolls sideways by {result['sideways']}px"
    assert result["count"] > 0
    return result["count"]


def assert_labelled(page: Any) -> None:
    """Every visible control has an accessible name (text, aria-label or a <label>)."""
    missing = page.evaluate("""() => [...document.querySelectorAll('button, input:not([type=hidden]), select, textarea, a[href]')]
      .filter(el => el.offsetParent !== null)
      .filter(el => !(el.getAttribute('aria-label') || el.textContent.trim() || (el.labels && el.labels.length)
                      || el.getAttribute('aria-labelledby') || el.getAttribute('title')))
      .map(el => el.outerHTML.slice(0, 80))""")
    assert missing == []


def axe_violations(page: Any) -> list[str]:
    """Serious and critical axe-core violations on the page as it is now (axe-playwright-python)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]
