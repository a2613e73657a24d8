"""tally calendar show|advance"""

from __future__ import annotations

from typing import Optional

import typer

from cli.context import options
from cli.output import AS_OF, AS_RECORDED, AT_EVENT, AT_SESSION, JSON_OPTION, print_json, print_pairs, print_table
from cli.session import _print_events
from commands import calendar as commands
from projections.reading import query
from projections.timeline import Pin
from projections.views import today_view, who_view

app = typer.Typer(help="The campaign calendar: today's date, and moving it on.", no_args_is_help=True)


# The two dates say different things: the text output names each.
LABELS = {"today": "today (the latest day recorded)", "day": "day number",
          "world_date": "world's date (moved by calendar advance)", "start": "campaign began"}


@app.command("show")
def show(ctx: typer.Context, at_event: Optional[int] = AT_EVENT, as_of: Optional[str] = AS_OF,
         as_recorded: Optional[str] = AS_RECORDED,
         at_session: Optional[str] = AT_SESSION, json: bool = JSON_OPTION) -> None:
    """Today's in-game date, the world's date, and the season, week day, era and moons where the calendar has them."""
    opts = options(ctx)
    view = query(opts.store(), opts.campaign, today_view, point=Pin(at_event, as_of, as_recorded, at_session))
    if json:
        print_json(view)
        return
    pairs = [(LABELS.get(k, k.replace("_", " ")), v) for k, v in view.items() if k != "moons"]
    print_pairs(pairs + [(f"moon {m['moon']}", m["phase"]) for m in view.get("moons", [])])


@app.command("who")
def who(ctx: typer.Context, at_event: Optional[int] = AT_EVENT, as_of: Optional[str] = AS_OF,
        as_recorded: Optional[str] = AS_RECORDED,
        at_session: Optional[str] = AT_SESSION, json: bool = JSON_OPTION) -> None:
    """Each character's own in-game now, and how far ahead of the world's date it is."""
    opts = options(ctx)
    view = query(opts.store(), opts.campaign, who_view, point=Pin(at_event, as_of, as_recorded, at_session))
    if json:
        print_json(view)
        return
    print_table(["character", "player", "now", "ahead", "out now"],
                [(r["character"], r["player"], r["now"], f"+{r['ahead_days']}d" if r["ahead_days"] else "-",
                  "yes" if r["on_expedition"] else "") for r in view["characters"]],
                title=f"the world's date: {view['world_date']}")


@app.command("advance", context_settings={"ignore_unknown_options": True})
def advance(ctx: typer.Context, span: str = typer.Argument(
        ..., help="3d, 2w, 1m or 1y: a month or a year keeps the date (the 31st of a shorter month becomes its last day)."),
            why: str = typer.Option("time passes", "--why", help="What the time was spent on."),
            json: bool = JSON_OPTION) -> None:
    """Move game time forward (never back: late facts use --game-date); 1m and 1y keep the date."""
    opts = options(ctx)
    _print_events(commands.advance(opts.store(), opts.campaign, span, why=why, actor=opts.who()), json)


@app.command("import")
def import_(ctx: typer.Context,
            path: str = typer.Argument(..., help="A Fantasy-Calendar, Simple Calendar or Calendaria calendar (JSON)."),
            out: Optional[str] = typer.Option(None, "--out", help="Write the calendar here as TOML, for "
                                                                  "`campaign new --calendar`."),
            force: bool = typer.Option(False, "--force", help="Replace an existing --out file."),
            notes: bool = typer.Option(False, "--notes", help="Record the calendar's dated notes and events in "
                                                              "the campaign (its calendar must be this one)."),
            json: bool = JSON_OPTION) -> None:
    """Convert another tool's calendar to a tally calendar, say what it could not carry (and what it took as the
    tool does), warn when the file's own day count disagrees with its date, and bring in its notes."""
    from ledger.files import writing
    from commands.imports import calendar_file

    opts = options(ctx)
    converted = calendar_file.read(path)
    spec, text = converted.spec, calendar_file.to_toml(converted.data)
    from ledger.calendar import calendar_from_spec

    calendar = calendar_from_spec(spec)
    view = {"source": converted.source, "calendar": spec["name"], "year_days": calendar.year_days,
            "not_carried": converted.lost, "assumed": converted.assumed, "notes": len(converted.notes)}
    if converted.today is not None:
        day = converted.today_day()
        disagrees = converted.stated_count_disagrees()
        view["source_today"] = {"date": calendar.format(day), "day": day, "source_epoch": converted.epoch,
                                "source_epoch_agrees": None if converted.epoch is None else disagrees is None}
        if disagrees:
            view["source_today"]["disagreement"] = disagrees
    if out is not None:
        from ledger.engines import resolve_url

        with writing(out, force=force, ledger=resolve_url(opts.db)) as handle:
            handle.write(text)
        view["written"] = out
    if notes:
        recorded, held = commands.import_notes(opts.store(), opts.campaign, converted, actor=opts.who())
        view["notes_recorded"], view["notes_already_held"] = len(recorded), held
    if json:
        print_json(view)
        return
    typer.echo(f"{view['calendar']} from {converted.source}: a common year of {view['year_days']} days"
               + (f", written to {out}" if out else ""))
    if "source_today" in view:
        today = view["source_today"]
        epoch = f" (its own day count {today['source_epoch']}: tally's day {today['day']})" \
            if today["source_epoch_agrees"] else f" (tally's day {today['day']})"
        typer.echo(f"its today: {today['date']}{epoch}")
        if "disagreement" in today:
            typer.echo(f"warning: {today['disagreement']}")
    for lost in converted.lost:
        typer.echo(f"not carried: {lost}")
    for assumed in converted.assumed:
        typer.echo(f"assumed as {converted.source} does: {assumed}")
    if notes:
        typer.echo(f"{view['notes_recorded']} note(s) recorded" + (
            f", {held} already in the ledger" if held else ""))
    elif converted.notes:
        typer.echo(f"{len(converted.notes)} dated note(s): record them with --notes in a campaign on this calendar")
