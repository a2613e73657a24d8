"""tally god align|adopt|mark|pray|crawl|repent|sacrifice|punish|battle|convert|recover|odds"""

from __future__ import annotations

from typing import Optional

import typer

from cli.context import options
from cli.output import (AS_OF, AS_RECORDED, AT_EVENT, AT_SESSION, GAME_DATE, JSON_OPTION, RULING, print_json,
                         print_pairs)
from cli.parsing import faces
from cli.session import _print_events
from commands import gods as commands
from projections.reading import query
from projections.timeline import Pin
from projections.gods import odds as divine_odds

app = typer.Typer(help="Gods (Bifrost): alignments, adopt a god, earn marks, pray, crawl, repent, sacrifice, "
                       "battle and convert.", no_args_is_help=True)
DICE = typer.Option(None, "--dice", help="Faces rolled by hand, in the order the rolls happen.")


@app.command("align")
def align(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
          alignment: str = typer.Argument(..., help="Basic alignment 1-7 and cosmic order A-G, e.g. 2E."),
          json: bool = JSON_OPTION,
          game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """The character's own alignment, which its god's must match (001 l.681-688, l.755)."""
    opts = options(ctx)
    _print_events(commands.align(opts.store(), opts.campaign, name, alignment, actor=opts.who(),
                                 **opts.late(game_date, ruling)), json)


@app.command("adopt")
def adopt(ctx: typer.Context, name: str = typer.Argument(..., help="The worshipper."),
          god: str = typer.Argument(..., help="The god's name."),
          power: int = typer.Option(..., "--power", help="Power rating 1-10."),
          alignment: str = typer.Option(..., "--alignment", help="The god's alignment, e.g. 2E."),
          flatterable: bool = typer.Option(False, "--flatterable", help="Crawling prayers work on this god."),
          sacrifice: str = typer.Option("unspecified", "--sacrifice", help="What the god demands."),
          json: bool = JSON_OPTION,
          game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """A character adopts a god of its own alignment, before play begins (001 l.745, l.755; god_adoption)."""
    opts = options(ctx)
    _print_events(commands.adopt(opts.store(), opts.campaign, name, god, power=power, alignment=alignment,
                                 flatterable=flatterable, sacrifice=sacrifice, actor=opts.who(),
                                 **opts.late(game_date, ruling)), json)


@app.command("mark")
def mark(ctx: typer.Context, name: str = typer.Argument(..., help="The worshipper."),
         why: str = typer.Option(..., "--why", help="The act out of alignment."),
         grey: Optional[int] = typer.Option(None, "--grey", help="Give N grey marks instead of a black mark."),
         warning: bool = typer.Option(False, "--warning", help="A warning sign only, no mark."),
         dice: Optional[str] = DICE, json: bool = JSON_OPTION,
         game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """A black mark (with the automatic-punishment check), grey marks, or a warning."""
    opts = options(ctx)
    _print_events(commands.mark(opts.store(), opts.campaign, name, why=why, grey=grey, warning=warning,
                                hand=faces(dice), actor=opts.who(), **opts.late(game_date, ruling)), json)


@app.command("pray")
def pray(ctx: typer.Context, name: str = typer.Argument(..., help="The worshipper."),
         life_or_death: bool = typer.Option(False, "--life-or-death", help="+20%; if answered, 5 grey marks."),
         excessive: bool = typer.Option(False, "--excessive", help="Chance halved; may backfire."),
         free_hand: bool = typer.Option(False, "--free-hand", help="+10%; the help may come in an inconvenient form."),
         thanks: bool = typer.Option(False, "--thanks", help="A thank-you prayer: a crawling prayer at +10%."),
         interference: bool = typer.Option(False, "--interference", help="Another god interferes: +50%."),
         dice: Optional[str] = DICE, json: bool = JSON_OPTION,
         game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """A plea for aid: d% against Table 2.3, then the grade with its d6."""
    opts = options(ctx)
    if thanks:
        recorded = commands.crawl(opts.store(), opts.campaign, name, thanks=True, hand=faces(dice), actor=opts.who(),
                                  **opts.late(game_date, ruling))
    else:
        recorded = commands.pray(opts.store(), opts.campaign, name, life_or_death=life_or_death,
                                 excessive=excessive, free_hand=free_hand, interference=interference,
                                 hand=faces(dice), actor=opts.who(), **opts.late(game_date, ruling))
    _print_events(recorded, json)


@app.command("crawl")
def crawl(ctx: typer.Context, name: str = typer.Argument(..., help="The worshipper."),
          thanks: bool = typer.Option(False, "--thanks", help="Thanks after being helped: +10%."),
          dice: Optional[str] = DICE, json: bool = JSON_OPTION,
          game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """A crawling prayer: removes a black mark, or banks 1d10% for the next plea."""
    opts = options(ctx)
    _print_events(commands.crawl(opts.store(), opts.campaign, name, thanks=thanks, hand=faces(dice),
                                 actor=opts.who(), **opts.late(game_date, ruling)), json)


@app.command("repent")
def repent(ctx: typer.Context, name: str = typer.Argument(..., help="The worshipper."),
           dice: Optional[str] = DICE, json: bool = JSON_OPTION,
           game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Repent: d6 against Table 2.7; success clears every black mark."""
    opts = options(ctx)
    _print_events(commands.repent(opts.store(), opts.campaign, name, hand=faces(dice), actor=opts.who(),
                                  **opts.late(game_date, ruling)), json)


@app.command("sacrifice")
def sacrifice(ctx: typer.Context, name: str = typer.Argument(..., help="The worshipper."),
              why: str = typer.Option(..., "--why", help="What was sacrificed."),
              marks: int = typer.Option(1, "--marks", help="Marks redeemed (a great sacrifice, more)."),
              grey: bool = typer.Option(False, "--grey", help="Redeem grey marks (only a sacrifice can)."),
              json: bool = JSON_OPTION,
              game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """An accepted sacrifice redeems black or grey marks."""
    opts = options(ctx)
    _print_events(commands.sacrifice(opts.store(), opts.campaign, name, why=why, marks=marks, grey=grey,
                                     actor=opts.who(), **opts.late(game_date, ruling)), json)


@app.command("battle")
def battle(ctx: typer.Context, name: str = typer.Argument(..., help="One worshipper."),
           opponent: str = typer.Argument(..., help="The other, whose plea was also answered."),
           dice: Optional[str] = DICE, json: bool = JSON_OPTION,
           game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Both pleas answered: the gods battle, d% against Table 2.9, until one wins."""
    opts = options(ctx)
    _print_events(commands.battle(opts.store(), opts.campaign, name, opponent, hand=faces(dice),
                                  actor=opts.who(), **opts.late(game_date, ruling)), json)


@app.command("convert")
def convert(ctx: typer.Context, name: str = typer.Argument(..., help="The worshipper whose god just lost a battle."),
            json: bool = JSON_OPTION,
            game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Convert to the god that won the battle; no convert is ever refused (001 l.960-962; conversion_marks)."""
    opts = options(ctx)
    _print_events(commands.convert(opts.store(), opts.campaign, name, actor=opts.who(),
                                   **opts.late(game_date, ruling)), json)


@app.command("recover")
def recover(ctx: typer.Context, name: str = typer.Argument(..., help="The worshipper."),
            why: str = typer.Option(..., "--why", help="The rest that brought it back."),
            json: bool = JSON_OPTION,
            game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Regain the A.T. and D.T. lost with a battle of gods, by rest (001 l.956)."""
    opts = options(ctx)
    _print_events(commands.recover(opts.store(), opts.campaign, name, why=why, actor=opts.who(),
                                   **opts.late(game_date, ruling)), json)


@app.command("punish")
def punish(ctx: typer.Context, name: str = typer.Argument(..., help="The worshipper a check found punished."),
           how: str = typer.Option(..., "--how", help="The punishment: a disease, a curse…"),
           json: bool = JSON_OPTION,
           game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Record the punishment a check called for, its severity the black marks then (001 l.931)."""
    opts = options(ctx)
    _print_events(commands.punish(opts.store(), opts.campaign, name, how=how, actor=opts.who(),
                                  **opts.late(game_date, ruling)), json)


@app.command("odds")
def odds(ctx: typer.Context, name: str = typer.Argument(..., help="The worshipper."),
         at_event: Optional[int] = AT_EVENT, as_of: Optional[str] = AS_OF,
         as_recorded: Optional[str] = AS_RECORDED,
         at_session: Optional[str] = AT_SESSION, json: bool = JSON_OPTION) -> None:
    """A worshipper's chances with the god, as of now."""
    opts = options(ctx)
    view = query(opts.store(), opts.campaign, lambda c: divine_odds(c.world, commands.worshipper(c, name)[0]),
                 point=Pin(at_event, as_of, as_recorded, at_session))
    if json:
        print_json(view)
        return
    pct = lambda v: "never (X)" if v is None else f"{v}%"
    print_pairs([("worshipper", f"{view['character']} ({view['character_alignment'] or 'no alignment'}) of "
                                f"{view['god']} (PR {view['power']}, {view['alignment']})"),
                 ("marks", f"{view['black_marks']} black, {view['grey_marks']} grey"),
                 ("plea answered", pct(view["prayer_chance"]) + (f" +{view['crawling_bonus']} banked"
                                                                 if view["crawling_bonus"] else "")),
                 ("answer grade", _grade(view)),
                 ("crawling accepted", pct(view["crawl_chance"]) if view["crawl_chance"] is not None
                  else "not flatterable or never"),
                 ("repentance needs", "no black marks" if not view["black_marks"] else "never (X)"
                  if view["repent_needs"] is None else f"{view['repent_needs']}+ on d6 (at PR {view['repent_power']}, "
                                                       f"{view['repent_marks']} marks)"),
                 ("punishment at", f"{view['punishment_threshold']} black marks"
                  + (", a relapse checks at once" if view["relapse_check_armed"] else "")),
                 ("punishment due", ", ".join(f"from event {d['check']} ({d['black_marks']} black marks)"
                                              for d in view["punishments_due"]) or "none"),
                 ("battle penalty", f"A.T. and D.T. -{view['battle_penalty']}" if view["battle_penalty"] else "none"),
                 ("may convert to", view["may_convert_to"] or "-"),
                 ("manifestation", "eligible" if view["manifestation_eligible"] else "not yet")])


def _grade(view: dict) -> str:
    """Table 2.4's cell for the god's power and the marks, and what the d6 may make of it (l.805-837)."""
    from ledger.rules.gods import grade_percent, shifted_grade

    base = view["answer_grade"]
    if base is None:
        return "no god"
    low, high = shifted_grade(base, 1), shifted_grade(base, 6)
    return (f"{base} ({grade_percent(base)}% of the request; Table 2.4, {view['black_marks'] + view['grey_marks']} "
            f"marks at PR {view['power']}), moved by the d6 to {low}-{high} "
            f"({grade_percent(low)}-{grade_percent(high)}%)")
