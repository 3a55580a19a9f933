"""A real browser on the real service: headless Chromium from the system's packages,
driven by Playwright, against a uvicorn server over the session's PostgreSQL.

Playwright's own browser download does not work everywhere (it needs the network), so
the tests use the distribution's Chromium and skip, saying why, where it is missing.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.server import running_server

CHROMIUM = Path("/usr/bin/chromium")
# Without the background-networking switches Chromium keeps reaching for a network
# that may not be there.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 375, "height": 812}
AXE_VERSION = "4.14.1"


@pytest.fixture(scope="module")
def base_url(database_url: str) -> Iterator[str]:
    with running_server(database_url) as url:
        yield url


@pytest.fixture(scope="module")
def client(base_url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base_url, timeout=30) as client:
        yield client


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        pytest.skip(
            "no Chromium at /usr/bin/chromium: install Debian's `chromium` package "
            "(.ci/run does) to run the browser tests"
        )
    from playwright.sync_api import expect, sync_playwright

    # The same patience for an assertion as for an action (the context's default,
    # below): the suite's tests run side by side, and a busy machine may take more
    # than Playwright's 5 s to show what a live stream brought.
    expect.set_options(timeout=10_000)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=CHROMIUM_ARGS,
        )
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser, base_url: str):
    """Open a phone-sized page in a browser context of its own (its own storage),
    in a browser set to `locale` (English unless a test says otherwise, whatever
    the machine's own language). `service_workers="block"` keeps the app's service
    worker out, for a test that routes the page's requests: Playwright's routes can
    miss requests made while a service worker controls the page."""
    contexts = []

    def open_page(locale: str = "en-GB", *, service_workers: str = "allow"):
        context = browser.new_context(
            viewport=PHONE,
            base_url=base_url,
            locale=locale,
            service_workers=service_workers,
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.errors = errors
        return page

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def axe_source(tmp_path_factory) -> str:
    """axe-core's script, for the accessibility checks (tests.support.pages.serious):
    installed from npm for the session, never shipped with the page."""
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed: axe-core cannot be fetched")
    prefix = tmp_path_factory.mktemp("axe")
    try:
        subprocess.run(
            [
                "npm",
                "install",
                "--prefix",
                str(prefix),
                "--prefer-offline",
                "--no-audit",
                "--no-fund",
                f"axe-core@{AXE_VERSION}",
            ],
            check=True,
            capture_output=True,
            timeout=180,
        )
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
        pytest.skip(f"npm could not install axe-core: {error}")
    return (Path(prefix) / "node_modules/axe-core/axe.min.js").read_text()
