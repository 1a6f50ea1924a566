"""A real headless Chromium for the web page's tests (Debian's ``chromium``
and ``chromium-driver``, driven by selenium; nothing is downloaded).

``browsers`` (a fixture of tests/conftest.py) makes browsers (:func:`chromium`), each with its
own profile (its own storage: a player of its own), and quits them all when
the test ends.  Where the browser is missing the tests are skipped, but not
where ``HOLDEM_BROWSER_TESTS=required`` (``.ci/run``): there they fail.

Each browser keeps the WebSocket frames it receives: :func:`frames` reads
them (Chrome's performance log), for the tests that look at everything a
page was sent.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from typing import Any

import pytest

#: Where Debian puts them.
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
#: Seconds a wait for the page gives it by default.
WAIT = 30.0


def _missing() -> str | None:
    """Why no browser can be started here (None: it can)."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK) and shutil.which(os.path.basename(path)) is None:
            return f"{path} is missing (apt-get install chromium chromium-driver)"
    return None


def need_browser() -> None:
    """Skips the test where no browser can be started; fails instead where
    the browser tests are required (``HOLDEM_BROWSER_TESTS=required``)."""
    why = _missing()
    if why is None:
        return
    if os.environ.get("HOLDEM_BROWSER_TESTS") == "required":
        pytest.fail(f"the browser tests are required here, but {why}")
    pytest.skip(why)


def chromium(*, width: int = 1280, height: int = 900) -> Any:
    """A new headless Chromium (its own profile) driven by selenium, which
    keeps the WebSocket frames it receives (:func:`frames`); narrower than
    500 pixels (a window's least), a phone's screen of that size."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM if os.access(CHROMIUM, os.X_OK) else shutil.which("chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--mute-audio", "--autoplay-policy=no-user-gesture-required",
                     f"--window-size={width},{height}"):  # fmt: skip
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    driver_path = CHROMEDRIVER if os.access(CHROMEDRIVER, os.X_OK) else shutil.which("chromedriver")
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_page_load_timeout(WAIT)
    if width < 500:  # (no window is that narrow: a phone's screen is emulated, as DevTools does)
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 3, "mobile": True})  # fmt: skip
    return driver


def frames(driver: Any, *, sent: bool = False) -> list[dict[str, Any]]:
    """The WebSocket messages the page received since the last call (``sent``:
    those it sent), each parsed JSON (a frame that is not JSON: its text
    under ``"raw"``).  The performance log is read once: keep what this
    returns."""
    wanted = "Network.webSocketFrameSent" if sent else "Network.webSocketFrameReceived"
    found: list[dict[str, Any]] = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") != wanted:
            continue
        payload = message["params"]["response"]["payloadData"]
        try:
            found.append(json.loads(payload))
        except ValueError:
            found.append({"raw": payload})
    return found


def wait_until(check: Callable[[], Any], seconds: float = WAIT, what: str = "the page") -> Any:
    """Polls ``check`` until it returns something true (returned), failing
    the test after ``seconds`` with ``what`` it waited for."""
    deadline = time.monotonic() + seconds
    last: Exception | None = None
    while time.monotonic() < deadline:
        try:
            value = check()
        except Exception as exc:  # (the page changes under the look: look again)
            last = exc
            value = None
        if value:
            return value
        time.sleep(0.05)
    pytest.fail(f"waited {seconds:.0f} s for {what}" + (f" (last: {last!r})" if last else ""))
