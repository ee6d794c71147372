"""Real browser: a shared URL opens the view it describes (language pair, alpha, test,
display names), the page writes its settings back into the address bar (an alpha click too:
tests/browser/test_browser_metrics.py), and names edited in the page's small table reach the
figures."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, quote, urlparse

import pytest

from tests.browser.helpers import (
    assert_no_exception,
    goto_page,
    screenshot,
    wait_for_charts,
    wait_until_still,
)

_TICKS_JS = """
key => [...document.querySelectorAll('.st-key-' + key + ' .xtick text')].map(e => e.textContent)
"""


@pytest.mark.opens_its_page
def test_url_with_settings_opens_that_view(page, app_url, artifacts_dir):
    aliases = quote(json.dumps({"BLEU": "BLEU-4"}))
    goto_page(page, app_url, f"?lp=fr-en&alpha=0.01&test=two-sided&aliases={aliases}")
    wait_for_charts(page, minimum=5)
    wait_until_still(page)
    assert_no_exception(page)
    screenshot(page, artifacts_dir, "metrics_shared_url")
    lp = page.locator(".st-key-metrics_lp")
    assert lp.get_by_text("fr-en", exact=True).count() == 1 or (
        lp.locator("input").first.input_value() == "fr-en"
    )
    checked = page.locator(".st-key-metrics_alpha input[type=radio]:checked")
    assert checked.count() == 1
    assert page.locator(".st-key-metrics_alpha label:has(input:checked)").inner_text().strip() == (
        "0.01"
    )
    assert (
        "two-sided"
        in page.locator(".st-key-metrics_alternative label:has(input:checked)").inner_text()
    )
    ticks = page.evaluate(_TICKS_JS, "metrics_grid")
    assert "BLEU-4" in ticks and "BLEU" not in ticks
    assert "α = 0.01" in page.locator(".st-key-metrics_grid .gtitle").first.text_content()
    # the address bar keeps (and completes) the view
    query = parse_qs(urlparse(page.url).query)
    assert query["lp"] == ["fr-en"] and query["alpha"] == ["0.01"]
    assert json.loads(query["aliases"][0]) == {"BLEU": "BLEU-4"}


@pytest.mark.opens_its_page
def test_mt_systems_url_with_settings_opens_that_view(page, app_url, artifacts_dir):
    aliases = quote(json.dumps({"Aurora": "Aurora-2"}))
    goto_page(
        page,
        app_url,
        f"mt_systems?tests=bootstrap&resamples=200&seed=7&alpha=0.01&x=Cirrus&aliases={aliases}",
        timeout=300,
    )
    wait_for_charts(page, minimum=3, timeout=300)
    wait_until_still(page)
    assert_no_exception(page)
    screenshot(page, artifacts_dir, "mt_systems_shared_url")
    alpha = page.locator(".st-key-mt_alpha label:has(input:checked)").inner_text().strip()
    assert alpha == "0.01"
    assert page.locator(".st-key-mt_seed input").input_value() == "7"
    assert page.get_by_text("random seed 7, 200 resamples").count() >= 1
    tests = page.locator(".st-key-mt_tests").text_content()
    assert "Bootstrap resampling" in tests and "Approximate" not in tests
    assert "Cirrus" in page.locator(".st-key-mt_pair_x input").first.input_value()
    labels = page.evaluate(
        "key => document.querySelector('.st-key-' + key + ' .js-plotly-plot')"
        "._fullLayout.yaxis.categoryarray",
        "mt_grids",
    )
    assert "Aurora-2" in labels and "Aurora" not in labels
    query = parse_qs(urlparse(page.url).query)
    assert query["seed"] == ["7"] and query["tests"] == ["bootstrap"]
    assert json.loads(query["aliases"][0]) == {"Aurora": "Aurora-2"}
