"""The HTML report and the side-by-side site in a real browser: headless Chromium from the system's packages.

Driven by selenium through the system's chromedriver (nothing is downloaded: no Selenium Manager, no
browser of its own). Each page must load without a console error (an inline script that throws, or a
fetch the page's Content-Security-Policy blocks, is one), its filters must filter, a failure must expand
to its story. Screenshots go to reports/browser/ (CI keeps reports/ as an artifact). Without chromium
the tests skip, saying how to install it; under CI=true they fail instead (.ci/run installs it).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

SCREENSHOTS = Path(__file__).resolve().parents[2] / "reports" / "browser"
BINARIES = ("chromium", "chromedriver")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium, or a skip (a failure under CI) when the system has none."""
    found = {name: shutil.which(name) for name in BINARIES}
    missing = [name for name, path in found.items() if path is None]
    if missing:
        message = (f"{' and '.join(missing)} not found: apt-get install chromium chromium-driver "
                   "(.ci/run installs them)")
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run the browser tests: {message}")
        pytest.skip(message)
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = str(found["chromium"])
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1100"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=str(found["chromedriver"])))
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def console_errors(driver: Any) -> list[str]:
    """The browser console's errors since the last read."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def visible_rows(driver: Any, table: str) -> list[Any]:
    """The body rows of a table a person can see (requirement headers left out)."""
    return [row for row in driver.find_elements("css selector", f"#{table} tbody tr:not(.requirement)")
            if row.is_displayed()]


def choose(driver: Any, form_table: str, name: str, value: str) -> None:
    """Pick `value` in a filter select, as a person does."""
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("css selector", f'form[data-table="{form_table}"] select[name="{name}"]')
           ).select_by_value(value)


def screenshot(driver: Any, name: str) -> Path:
    """Keep a screenshot under reports/browser/."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / name
    driver.save_screenshot(str(path))
    return path


def test_the_report_page_filters_and_expands_a_failure(browser, report_runs):
    page = report_runs["fake"].with_suffix(".html")
    browser.get(page.as_uri())
    assert console_errors(browser) == []
    assert browser.find_element("id", "verdict").text == "FAIL"
    records = json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))["scenarios"]
    assert len(visible_rows(browser, "scenario-table")) == len(records)

    choose(browser, "scenario-table", "outcome", "failed")
    failed = [r["id"] for r in records if r["outcome"] == "failed"]
    shown = visible_rows(browser, "scenario-table")
    assert [row.find_element("css selector", "code").text for row in shown] == failed
    assert browser.find_element("css selector", 'form[data-table="scenario-table"] .shown').text == \
        f"{len(failed)} of {len(records)} shown"

    story = browser.find_element("id", "story-RC-SURFACE-01")
    assert story.get_attribute("open") is None
    story.find_element("css selector", "summary").click()
    assert story.get_attribute("open") == "true"
    body = story.find_element("css selector", ".body")
    assert body.is_displayed() and "WHEN" in body.text and "What broke" in body.text
    assert story.find_element("css selector", "details.call[open] pre").is_displayed()  # the last answer, open
    browser.execute_script("arguments[0].scrollIntoView()", story)
    screenshot(browser, "report-failure.png")

    choose(browser, "scenario-table", "outcome", "")
    choose(browser, "scenario-table", "bases", "document")
    with_document_basis = visible_rows(browser, "scenario-table")
    assert with_document_basis and all("document" in row.get_attribute("data-bases").split()
                                       for row in with_document_basis)
    assert len(with_document_basis) < len(records)
    choose(browser, "scenario-table", "bases", "")
    choose(browser, "scenario-table", "tools", "search_code")
    assert {row.get_attribute("data-tools") for row in visible_rows(browser, "scenario-table")} <= {
        r_tools for r_tools in (" ".join(r["tools"]) for r in records) if "search_code" in r_tools.split()}
    assert console_errors(browser) == []


def test_the_site_puts_targets_side_by_side_one_click_from_the_story(browser, report_runs):
    site = report_runs["site"]
    browser.get((site / "index.html").as_uri())
    assert console_errors(browser) == []
    headers = [th.text for th in browser.find_elements("css selector", "#matrix-table thead th")]
    assert headers[3:] == ["cruxgate-reference", "fake-code-search"]
    everything = len(visible_rows(browser, "matrix-table"))
    browser.find_element("css selector", 'form[data-table="matrix-table"] input[name="differ"]').click()
    differing = visible_rows(browser, "matrix-table")
    outcomes = [{r["id"]: r["outcome"] for r in json.loads(report_runs[name].with_suffix(".json").read_text("utf-8"))
                 ["scenarios"]} for name in ("reference", "fake")]
    expected = {sid for sid in outcomes[0].keys() | outcomes[1].keys() if outcomes[0].get(sid) != outcomes[1].get(sid)}
    assert everything == len(outcomes[0].keys() | outcomes[1].keys())
    assert "RC-SURFACE-01" in expected
    assert {row.find_element("css selector", "code").text for row in differing} == expected
    slo_rows = browser.find_elements("css selector", "#slo tbody tr")
    assert [row.find_element("css selector", "td").text for row in slo_rows] == ["SC-105", "SC-101"]
    assert slo_rows[0].is_displayed() and "2.60 ms" in slo_rows[0].text
    screenshot(browser, "site-index.png")

    cell = browser.find_element("css selector", 'a[href="fake-code-search.html#story-RC-SURFACE-01"]')
    cell.click()
    assert browser.current_url.endswith("fake-code-search.html#story-RC-SURFACE-01")
    story = browser.find_element("id", "story-RC-SURFACE-01")
    assert story.get_attribute("open") == "true" and story.find_element("css selector", ".body").is_displayed()
    assert console_errors(browser) == []
    screenshot(browser, "site-target-story.png")
