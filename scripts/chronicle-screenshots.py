"""Screenshots of the chronicle's main pages for the README (docs/screenshots/),
taken by Playwright driving Debian's Chromium against `tally serve` on the
open-table sample campaign (fixtures/open-table.tally).
Usage: .venv/bin/python scripts/chronicle-screenshots.py"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "screenshots"
CHROMIUM = os.environ.get("TALLY_CHROMIUM", "/usr/bin/chromium")
TALLY = str(Path(sys.executable).with_name("tally"))
PAGES = {  # file: (address, what to wait for)
    "campaign.png": ("?date=1024-04-22", "#stables"),
    "character.png": ("character?name=Nureddine", "#chart-cash"),
    "why.png": ("why?subject=Nureddine&field=wealth", "#why"),
    "dice.png": ("dice?epoch=1", "#rolls"),
    "timeline.png": ("timeline", "#timeline"),
}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        db = f"sqlite:///{work}/open-table.db"
        env = {**os.environ, "TALLY_ACTOR": "referee"}
        subprocess.run([TALLY, "--db", db, "script", str(ROOT / "fixtures" / "open-table.tally"), "--quiet"],
                       check=True, env=env, stdout=subprocess.DEVNULL)
        server = subprocess.Popen([TALLY, "--db", db, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
        try:
            base = re.search(r"http://\S+/", server.stdout.readline()).group(0)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                page = browser.new_page(viewport={"width": 1280, "height": 1000})
                for name, (address, ready) in PAGES.items():
                    page.goto(base + address)
                    page.wait_for_selector(ready)
                    if name == "dice.png":
                        page.click("#check-page")
                        page.locator('#check-result:not([data-ok=""])').wait_for()
                    page.screenshot(path=str(OUT / name))
                    print(f"wrote {OUT / name}")
                browser.close()
        finally:
            server.send_signal(2)
            server.wait(15)


if __name__ == "__main__":
    main()
