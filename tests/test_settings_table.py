"""The README's settings table and the settings the ledger knows agree: a
referee reads the choices there, and each names the seed line it settles."""

from __future__ import annotations

import re
from pathlib import Path

from ledger.settings import SETTINGS

README = Path(__file__).resolve().parent.parent / "README.md"
SEED_LINE = re.compile(r"\b00[0-4] (l\.\d+|§\d)")


def settings_rows(text: str) -> dict[str, dict[str, str]]:
    """Each setting the table names (a row may name two), with its module, seed line and default."""
    start = text.index("| setting | module | seed line | default | choices |")
    rows = {}
    for line in text[start:].split("\n")[2:]:
        if not line.startswith("|"):
            break
        setting, module, seed, default = (cell.strip() for cell in line.strip("|").split("|")[:4])
        for key, value in zip(re.findall(r"`(\w+)`", setting), re.findall(r"`([^`]*)`", default)):
            rows[key] = {"module": module, "seed": seed, "default": value}
    return rows


def mismatches(text: str) -> list[str]:
    rows = settings_rows(text)
    found = [f"{key}: not in the README's settings table" for key in SETTINGS if key not in rows]
    found += [f"{key}: in the README but not a setting" for key in rows if key not in SETTINGS]
    for key, row in rows.items():
        if key not in SETTINGS:
            continue
        setting = SETTINGS[key]
        if (row["module"], row["default"]) != (setting.module, setting.default):
            found.append(f"{key}: README says {row['module']}/{row['default']}, "
                         f"the ledger {setting.module}/{setting.default}")
        if not SEED_LINE.search(row["seed"]):
            found.append(f"{key}: no seed line named ({row['seed']!r})")
    return found


def test_every_setting_is_in_the_readme_with_its_module_seed_line_and_default():
    assert mismatches(README.read_text(encoding="utf-8")) == []


def test_the_check_sees_a_missing_row_a_wrong_default_and_a_missing_seed_line():
    text = README.read_text(encoding="utf-8")
    row = next(line for line in text.split("\n") if line.startswith("| `trauma_pick` |"))
    assert "trauma_pick: not in the README's settings table" in mismatches(text.replace(row + "\n", ""))
    assert any(m.startswith("trauma_pick: README says") for m in
               mismatches(text.replace(row, row.replace("`rated` |", "`any` |", 1))))
    assert any(m.startswith("trauma_pick: no seed line") for m in
               mismatches(text.replace(row, row.replace("004 l.105, l.109", "the seed", 1))))
