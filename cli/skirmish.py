"""tally luck spend|regain | wound roll|heal|check | skirmish level|stat|skill|renown|clothing"""

from __future__ import annotations

from typing import Optional

import typer

from cli.context import options
from cli.output import GAME_DATE, JSON_OPTION, RULING
from cli.parsing import faces
from cli.session import _print_events
from commands import skirmish as commands

luck_app = typer.Typer(help="Luck points (skirmish): spend one to re-roll, or force a re-roll.", no_args_is_help=True)
wound_app = typer.Typer(help="Permanent, cumulative wounds (skirmish) and their healing.", no_args_is_help=True)
skirmish_app = typer.Typer(help="Skirmish characters: level, hero stats, skills, renown, clothing.",
                           no_args_is_help=True)
DICE = typer.Option(None, "--dice", help="Faces rolled by hand, in order.")


@luck_app.command("spend")
def luck_spend(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
               why: str = typer.Option(..., "--why", help="Which roll, and why."),
               mode: str = typer.Option("reroll", "--mode", help="reroll (own roll) or force-reroll (opponent's)."),
               roll: Optional[str] = typer.Option(None, "--roll",
                                                  help="The logged roll to re-roll: its position, or last."),
               expression: Optional[str] = typer.Option(None, "--expr",
                                                        help="A roll made off the ledger, to re-roll here: 2d6."),
               dice: Optional[str] = DICE, json: bool = JSON_OPTION,
               game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Spend a luck point and re-roll, or make the opponent re-roll (003 l.311-318)."""
    opts = options(ctx)
    _print_events(commands.spend_luck(opts.store(), opts.campaign, name, mode=mode, why=why, roll=roll,
                                      expression=expression, hand=faces(dice), actor=opts.who(),
                                      **opts.late(game_date, ruling)), json)


@luck_app.command("regain")
def luck_regain(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
                amount: int = typer.Argument(1, help="Luck points regained (up to luck_cap)."),
                json: bool = JSON_OPTION,
                game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Regain luck points, up to the cap."""
    opts = options(ctx)
    _print_events(commands.regain_luck(opts.store(), opts.campaign, name, amount, actor=opts.who(),
                                       **opts.late(game_date, ruling)), json)


@wound_app.command("roll")
def wound_roll(ctx: typer.Context, name: str = typer.Argument(..., help="The character left unable to fight."),
               dice: Optional[str] = DICE, json: bool = JSON_OPTION,
               game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Roll on the wound table: permanent and cumulative (003 l.120-128)."""
    opts = options(ctx)
    _print_events(commands.wound(opts.store(), opts.campaign, name, hand=faces(dice), actor=opts.who(),
                                 **opts.late(game_date, ruling)), json)


@wound_app.command("heal")
def wound_heal(ctx: typer.Context, name: str = typer.Argument(..., help="The patient."),
               wound: int = typer.Argument(..., help="The wound's number."),
               healer: str = typer.Option(..., "--healer", help="Who heals: a character with the Healing skill, "
                                                                "or anyone else with --skill."),
               skill: Optional[int] = typer.Option(None, "--skill",
                                                   help="The healing skill (1-6) of a healer who is not a character."),
               dice: Optional[str] = DICE, json: bool = JSON_OPTION,
               game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Roll on the healing table: 2d6 + the healer's skill bonus (a natural 2 is always a mistake)."""
    opts = options(ctx)
    _print_events(commands.heal(opts.store(), opts.campaign, name, wound, healer=healer, skill=skill,
                                hand=faces(dice), actor=opts.who(), **opts.late(game_date, ruling)), json)


@wound_app.command("check")
def wound_check(ctx: typer.Context, name: str = typer.Argument(..., help="The character with open wounds."),
                dice: Optional[str] = DICE, json: bool = JSON_OPTION,
                game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Each unhealed open wound: d6, death on a 1."""
    opts = options(ctx)
    _print_events(commands.check_open_wounds(opts.store(), opts.campaign, name, hand=faces(dice),
                                             actor=opts.who(), **opts.late(game_date, ruling)), json)


@skirmish_app.command("level")
def level(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
          value: int = typer.Argument(..., help="The new level."),
          why: str = typer.Option(..., "--why", help="Why."), json: bool = JSON_OPTION,
          game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Set a character's level: it caps hero stats and skills (settings stat_caps, skill_allowance)."""
    opts = options(ctx)
    _print_events(commands.set_level(opts.store(), opts.campaign, name, value, why=why, actor=opts.who(),
                                     **opts.late(game_date, ruling)), json)


@skirmish_app.command("stat")
def stat(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
         which: str = typer.Argument(..., help="Movement (M), Shooting (Sh), Striking (St), Power (Pw), Nerve (Nv), "
                                               "Intelligence (In), Will (Wi) or Leadership (Ld)."),
         value: int = typer.Argument(..., help="Its value."),
         why: str = typer.Option("", "--why", help="Why it changed."), json: bool = JSON_OPTION,
         game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Set a hero stat, within the cap of the character's level (003 l.322)."""
    opts = options(ctx)
    _print_events(commands.set_stat(opts.store(), opts.campaign, name, which, value, why=why, actor=opts.who(),
                                    **opts.late(game_date, ruling)), json)


@skirmish_app.command("skill")
def skill(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
          which: str = typer.Argument(..., help="The skill (Healing lets a character roll on the healing table)."),
          rating: int = typer.Argument(..., help="The skill's level, 1-6."),
          why: str = typer.Option("", "--why", help="How it was learned."), json: bool = JSON_OPTION,
          game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Set a skill's level, within the skills the character's level allows (003 l.322, l.348)."""
    opts = options(ctx)
    _print_events(commands.set_skill(opts.store(), opts.campaign, name, which, rating, why=why, actor=opts.who(),
                                     **opts.late(game_date, ruling)), json)


@skirmish_app.command("renown", context_settings={"ignore_unknown_options": True})
def renown(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
           delta: int = typer.Argument(..., help="+N or -N."),
           why: str = typer.Option(..., "--why", help="Why."), json: bool = JSON_OPTION,
           game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Change a character's renown."""
    opts = options(ctx)
    _print_events(commands.change_renown(opts.store(), opts.campaign, name, delta, why=why, actor=opts.who(),
                                         **opts.late(game_date, ruling)), json)


@skirmish_app.command("clothing")
def clothing(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
             worn: str = typer.Argument(..., help="Rags, Common Clothes, Woodsman's Clothes, Good Clothes, Noble's "
                                                  "Clothes, Army Uniform, Officer's Uniform or Armour."),
             json: bool = JSON_OPTION,
             game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """What the character wears: renown in real terms, and armour's -1 M and -1 deadliness (003 l.419-435)."""
    opts = options(ctx)
    _print_events(commands.wear(opts.store(), opts.campaign, name, worn, actor=opts.who(),
                                **opts.late(game_date, ruling)), json)
