"""Rolls from other tools come in as hand rolls: every die, exact totals, once."""

import json
from decimal import Decimal
from pathlib import Path

from commands.imports import foundry

IMPORTS = Path(__file__).parent.parent / "fixtures" / "imports"
HYRULE = IMPORTS / "foundry-hyrule-messages.db"


def _source_rolls():
    """Every roll of the real Foundry sample, read straight from its JSON."""
    for line in HYRULE.read_text().splitlines():
        message = json.loads(line, parse_float=Decimal)
        for n, roll in enumerate(message.get("rolls") or []):
            data = json.loads(roll, parse_float=Decimal)
            faces = [r["result"] for t in data["dice"] + [t for t in data["terms"] if t["class"] == "Die"]
                     for r in t["results"]]
            yield f"{message['_id']}:{n}", data["formula"].strip(), faces, data["total"]


def test_every_die_and_total_of_a_real_foundry_world_is_recovered():
    parsed = foundry.parse(HYRULE.read_text())
    assert parsed.problems == []
    got = {r.source_id: (r.formula, r.dice, r.total) for r in parsed.rolls}
    expected = {ident: (formula, faces, total) for ident, formula, faces, total in _source_rolls()}
    assert got == expected and len(got) == 80
    assert sum(len(faces) for _, faces, _ in expected.values()) == 58


def test_a_foundry_import_is_recorded_once_with_exact_decimal_totals(campaign):
    campaign.ok("player", "add", "Dave")
    campaign.ok("char", "new", "DeKimbix", "--player", "Dave", "--max-hp", "5")
    report = campaign.ok("import-rolls", "foundry", str(HYRULE), "--json").json
    assert (report["rolls"], report["dice"], report["already_imported"]) == (80, 58, 0)
    assert report["per_speaker"] == {"DeKimbix (Copy)": 75, "DeKimbix": 5}
    assert report["characters"] == {"DeKimbix": "DeKimbix"}  # matched by name; the copy is no character
    assert [(s["rolls"], s["dice"]) for s in report["per_session"]] == [(75, 48), (5, 10)]
    rolls = [e["payload"] for e in campaign.ok("log", "--type", "dice.rolled", "--json").json]
    decimal = next(p for p in rolls if p["source_id"] == "57KTYzOR5FVspEdq:0")
    assert (decimal["exact_total"], decimal["total"], decimal["dice"]) == ("11.9", 11, [1, 6])
    assert decimal["verifiable"] is False and decimal["rolled_at"] == "2023-05-29T00:19:09.909Z"
    assert sum(1 for p in rolls if p["character"] == "DeKimbix") == 5
    before = campaign.event_count()
    again = campaign.ok("import-rolls", "foundry", str(HYRULE), "--json").json
    assert (again["rolls"], again["already_imported"]) == (0, 80) and campaign.event_count() == before
    assert campaign.ok("audit", "--json").json  # hand rolls do not disturb the audit


def test_a_map_file_names_the_character_behind_a_speaker(campaign, tmp_path):
    campaign.ok("player", "add", "Dave")
    campaign.ok("char", "new", "DeKimbix", "--player", "Dave", "--max-hp", "5")
    mapping = tmp_path / "map.toml"
    mapping.write_text('"DeKimbix (Copy)" = "DeKimbix"\n')
    report = campaign.ok("import-rolls", "foundry", str(HYRULE), "--map", str(mapping), "--json").json
    assert report["characters"] == {"DeKimbix (Copy)": "DeKimbix", "DeKimbix": "DeKimbix"}
    mapping.write_text('"DeKimbix (Copy)" = "Nobody"\n')
    assert "no character" in campaign.refused("import-rolls", "foundry", str(HYRULE), "--map", str(mapping)).stderr


def test_a_bad_line_is_named_and_nothing_is_written_unless_skipped(campaign, tmp_path):
    lines = HYRULE.read_text().splitlines()
    broken = lines[:3] + ["{not json"] + lines[3:5]
    flat = next(i for i, line in enumerate(lines) if '2d6 + 0\\"' in line and i >= 5)
    tampered = json.loads(lines[flat])
    roll = json.loads(tampered["rolls"][0])
    roll["total"] = 99
    tampered["rolls"][0] = json.dumps(roll)
    log = tmp_path / "messages.db"
    log.write_text("\n".join(broken + [json.dumps(tampered)]) + "\n")
    assert "2d6 + 0" in json.loads(tampered["rolls"][0])["formula"]
    said = campaign.refused("import-rolls", "foundry", str(log)).stderr
    assert "2 line(s) cannot be read: line 4: not a JSON chat message" in said
    assert "line 7: " in said and "total 99 does not follow from its dice" in said
    report = campaign.ok("import-rolls", "foundry", str(log), "--skip-bad", "--json").json
    assert report["rolls"] == 5 and [s["line"] for s in report["skipped"]] == [4, 7]


def test_imports_are_refused_while_a_session_is_open_and_for_unknown_sources(campaign, tmp_path):
    assert "unknown roll log" in campaign.refused("import-rolls", "fantasy-grounds", str(HYRULE)).stderr
    assert "cannot read roll log" in campaign.refused("import-rolls", "foundry", str(tmp_path / "none")).stderr
    campaign.ok("player", "add", "Dave")
    campaign.ok("char", "new", "DeKimbix", "--player", "Dave", "--max-hp", "5")
    campaign.ok("session", "open", "--activate", "DeKimbix", "--no-income")
    assert "session 1 is open" in campaign.refused("import-rolls", "foundry", str(HYRULE)).stderr


