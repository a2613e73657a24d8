"""tally xp | vow swear|fulfil|abandon | skill | attributes | expertise add | hd spend|restore"""

from __future__ import annotations

from typing import Optional

import typer

from cli.context import options
from cli.output import GAME_DATE, JSON_OPTION, RULING
from cli.parsing import faces, pairs
from cli.session import _print_events
from commands import skill as skills
from commands import xp as commands

vow_app = typer.Typer(help="Vows (xp module): one open at a time; treasure XP is halved until fulfilled.",
                      no_args_is_help=True)
expertise_app = typer.Typer(help="Areas of expertise (xp module): the first, one per odd level, one per "
                                 "skill roll of 12.", no_args_is_help=True)
hd_app = typer.Typer(help="Hit dice (xp module): one per level, spent in play, restored in safe time.",
                     no_args_is_help=True)
DICE = typer.Option(None, "--dice", help="Faces rolled by hand, in the order the rolls happen.")
MOD = typer.Option(0, "--mod", help="The roll's modifiers: the attribute's (-3 to +3), encumbrance, armour…")


def xp(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
       amount: int = typer.Argument(..., help="XP awarded (or -N to take away; below a level's threshold "
                                              "the level goes at once); with --spent, units of treasure."),
       why: str = typer.Option(..., "--why", help="What for."),
       spent: bool = typer.Option(False, "--spent", help="Treasure spent: its XP now (treasure_xp spent), "
                                                         "halved under an open vow."),
       treasure: bool = typer.Option(False, "--treasure", help="N units of treasure seized outside `treasure "
                                                               "split`: 1 XP each, halved under an open vow."),
       json: bool = JSON_OPTION,
       game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Award XP; a new level is attained only in safe time, a level lost goes at once."""
    opts = options(ctx)
    _print_events(commands.award(opts.store(), opts.campaign, name, amount, why=why, spent=spent,
                                 treasure=treasure, actor=opts.who(), **opts.late(game_date, ruling)), json)


def skill(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
          attribute: str = typer.Argument(..., help="STR, INT, WIS, DEX, CON or CHA."),
          why: str = typer.Option(..., "--why", help="What is attempted."),
          modifier: int = MOD,
          expertise: Optional[str] = typer.Option(None, "--expertise", help="Apply this area of expertise: "
                                                                            "3D6, best two (once per session)."),
          hit_die: bool = typer.Option(False, "--hit-die", help="Spend a hit die for +1."),
          dice: Optional[str] = DICE, json: bool = JSON_OPTION,
          game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """A skill roll: 2D6 + modifiers; 12 or more grants new expertise (002 l.160-179)."""
    opts = options(ctx)
    _print_events(skills.skill(opts.store(), opts.campaign, name, attribute, why=why, modifier=modifier,
                               expertise=expertise, hit_die=hit_die, hand=faces(dice), actor=opts.who(),
                               **opts.late(game_date, ruling)), json)


def attributes(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
               scores: list[str] = typer.Argument(..., help="Scores, 3 to 18: STR=12,DEX=9 or STR=12 DEX=9 "
                                                          "(STR, INT, WIS, DEX, CON, CHA)."),
               why: Optional[str] = typer.Option(None, "--why", help="Why they are set or changed."),
               json: bool = JSON_OPTION,
               game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Set a character's attribute scores (xp module, 002 l.21-24): each gives its modifier to a skill roll."""
    opts = options(ctx)
    _print_events(skills.set_attributes(opts.store(), opts.campaign, name, pairs(scores, "the scores"), why=why,
                                        actor=opts.who(), **opts.late(game_date, ruling)), json)


@expertise_app.command("add")
def expertise_add(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
                  area: str = typer.Argument(..., help="The area, e.g. hunting."),
                  attribute: str = typer.Option(..., "--attribute", help="The one attribute it relates to."),
                  json: bool = JSON_OPTION,
                  game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Name an area of expertise the character has earned (002 l.94-95, l.105, l.179)."""
    opts = options(ctx)
    _print_events(skills.add_expertise(opts.store(), opts.campaign, name, area, attribute=attribute,
                                       actor=opts.who(), **opts.late(game_date, ruling)), json)


@hd_app.command("spend")
def hd_spend(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
             count: int = typer.Argument(1, help="Hit dice spent (any number on a save, one on another roll)."),
             on: str = typer.Option("save", "--on", help="save (each adds a die) or roll (+1)."),
             why: str = typer.Option(..., "--why", help="The roll they went to."),
             json: bool = JSON_OPTION,
             game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Spend hit dice on a save or another roll made at the table (002 l.73-76)."""
    opts = options(ctx)
    _print_events(skills.spend_hit_dice(opts.store(), opts.campaign, name, count, on=on, why=why,
                                        actor=opts.who(), **opts.late(game_date, ruling)), json)


@hd_app.command("restore")
def hd_restore(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
               modifier: int = MOD, dice: Optional[str] = DICE, json: bool = JSON_OPTION,
               game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """All spent hit dice in safe time; on an expedition, one on a successful CON roll (002 l.194-195)."""
    opts = options(ctx)
    _print_events(skills.restore_hit_dice(opts.store(), opts.campaign, name, modifier=modifier, hand=faces(dice),
                                          actor=opts.who(), **opts.late(game_date, ruling)), json)


@vow_app.command("swear")
def swear(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
          vow: str = typer.Argument(..., help="The vow: specific and worthy (002 l.109)."),
          json: bool = JSON_OPTION,
          game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Swear a vow."""
    opts = options(ctx)
    _print_events(commands.swear(opts.store(), opts.campaign, name, vow, actor=opts.who(),
                                 **opts.late(game_date, ruling)), json)


@vow_app.command("fulfil")
def fulfil(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
           xp_: Optional[int] = typer.Option(None, "--xp", help="The award, where the referee states it."),
           json: bool = JSON_OPTION,
           game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Fulfil the open vow: XP by the vow_xp setting, limited by vow_limit."""
    opts = options(ctx)
    _print_events(commands.fulfil(opts.store(), opts.campaign, name, xp=xp_, actor=opts.who(),
                                  **opts.late(game_date, ruling)), json)


@vow_app.command("abandon")
def abandon(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
            json: bool = JSON_OPTION,
            game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Abandon the open vow (no XP)."""
    opts = options(ctx)
    _print_events(commands.abandon(opts.store(), opts.campaign, name, actor=opts.who(),
                                   **opts.late(game_date, ruling)), json)
