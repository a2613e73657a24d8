"""Printing the luck report (`tally dice report`): the rolls, then the summaries."""

from __future__ import annotations

from typing import Optional

import typer

from cli.output import print_table


def percent(value: Optional[float]) -> str:
    return "-" if value is None else f"{value * 100:.0f}%"


def chance(text: Optional[str]) -> str:
    """An exact chance as a percentage and the fraction: "15% (3/20)"."""
    if text is None:
        return "-"
    numerator, denominator = (int(x) for x in text.split("/"))
    shown = numerator / denominator * 100
    figure = f"{shown:.2g}%" if shown < 1 else f"{shown:.0f}%" if shown >= 10 else f"{shown:.1f}%"
    return f"{figure} ({text})" if len(text) <= 15 else figure


def unusual(found: Optional[dict]) -> str:
    """How unusual a run was: "lucky: 1 in 8 runs is as far from even" (≈ where approximated)."""
    if found is None:
        return "-"
    if found["direction"] == "even":
        return "even: as lucky as the dice"
    about = "" if found["exact"] else "≈"
    one_in = f"1 in {found['one_in']:,}" if found["one_in"] is not None else "never"
    return f"{found['direction']}, {about}{one_in}"


def _note(row: dict) -> str:
    said = []
    if row["check"]:
        c = row["check"]
        said.append(f"{'Ob' if c['against'] == 'ob' else c['against'].replace('_', ' ')} {c['target']}: "
                    f"{'pass' if c['passed'] else 'fail'}")
    if row["better"] == "lower":
        said.append("lower is better")
    if row["hand"]:
        said.append("by hand" + (f" ({row['source']})" if row["source"] else ""))
    elif row["player_seed"] is False:
        said.append("no player seed")
    if row["refused"]:
        said.append(row["refused"])
    return "; ".join(said)


def _roll(brief: Optional[dict], field: str) -> str:
    if brief is None:
        return "-"
    return f"#{brief['position']} {brief['expression']} = {brief['total']} ({chance(brief[field])})"


def print_report(found: dict, seed_note: Optional[str]) -> None:
    title = f"Luck: {found['label']}" + (f", {found['for']}'s rolls" if found["for"] else "")
    print_table(["#", "date", "who", "roll", "total", "P(as good or better)", "P(pass)", "percentile", "note"],
                [(r["position"], r["game_date"], r["character"] or "-", r["expression"], r["total"],
                  chance(r["p_at_least"]), chance(r["p_pass"]), percent(r["percentile"]), _note(r))
                 for r in found["rolls"]], title=title)
    rows = [(s["name"], "character", s) for s in found["characters"]] + \
           [(s["name"], "player", s) for s in found["players"]] + [("everyone", "table", found["table"])]
    print_table(["who", "", "rolls", "mean percentile", "luckiest (P as good or better)",
                 "unluckiest (P as bad or worse)", "how unusual"],
                [(name, kind, f"{s['counted']}" + (f" of {s['rolls']}" if s["counted"] != s["rolls"] else ""),
                  percent(s["mean_percentile"]), _roll(s["luckiest"], "p_at_least"),
                  _roll(s["unluckiest"], "p_at_most"), unusual(s["unusual"])) for name, kind, s in rows],
                title="Summary")
    typer.echo("how unusual: how often fair dice, rolling the same rolls, end as far from an even mean "
               "percentile (50%), either way (≈: approximated)")
    hand = found["table"]["hand"]
    if hand:
        typer.echo(f"note: {hand} hand roll{'s are' if hand != 1 else ' is'} included: recorded, not verifiable")
    left = found["table"]["rolls"] - found["table"]["counted"]
    if left:
        typer.echo(f"note: {left} roll{'s have' if left != 1 else ' has'} no odds (see its note) and "
                   f"{'are' if left != 1 else 'is'} left out of the summary")
    if seed_note:
        typer.echo(f"note: {seed_note}")
