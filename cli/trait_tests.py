"""tally test: a Skill, Save, attribute or test rolled from the character's sheet."""

from __future__ import annotations

from typing import Optional

import typer

from cli.context import options
from cli.output import GAME_DATE, JSON_OPTION, RULING, chance_text, print_json
from cli.parsing import faces
from cli.session import _print_events
from commands import trait_tests as commands
from ledger.errors import BadInput


def take_test(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="The character tested."),
    trait: str = typer.Argument(..., help="What is tested: a Skill or Save (004: Stealth, Vigor…), an attribute "
                                          "(002: STR, DEX…), Interpersonal, Perception or Drinking (003), or a "
                                          "save (000: Dodging, Physique, Warding)."),
    ob: Optional[int] = typer.Option(None, "--ob", help="004: the Objective, successes needed (default 3, "
                                                        "l.33); the other rulesets' tests have their own target."),
    bonus: int = typer.Option(0, "--bonus", help="004: bonus (+N) or penalty (-N) dice (l.38); elsewhere the "
                                                 "modifiers the referee names, added to the roll (to the score "
                                                 "in 003)."),
    aid_by: Optional[list[str]] = typer.Option(None, "--aid-by", help="004: an ally who helps, handing over a "
                                                                      "Helping die (l.40); repeatable."),
    why: Optional[str] = typer.Option(None, "--why", help="What is attempted."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show the test and its exact odds; record nothing."),
    dice: Optional[str] = typer.Option(None, "--dice", help="Faces rolled by hand, in the order they were read."),
    json: bool = JSON_OPTION,
    game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING,
) -> None:
    """Test a character from the sheet: pool and target formed from it, recorded with pass or fail and the margin."""
    opts = options(ctx)
    aid_by = aid_by or []
    if dry_run:
        if dice is not None:
            raise BadInput("a dry run rolls nothing: drop --dice")
        pool = commands.dry_run(opts.store(), opts.campaign, name, trait, ob=ob, bonus=bonus, aid_by=aid_by)
        odds = pool.odds()
        if json:
            print_json({"dry_run": True, **pool.as_dict(), **odds})
            return
        typer.echo(f"{pool.character} tests {pool.trait} ({pool.seed}): {made_up(pool)}")
        bands = "".join(f"; {band.replace('_', ' ')} {chance_text(odds[band]['chance'], odds[band]['exact'])}"
                        for band in ("epic_success", "epic_failure") if band in odds)
        typer.echo(f"{pool.expression} {_reading(pool)}: passes {chance_text(odds['chance'], odds['exact'])}"
                   f"{bands}. Nothing recorded.")
        return
    _print_events(commands.take(opts.store(), opts.campaign, name, trait, actor=opts.who(), ob=ob, bonus=bonus,
                                aid_by=aid_by, why=why, hand=faces(dice), **opts.late(game_date, ruling)), json)


def made_up(pool: commands.Pool) -> str:
    """The make-up, in the pool's unit: ``base dice 2 + Stealth 3 + help from Cy 1 = 6 dice``."""
    terms = " ".join(f"{'-' if v < 0 else '+'} {w} {abs(v)}" if i else f"{w} {v}"
                     for i, (w, v) in enumerate(pool.parts))
    if pool.unit == "dice":
        return f"{terms} = {sum(v for _, v in pool.parts)} dice"
    if pool.rules == "skirmish":
        return f"score {terms} = {pool.target.number}"
    return f"{pool.expression} {'+' if pool.modifier >= 0 else '-'} {abs(pool.modifier)}" + (
        f" ({', '.join(f'{w} {v:+d}' for w, v in pool.parts)})" if pool.parts else ", no modifiers")


def _reading(pool: commands.Pool) -> str:
    if pool.unit == "dice":
        return f"against Ob {pool.target.number}"
    return f"{'total' if pool.modifier or pool.naturals_stand else 'roll'} {pool.target}"
