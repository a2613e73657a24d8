"""tally player add | char new|list|show | stable | retire"""

from __future__ import annotations

from typing import Optional

import typer

from cli.context import options
from cli.output import (AS_OF, AS_RECORDED, AT_EVENT, AT_SESSION, GAME_DATE, JSON_OPTION, RULING, print_json,
    print_pairs, print_table)
from cli.parsing import faces, names, pairs
# The write side (commands/) is imported inside the commands that record: `char show` reads alone.
from projections.reading import query
from projections.timeline import Pin
from ledger.errors import NotFound
from projections.describe import line
from projections.company import reputation_after
from projections.rulings import by_ruling
from projections.sheet import sheet as full_sheet

player_app = typer.Typer(help="Players: the people at the table.", no_args_is_help=True)
char_app = typer.Typer(help="Characters: create them, list them, show their sheets.", no_args_is_help=True)


@player_app.command("add")
def player_add(ctx: typer.Context, name: str = typer.Argument(..., help="The player's name."),
               json: bool = JSON_OPTION,
               game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Add a player to the campaign."""
    opts = options(ctx)
    from commands import stable as commands

    added = commands.add_player(opts.store(), opts.campaign, name, actor=opts.who(), **opts.late(game_date, ruling))
    print_json(added.to_dict()) if json else typer.echo(f"player {added.payload['name']} added")


@char_app.command("new")
def char_new(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="The character's name."),
    player: str = typer.Option(..., help="Whose stable the character joins."),
    char_class: Optional[str] = typer.Option(None, "--class", help="Explorer, Warrior or Sorcerer."),
    skills: Optional[str] = typer.Option(None, help="Skill ratings, e.g. Athletics=2,Stealth=1."),
    saves: Optional[str] = typer.Option(None, help="Save ratings, e.g. Vigor=1,Agility=2."),
    max_hp: Optional[int] = typer.Option(None, "--max-hp", help="Maximum HP (required by the coeac module)."),
    wealth: Optional[int] = typer.Option(None, help="Opening Wealth, for a campaign already under way."),
    cash: Optional[int] = typer.Option(None, help="Opening Cash, for a campaign already under way."),
    boons: Optional[int] = typer.Option(None, help="Opening Boons, for a campaign already under way."),
    retirement_skills: Optional[str] = typer.Option(
        None, "--retirement-skills", help="Skills that take a retiree's +1s, e.g. Medicine,Stealth."),
    spend: Optional[list[str]] = typer.Option(
        None, "--spend", help="Wolves: equipment bought with the starting hacksilver at the seed's prices: ITEM, "
                              "ITEM*N, or ITEM=PRICE for one the list lacks (repeatable)."),
    dice: Optional[str] = typer.Option(None, "--dice", help="Wolves: the creation rolls by hand, in order."),
    json: bool = JSON_OPTION,
    game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING,
) -> None:
    """Create a character in a player's stable (under wolves, roll its start)."""
    opts = options(ctx)
    from commands import stable as commands

    recorded = commands.new_character(
        opts.store(), opts.campaign, name, player=player, actor=opts.who(),
        **opts.late(game_date, ruling), char_class=char_class,
        skills=pairs([skills] if skills else [], "--skills"), saves=pairs([saves] if saves else [], "--saves"),
        max_hp=max_hp, opening={"wealth": wealth, "cash": cash, "boons": boons},
        retirement_skills=names(retirement_skills) if retirement_skills is not None else None,
        spend=spend or [], hand=faces(dice))
    created = recorded[0]
    sheet = query(opts.store(), opts.campaign, lambda c: full_sheet(c.world, name))
    if json:
        print_json({"position": created.position, **sheet})
        return
    p = created.payload
    extra = f"; inherits from {p['inherited_from']}" if p.get("inherited_from") else ""
    typer.echo(f"{sheet['name']} joins {sheet['player']}'s stable (position {created.position}{extra})")
    for e in recorded[1:]:
        typer.echo(f"{e.position:>6}  {line(e)}")


def sheet_of(ctx, name: str) -> dict:
    found = full_sheet(ctx.world, name)
    if found is None:
        raise NotFound(f"no character named {name!r} (see `tally char list`)")
    ruled = by_ruling(ctx, found)
    if ruled:  # a figure no ordinary command could leave there: the ruling that accepted it
        found["by_ruling"] = ruled
    return found


def ruling_note(ruling) -> str:
    """How a figure standing by a ruling is marked in text."""
    if ruling is None:  # out of bounds, and no ruling in force names the character (an imported log)
        return "OUTSIDE THE RULES (no recorded ruling names it)"
    return f"BY RULING #{ruling['position']} ({ruling['ruled_by']}: {ruling['ruling']})"


@char_app.command("show")
def char_show(ctx: typer.Context, name: str = typer.Argument(..., help="The character."),
              at_event: Optional[int] = AT_EVENT, as_of: Optional[str] = AS_OF,
              as_recorded: Optional[str] = AS_RECORDED,
              at_session: Optional[str] = AT_SESSION, json: bool = JSON_OPTION) -> None:
    """Show a character's sheet."""
    opts = options(ctx)
    sheet = query(opts.store(), opts.campaign, lambda c: sheet_of(c, name),
                 point=Pin(at_event, as_of, as_recorded, at_session))
    if json:
        print_json(sheet)
        return
    coeac = "inventory" in sheet  # a coeac sheet, laid out by play_sheet; any other prints field by field
    shown = play_sheet(sheet) if coeac else []
    done = {field for field, _ in shown} | (COEAC_FIELDS if coeac else set()) | {"d20_save_modifiers", "by_ruling"}
    if "d20_saves" in sheet:
        sheet = {**sheet, "d20_saves": _d20_saves(sheet["d20_saves"], sheet["d20_save_modifiers"])}
    rows = shown + [(_label(field), SHOWN.get(field, _shown)(value)) for field, value in sheet.items()
                    if field not in done and (value not in (None, [], {}) or field in ("name", "status"))]
    ruled = {SHOWN_AS.get(f, _label(f)): r for f, r in sheet.get("by_ruling", {}).items()}
    print_pairs([(label, f"{value} — {ruling_note(ruled[label])}" if label in ruled else value)
                 for label, value in rows])


def _label(field: str) -> str:
    return LABELS.get(field, field.replace("_", " "))


# The play sheet's row each marked figure is shown in.
SHOWN_AS = {"hp": "HP", "bonus_hp": "HP"}


# The coeac sheet's figures, laid out by play_sheet; anything else prints as it comes.
COEAC_FIELDS = {"name", "player", "status", "class", "specialties", "resources", "boons", "boons_unchosen",
                "boon_choices", "cash", "wealth", "lifestyle", "max_hp", "hp", "bonus_hp", "down_and_out", "skills",
                "saves", "followers", "follower_vacancies", "inventory", "slots", "projects"}


def play_sheet(s: dict) -> list[tuple[str, str]]:
    """A coeac sheet a referee can play from: a test rolls 2 dice plus the rating (004 l.18)."""
    def pools(ratings: dict) -> str:
        rated = ", ".join(f"{k} {v} ({2 + v}d)" for k, v in ratings.items() if v)
        return f"{rated}; any other 2d" if rated else "none above 0: 2d"

    hp = f"{s['hp']} of {s['max_hp']}" + (f", +{s['bonus_hp']} Bonus HP" if s["bonus_hp"] else "")
    if s["down_and_out"]:
        hp += " — DOWN AND OUT"
    boons = f"{s['boons']}" + (f", {s['boons_unchosen']} to choose" if s["boons_unchosen"] else "")
    if s["boon_choices"]:
        boons += ": " + "; ".join(f"{b['list']} " + (f"+1 {b['target']}" if b["kind"] != "feat" else b["target"])
                                  for b in s["boon_choices"])
    items = [f"{i['name']} ({i['slots']} Slot{'s' if i['slots'] != 1 else ''}"
             + (f", Depletion {i['depletion']}+" if i["depletion"] else "") + (", last use" if i["last_use"] else "")
             + (f", worth {i['cash']} Cash" if i["cash"] else "") + (", artifact" if i["artifact"] else "")
             + (f", carries {i['carries']}" if i["carries"] else "") + ")" for i in s["inventory"]]
    rows = [("name", s["name"]), ("player", s["player"]), ("status", s["status"]),
            ("class", ", ".join(filter(None, [s["class"], *s["specialties"]])) or "none"),
            ("HP", hp),
            ("resources", ", ".join(f"{r} {v['current']}/{v['max']}" for r, v in s["resources"].items()) or "none"),
            ("boons", boons), ("skills", pools(s["skills"])), ("saves", pools(s["saves"])),
            ("wealth", f"{s['wealth']} ({s['lifestyle']})"), ("cash", str(s["cash"])),
            ("slots", f"{s['slots']['used']} of {s['slots']['capacity']}"),
            ("inventory", "; ".join(items) or "nothing")]
    if s["followers"] or s["follower_vacancies"]:
        rows.append(("followers", ", ".join(s["followers"]) + "".join(
            f"; {v['lost']}'s place open" for v in s["follower_vacancies"])))
    if s["projects"]:
        rows.append(("projects", ", ".join(f"{p['name']} {p['filled']}/{p['ticks']}" for p in s["projects"])))
    return rows


def _shown(value) -> str:
    """One sheet field as text: ratings as "Athletics 2, Stealth 1", lists joined, yes and no."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict) and "name" in value:  # a hireling, a wound: "Eyvind (Marine, wage 12, …)"
        rest = ", ".join(f"{k.replace('_', ' ')} {_shown(v)}" for k, v in value.items() if k != "name")
        return f"{value['name']} ({rest})"
    if isinstance(value, dict):
        return ", ".join(f"{k.replace('_', ' ')} {_shown(v)}" for k, v in value.items())
    if isinstance(value, list):
        return "; ".join(_shown(v) for v in value)
    if value is None:
        return "none"
    return str(value)


def _signed(value: int) -> str:
    return f"{value:+d}"


def _attributes(scores: dict) -> str:
    """002 l.25-61: each score with the modifier it gives a skill roll."""
    from ledger.rules.xp import ATTRIBUTES, attribute_modifier

    return ", ".join(f"{a} {scores[a]} ({attribute_modifier(scores[a]):+d})" for a in ATTRIBUTES if a in scores)


def _d20_saves(saves: dict, modifiers: dict) -> str:
    """000 l.36-44, l.167-171: each save's d20 target, and what the sheet adds to the roll."""
    return "; ".join(f"{save} {s['needs']}+" + (f" at {s['modifier']:+d} ({modifiers[save]})" if modifiers[save]
                                                 else "") for save, s in saves.items())


# Sheet fields shown otherwise than as they come: signed modifiers, scores with theirs, saves.
SHOWN = {"attack_bonus": _signed, "attributes": _attributes}
LABELS = {"ac": "AC", "hp": "HP", "d20_saves": "saves (d20)"}


@char_app.command("die")
def char_die(ctx: typer.Context, name: str = typer.Argument(..., help="The character who dies."),
             why: str = typer.Option(..., "--why", help="How: a coup de grace, no aid by the end of the Turn…"),
             json: bool = JSON_OPTION, game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING) -> None:
    """Record a death the Down and Out table did not roll (004 l.75, l.100, l.312)."""
    opts = options(ctx)
    from commands import hit_points

    died = hit_points.die(opts.store(), opts.campaign, name, why=why, actor=opts.who(), **opts.late(game_date, ruling))
    print_json(died.to_dict()) if json else typer.echo(f"{died.position:>6}  {line(died)}")


@char_app.command("list")
def char_list(ctx: typer.Context, player: Optional[str] = typer.Option(None, help="Only this player's."),
              at_event: Optional[int] = AT_EVENT, as_of: Optional[str] = AS_OF,
              as_recorded: Optional[str] = AS_RECORDED,
              at_session: Optional[str] = AT_SESSION, json: bool = JSON_OPTION) -> None:
    """List the characters, with status, Boons, Cash and Wealth."""
    opts = options(ctx)
    sheets = query(opts.store(), opts.campaign, lambda c: [
        ch.sheet() for ch in c.world.stable.characters.values()
        if player is None or ch.player.lower() == player.lower()],
                 point=Pin(at_event, as_of, as_recorded, at_session))
    if json:
        print_json(sheets)
        return
    print_table(["character", "player", "status", "class", "boons", "cash", "wealth", "HP"],
                [(s["name"], s["player"], s["status"], s["class"], s["boons"], s["cash"],
                  f"{s['wealth']} {s['lifestyle']}", s["max_hp"] if s["hp"] is None else f"{s['hp']}/{s['max_hp']}")
                 for s in sheets])


def stable_view(ctx, name: str) -> dict:
    player = ctx.world.stable.player(name)
    if player is None:
        raise NotFound(f"no player named {name!r}")
    return {"player": player.name, "characters": [ctx.world.stable.character(c).sheet() for c in player.characters],
            "legacies": list(player.legacies), "owed_boons": player.owed_boons, "set_aside": player.set_aside}


def stable(ctx: typer.Context, player: str = typer.Argument(..., help="The player."),
           at_event: Optional[int] = AT_EVENT, as_of: Optional[str] = AS_OF,
           as_recorded: Optional[str] = AS_RECORDED,
           at_session: Optional[str] = AT_SESSION, json: bool = JSON_OPTION) -> None:
    """A player's stable: every character, and what waits for the next one."""
    opts = options(ctx)
    view = query(opts.store(), opts.campaign, lambda c: stable_view(c, player),
                 point=Pin(at_event, as_of, as_recorded, at_session))
    if json:
        print_json(view)
        return
    print_table(["character", "status", "boons", "cash", "wealth"],
                [(s["name"], s["status"], s["boons"], s["cash"], s["wealth"]) for s in view["characters"]],
                title=f"{view['player']}'s stable")
    for legacy in view["legacies"]:
        typer.echo(f"waiting for the next new character: {legacy['from']}'s legacy "
                   f"(+1 to {legacy['skill_points']} Skill(s), {legacy['wealth_ranks']} Wealth rank(s))")
    if view["owed_boons"]:
        typer.echo(f"Boons owed to the next new character: {view['owed_boons']}")
    if view["set_aside"]:
        typer.echo(f"treasure set aside: {view['set_aside']} Cash")


def retire(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="The character to retire."),
    rep_faction: Optional[str] = typer.Option(None, "--rep-faction", help="A Faction the retiree was tied to."),
    new_faction: bool = typer.Option(False, "--new-faction", help="The --rep-faction is named for the first time."),
    dice: Optional[str] = typer.Option(None, "--dice", help="The faction roll's d6, rolled by hand."),
    json: bool = JSON_OPTION,
    game_date: Optional[str] = GAME_DATE, ruling: Optional[str] = RULING,
) -> None:
    """Retire a character (start of a session or between sessions only)."""
    opts = options(ctx)
    from commands import stable as commands

    recorded = commands.retire(opts.store(), opts.campaign, name, actor=opts.who(),
                               **opts.late(game_date, ruling), rep_faction=rep_faction, new_faction=new_faction,
                               hand=faces(dice))
    if json:
        print_json([e.to_dict() for e in recorded])
        return
    p = recorded[0].payload
    typer.echo(f"{p['name']} retires with {p['boons']} Boons and Wealth {p['wealth']}: the next new character of "
               f"{p['player']} gets +1 to {p['skill_points']} Skill(s) and {p['wealth_ranks']} Wealth rank(s)")
    for e in recorded[1:]:
        if e.type == "reputation.changed":
            p = e.payload
            typer.echo(f"Reputation with {p['faction']}: {p['before']} -> {reputation_after(p)}")
        elif e.type == "dice.rolled":
            typer.echo(f"faction roll {e.payload['expression']}: {e.payload['dice']} = {e.payload['total']}")