def test_roll20_and_ddb_logs_keep_every_die_and_which_were_dropped(campaign):
    campaign.ok("player", "add", "Ann")
    campaign.ok("char", "new", "Bo", "--player", "Ann", "--max-hp", "4")
    roll20 = campaign.ok("import-rolls", "roll20", str(IMPORTS / "roll20-chat-archive.html"), "--json").json
    assert (roll20["rolls"], roll20["dice"], roll20["characters"]) == (2, 5, {"Bo": "Bo"})
    ddb = campaign.ok("import-rolls", "ddb", str(IMPORTS / "ddb-roll-events.jsonl"), "--json").json
    assert (ddb["rolls"], ddb["dice"], ddb["per_speaker"]) == (3, 5, {"Bo": 2, "Nureddine": 1})
    rolls = {p["source_id"]: p for p in (e["payload"] for e in campaign.ok("log", "--type", "dice.rolled",
                                                                           "--json").json)}
    keep3 = rolls["-Nabc1:0"]  # 4d6kh3+1: the 2 is dropped
    assert (keep3["dice"], keep3["dropped"], keep3["total"], keep3["source"]) == ([5, 2, 6, 3], [1], 15, "roll20")
    advantage, disadvantage = rolls["r-1:0"], rolls["r-2:0"]
    assert (advantage["dice"], advantage["dropped"], advantage["total"]) == ([4, 17], [0], 22)
    assert (disadvantage["dice"], disadvantage["dropped"], disadvantage["total"]) == ([11, 3], [0], 5)
    assert campaign.ok("import-rolls", "ddb", str(IMPORTS / "ddb-roll-events.jsonl"), "--json").json["rolls"] == 0


def test_ddb_advantage_is_two_d20_kept_high_whichever_way_the_notation_is_written(campaign, tmp_path):
    # D&D Beyond writes "1d20+5" for a roll at advantage whose two d20 show [4, 17]: read as one d20,
    # the luck report gave it 1/5 of doing as well, not 9/25 (and 9/10 for the disadvantage, not 81/100).
    campaign.ok("player", "add", "Ann")
    campaign.ok("char", "new", "Bo", "--player", "Ann", "--max-hp", "4")
    campaign.ok("char", "new", "Nureddine", "--player", "Ann", "--max-hp", "4")
    campaign.ok("import-rolls", "ddb", str(IMPORTS / "ddb-roll-events.jsonl"))
    found = {r["why"]: r for r in campaign.ok("dice", "report", "--json").json["rolls"]}
    advantage, disadvantage = found["Longsword to hit"], found["Stealth check"]
    assert (advantage["expression"], advantage["p_at_least"]) == ("2d20kh1+5", "9/25")
    assert (disadvantage["expression"], disadvantage["p_at_least"]) == ("2d20kl1+2", "81/100")
    assert found["Longsword damage"]["expression"] == "1d8+3"


def test_a_brought_in_roll_whose_faces_its_notation_cannot_show_gets_no_odds(campaign, tmp_path):
    # A d20 showing 25, a 2d6 with one face: odds for them would be the odds of another roll.
    campaign.ok("player", "add", "Ann")
    campaign.ok("char", "new", "Bo", "--player", "Ann", "--max-hp", "4")
    line = ('{{"id": "{id}", "dateTime": "1685318947460", "eventType": "dice/roll/fulfilled", "data": {{"rollId": '
            '"{id}", "context": {{"name": "Bo"}}, "rolls": [{{"diceNotationStr": "{notation}", "rollKind": "", '
            '"result": {{"constant": 0, "values": {values}, "total": {total}}}}}]}}}}')
    log = tmp_path / "odd.jsonl"
    log.write_text("\n".join([line.format(id="a", notation="1d20", values="[25]", total=25),
                              line.format(id="b", notation="2d6", values="[3]", total=3)]) + "\n")
    campaign.ok("import-rolls", "ddb", str(log))
    rolls = campaign.ok("dice", "report", "--json").json["rolls"]
    assert [r["p_at_least"] for r in rolls] == [None, None]
    assert rolls[0]["refused"].startswith("no odds: its faces [25] are no roll of 1d20")
    assert rolls[1]["refused"].startswith("no odds: its faces [3] are no roll of 2d6")


def test_a_schema_1_roll_reads_as_schema_2_with_no_source_and_nothing_dropped():
    from ledger.events.registry import decode
    from ledger.events.upcasters import upcast

    stored = {"expression": "2d6", "dice": [3, 4], "total": 7, "epoch": 1, "nonce": 0, "verifiable": True,
              "character": None, "why": None}
    lifted = upcast("dice.rolled", 1, stored)
    assert stored == {**stored} and "source" not in stored  # the stored dict is left alone
    assert (lifted["source"], lifted["dropped"], lifted["exact_total"], lifted["check"]) == (None, [], None, None)
    assert decode("dice.rolled", 1, stored).total == 7
