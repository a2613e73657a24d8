"""fixtures/evening.tally is the README's walk-through ("At the table"): the
same lines, with hand-rolled faces so its outcome is fixed. Replayed end to
end on a fresh ledger (SQLite and PostgreSQL), its output checked; and the
README's lines held to the file's, so the two cannot drift apart."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
FIXTURE = ROOT / "fixtures" / "evening.tally"


def without_dice(words: list[str]) -> list[str]:
    """A line's words less its hand-rolled faces (`--dice F` or `--dice=F`)."""
    kept, skip = [], False
    for word in words:
        if skip:
            skip = False
        elif word == "--dice":
            skip = True
        elif not word.startswith("--dice="):
            kept.append(word)
    return kept


def readme_walk_through(text: str) -> list[list[str]]:
    """The `tally …` lines of the README's "At the table" blocks, as words, without `tally`
    and without the comment beside them."""
    section = text[text.index("\n## At the table"):text.index("A mistake is withdrawn, never edited")]
    return [shlex.split(re.split(r"\s{2,}#", line.strip())[0])[1:]
            for line in section.splitlines() if line.startswith("    tally ")]


def fixture_lines(text: str) -> list[list[str]]:
    return [without_dice(shlex.split(line)) for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def test_the_readme_shows_the_fixtures_lines_and_nothing_else():
    readme, fixture = README.read_text(encoding="utf-8"), FIXTURE.read_text(encoding="utf-8")
    shown = readme_walk_through(readme)
    assert len(shown) >= 30 and shown == fixture_lines(fixture)
    # The check sees a drift either way: a README line changed, a fixture line added.
    assert readme_walk_through(readme.replace("hp damage Bo 4", "hp damage Bo 3")) != fixture_lines(fixture)
    assert readme_walk_through(readme) != fixture_lines(fixture + "roll 1d6 --dice 3\n")
    assert without_dice(["roll", "1d6", "--dice", "3", "--why", "x", "--dice=4"]) == ["roll", "1d6", "--why", "x"]


# What the evening prints, in order (positions left out: they are the ledger's business).
SAID = [
    "campaign Central Oregon created at position 1, starting 1024-03-01",
    "Torches goes into Nureddine's inventory (1 Slot, Depletion 15+)",
    "session 1 opens: Nureddine, Bo",
    "Nureddine Income: 2 Cash from 5 dice",
    "epoch 2 client seed set to \"the players' own words\"",
    "6d6s4 for Bo: [5, 1, 4, 6, 2, 3] = 3, Ob 3: pass, margin 0",
    "Bo takes 4 damage (HP 4 -> 0, down and out (004 l.100)): goblin spear",
    "Nureddine gives Bo medical aid: 3 of Ob 3 on 3 dice, the Down and Out table follows",
    "Bo Down and Out 9: death",
    "Bo II joins session 1, replacing Bo",
    "Silks goes into Nureddine's inventory (1 Slot, worth 3 Cash)",
    "Nureddine's Torches (15+): d20 16, one use left",
    "Nureddine: Ob 1 with 7 dice, wagering 7 Cash",
    "Nureddine buys warhorse (Ob 1, discount, 7 Cash spent)",
    "treasure divided: Nureddine 10, Bo II 6, Cy 4",
    "Bo II Down and Out 2: boon",
    "session 1 closes",
    "audit: every revealed roll matches",
    "Nureddine turns Silks into 3 Cash",
    "Nureddine: Ob 12 with 28 dice, wagering 28 Cash",
    "Nureddine Wealth 5 -> 6, Ob 12, 14 successes: gained (28 Cash wagered)",
    "stronghold Greyhold founded, owned by company",
    "Greyhold 0 -> 1, Ob 10, 10 successes of 20 dice (6 Wealth, 14 Cash wagered by Nureddine): gained",
    "Reputation with River Guild: +0 -> +1",
    "Cass retires with 10 Boons and Wealth 6",
    "faction roll 1d6+2: [3] = 5",
    "Bo II chooses a Boon from the Adventurer list: Stealth 0 -> 1",
    "the Company pays Nureddine 2 Cash: guarding Greyhold",
]


def test_the_evening_replays_on_a_fresh_ledger_as_the_readme_tells_it(tally):
    t = tally  # both backends
    replayed = t("script", str(FIXTURE), "--each")
    assert replayed.exit_code == 0 and replayed.stderr == "", replayed
    said, at = replayed.stdout, 0
    for line in SAID:
        found = said.find(line, at)
        assert found >= 0, f"the evening never said {line!r} after:\n{said[max(0, at - 400):at]}"
        at = found + len(line)
    # Every line ran and was shown: one `$ tally` echo per line of the file.
    assert said.count("\n$ tally ") == len(fixture_lines(FIXTURE.read_text(encoding="utf-8")))

    statuses = {c["name"]: c["status"] for c in t.ok("char", "list", "--json").json}
    assert statuses == {"Nureddine": "active", "Bo": "dead", "Cass": "retired", "Bo II": "active"}
    nureddine = t.ok("char", "show", "Nureddine", "--json").json
    # 40 + 2 Income − 7 wagered + 10 shared + 3 Silks − 28 − 14 wagered − 4 paid in + 2 paid out.
    assert (nureddine["cash"], nureddine["wealth"]) == (4, 6)
    assert [(i["name"], i["last_use"]) for i in nureddine["inventory"]] == [("Torches", True), ("warhorse", False)]
    assert t.ok("char", "show", "Bo II", "--json").json["skills"] == {"Stealth": 1}
    company = t.ok("company", "--json").json
    assert (company["cash"], company["reputation"]) == (2, {"River Guild": 2})
    assert [(s["name"], s["rating"], s["tags"]) for s in company["strongholds"]] == \
        [("Greyhold", 1, ["Economy", "Garrison"])]
    session = t.ok("session", "show", "1", "--json").json
    assert (session["activated"], session["deaths"], session["open"]) == \
        ({"Ann": "Nureddine", "Ben": "Bo II"}, ["Bo"], False)
    assert t.ok("audit", "--json").json["ok"] and t.ok("verify", "--json").json["ok"]
