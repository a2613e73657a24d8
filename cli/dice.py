"""tally roll | audit | odds, and tally dice client-seed|reveal|epochs|report"""

from __future__ import annotations

from fractions import Fraction
from typing import Optional

import typer

from cli.context import options
from cli.output import (AS_OF, AS_RECORDED, AT_EVENT, AT_SESSION, JSON_OPTION, chance_text, percent,
                        print_json, print_table)
from commands import dice as commands
from projections.reading import query
from ledger.dice.check import EPIC_FAILURE, EPIC_SUCCESS
from ledger.dice.expression import DROPPED, EXTRA, REROLLED, parse
from ledger.errors import BadInput
from projections.describe import checked
from projections.timeline import Pin

app = typer.Typer(help="Dice epochs: the client seed, revealing the seed, listing epochs; the luck report.",
                  no_args_is_help=True)


UNDER = typer.Option(None, "--under", help="Pass below N (or at N too where the wolves setting roll_under is "
                                             "at_most; 000 l.161).")
AT_MOST = typer.Option(None, "--at-most", help="Pass at N or less (001: a percentile throw '≤' a chance).")
AT_LEAST = typer.Option(None, "--at-least", help="Pass at N or more (000 l.167: a save needs 15 or more).")
OVER = typer.Option(None, "--over", help="Pass above N (001 l.501: larger than the rating).")
OB = typer.Option(None, "--ob", help="The Objective: pass at N or more (successes of a pool, 004 l.19).")
EPIC = typer.Option(None, "--epic", help="A margin of N or more either way is an epic success or failure "
                                         "(003 l.23: 3).")


def roll(
    ctx: typer.Context,
    expression: str = typer.Argument(..., help="e.g. 2d6, 3d6kh2, 4d6dl1, 6d6s4, 1d6!, 1d10xo10, 4d6rr1, d%, dA, "
                                                "3d6*10, 1d6/2 (docs/dice.md)."),
    character: Optional[str] = typer.Option(None, "--for", help="Whose roll this is: an active character of the campaign."),
    why: Optional[str] = typer.Option(None, help="What the roll is for."),
    dice: Optional[str] = typer.Option(None, "--dice", help="Faces rolled by hand, in the order they were read, "
                                                            "e.g. 4,6,1 (recorded, not verifiable; 0 on a d10 or "
                                                            "d% reads 10 or 100)."),
    under: Optional[int] = UNDER, at_most: Optional[int] = AT_MOST, at_least: Optional[int] = AT_LEAST,
    over: Optional[int] = OVER, ob: Optional[int] = OB, epic: Optional[int] = EPIC,
    on: Optional[str] = typer.Option(None, "--on", help="Roll on a sealed table (`tally secret seal`): the roll "
                                                        "names it, and shows the line it picked once it is revealed "
                                                        "(docs/secrets.md)."),
    json: bool = JSON_OPTION,
) -> None:
    """Roll dice derived from the epoch's committed seed, or log a hand roll; check it against a target."""
    opts = options(ctx)
    hand = commands.parse_hand_faces(dice) if dice is not None else None
    against = requested(under, at_most, at_least, over, ob, epic)
    rolled, seeded = commands.roll_seeded(opts.store(), opts.campaign, expression, actor=opts.who(),
                                          character=character, why=why, hand=hand, against=against, on=on)
    p = rolled.payload
    note = unseeded_note(p["epoch"]) if seeded is False else None
    table = None
    if p.get("on"):
        from projections.sealed import picked

        table = query(opts.store(), opts.campaign, lambda c: picked(p, c.world.sealed))
    if json:
        print_json({"position": rolled.position, **p, "player_seed": seeded, "note": note, "picked": table})
        return
    source = f"roll n={p['nonce']} of epoch {p['epoch']}" if p["verifiable"] else "rolled by hand, not verifiable"
    who = f" for {p['character']}" if p["character"] else ""
    faces = shown_faces(p["expression"], p["dice"])
    typer.echo(f"{p['expression']}{who}: {faces} = {p['total']}{checked(p['check'])}  "
               f"(position {rolled.position}, {source})")
    if table is not None:
        typer.echo(f"  on {table['label']!r}: line {table['line']}: {table['text']}" if table["line"] is not None else
                   f"  on {table['label']!r}: no single line covers {p['total']}" if table["revealed"] else
                   f"  on the sealed table {table['label']!r} (commitment {table['commitment'][:16]}…): the line "
                   "it picked is shown once the table is revealed")
    if note:
        typer.echo(f"  note: {note}")


def unseeded_note(epoch: int) -> str:
    """What a derived roll in an epoch without the players' seed says of itself."""
    return f"epoch {epoch} has {commands.NO_PLAYER_SEED}"


def seed_prompt(epoch: int) -> str:
    """What the players are asked when an epoch opens without their seed."""
    return (f"players: now that you have seen epoch {epoch}'s commitment, give your seed before its first roll: "
            "tally dice client-seed \"TEXT\"")


def shown_faces(expression: str, faces: list[int]) -> str:
    """The faces, with what became of each: (4) dropped or rerolled away, +6 an explosion's extra die."""
    marks = parse(expression).hand(list(faces)).marks
    shown = [f"({f})" if m in (DROPPED, REROLLED) else f"+{f}" if m == EXTRA else str(f)
             for f, m in zip(faces, marks)]
    return "[" + ", ".join(shown) + "]"


def requested(under: Optional[int], at_most: Optional[int], at_least: Optional[int], over: Optional[int],
              ob: Optional[int], epic: Optional[int]) -> Optional[commands.Asked]:
    """The one target asked for, as (asked, number, epic), or None."""
    given = [(name, value) for name, value in (("under", under), ("at_most", at_most), ("at_least", at_least),
                                               ("over", over), ("ob", ob)) if value is not None]
    if len(given) > 1:
        names = " and ".join("--" + name.replace("_", "-") for name, _ in given)
        raise BadInput(f"a roll has one target: give only one of {names}")
    if not given:
        if epic is not None:
            raise BadInput("--epic needs a target: --under, --at-most, --at-least, --over or --ob")
        return None
    return given[0][0], given[0][1], epic


def audit(
    ctx: typer.Context,
    epoch: str = typer.Argument("all", help="An epoch number, or all."),
    json: bool = JSON_OPTION,
) -> None:
    """Re-derive every roll of every revealed epoch and check its commitment."""
    from projections.audit import audit as run_audit

    if epoch != "all" and not (epoch.isascii() and epoch.isdigit()):
        raise BadInput(f"audit takes an epoch number or all, not {epoch!r}")
    opts = options(ctx)
    report = query(opts.store(), opts.campaign, lambda c: run_audit(c.envelopes))
    if epoch != "all":
        report = [r for r in report if r.epoch == int(epoch)]
        if not report:
            raise BadInput(f"there is no epoch {epoch} in this campaign")
    ok = all(r.ok for r in report)
    unseeded = [r for r in report if r.unseeded]
    note = unseeded_epochs_note([(r.epoch, r.derived) for r in unseeded])
    if json:
        print_json({"ok": ok, "epochs": [r.as_dict() for r in report],
                    "unrevealed": [r.epoch for r in report if not r.revealed],
                    "unseeded": [r.epoch for r in unseeded], "note": note})
    else:
        print_table(["epoch", "revealed", "commitment", "player seed", "rolls checked", "hand rolls", "mismatches"],
                    [(r.epoch, "yes" if r.revealed else "not yet", _ok(r.commitment_ok),
                      "yes" if r.player_seed else "NO" if r.derived else "-",
                      r.rolls_checked, r.hand_rolls,
                      "; ".join(f"{m['position']}: {m['reason']}" for m in r.mismatches) or "none")
                     for r in report])
        typer.echo("audit: every revealed roll matches" if ok else "audit: MISMATCH found")
        if note:
            typer.echo(f"note: {note}")
    if not ok:
        raise typer.Exit(1)


def unseeded_epochs_note(epochs: list[tuple[int, int]]) -> Optional[str]:
    """One line on the epochs (number, derived rolls) whose derived rolls had no player seed, or None."""
    if not epochs:
        return None
    rolls = sum(derived for _, derived in epochs)
    numbers = ", ".join(str(number) for number, _ in epochs)
    return (f"epoch{'s' if len(epochs) > 1 else ''} {numbers} had no player seed: the referee's side chose every "
            f"input of {'its' if len(epochs) == 1 else 'their'} {rolls} derived roll{'s' if rolls != 1 else ''}, "
            "which could have been known in advance")


def _ok(value: Optional[bool]) -> str:
    return {None: "-", True: "ok", False: "WRONG"}[value]


def odds(
    ctx: typer.Context,
    expression: str = typer.Argument(..., help="A dice expression, e.g. 12d6s4, 2d6kh1!, 1d10xo10."),
    under: Optional[int] = UNDER, at_most: Optional[int] = AT_MOST, at_least: Optional[int] = AT_LEAST,
    over: Optional[int] = OVER, ob: Optional[int] = OB, epic: Optional[int] = EPIC,
    json: bool = JSON_OPTION,
) -> None:
    """Exact odds of a roll, or of its check against a target (counted, not simulated)."""
    from ledger.dice.odds import distribution, mean

    parsed = parse(expression)
    against = requested(under, at_most, at_least, over, ob, epic)
    aim = None
    if against:
        opts = options(ctx)
        aim = commands.odds_target(opts.store() if commands.ledger_exists(opts.db) else None, opts.campaign,
                                   against)
    dist = distribution(parsed)
    at_least_chance = _cumulative(dist)
    info = {"expression": parsed.text, "min": min(dist), "max": max(dist), "mean": float(mean(dist)),
            "distribution": [{"total": t, "chance": float(dist[t]), "at_least": float(at_least_chance[t])}
                             for t in sorted(dist)]}
    if aim is not None:
        chances = aim.chances(dist)
        info.update(against=aim.against, target=aim.number, epic=aim.epic, chance=float(chances["pass"]),
                    exact=_exact(chances["pass"]))
        if ob is not None:
            info["ob"] = ob
        for band in (EPIC_SUCCESS, EPIC_FAILURE):
            if band in chances:
                info[band.replace(" ", "_")] = {"chance": float(chances[band]), "exact": _exact(chances[band])}
    if json:
        print_json(info)
        return
    if aim is not None:
        typer.echo(f"P({parsed.text} {aim}) = {chance_text(info['chance'], info['exact'])}")
        for band in (EPIC_SUCCESS, EPIC_FAILURE):
            if band in chances:
                typer.echo(f"P({band}, a margin of {aim.epic} or more) = "
                           f"{chance_text(float(chances[band]), _exact(chances[band]))}")
        return
    print_table(["total", "chance", "at least"],
                [(d["total"], _percent(d["chance"]), _percent(d["at_least"])) for d in info["distribution"]],
                title=f"{parsed.text}: mean {info['mean']:.3f}")


def _exact(chance: Fraction) -> str:
    return f"{chance.numerator}/{chance.denominator}"


def _cumulative(dist):
    running, out = Fraction(0), {}
    for total in sorted(dist, reverse=True):
        running += dist[total]
        out[total] = running
    return out


def _percent(chance: float) -> str:
    return percent(chance) if chance not in (0, 1) else f"{chance * 100:.2f}%"


@app.command("client-seed")
def client_seed(
    ctx: typer.Context,
    text: str = typer.Argument(..., help="Any text a player chooses after seeing the commitment."),
    json: bool = JSON_OPTION,
) -> None:
    """Set the client seed K of the open epoch (before its first roll only)."""
    opts = options(ctx)
    event = commands.set_client_seed(opts.store(), opts.campaign, text, actor=opts.who())
    if json:
        print_json({"position": event.position, **event.payload})
    else:
        typer.echo(f"epoch {event.payload['epoch']} client seed set to {event.payload['client_seed']!r}")


@app.command("reveal")
def reveal(ctx: typer.Context, json: bool = JSON_OPTION) -> None:
    """Close the open epoch by revealing its seed, and open the next one."""
    opts = options(ctx)
    revealed, committed = commands.reveal(opts.store(), opts.campaign, actor=opts.who())
    p = revealed.payload
    info = {"epoch": p["epoch"], "commitment": p["commitment"], "seed": p["seed"],
            "client_seed": p["client_seed"], "rolls": p["rolls"], "position": revealed.position,
            "next_epoch": committed.payload["epoch"], "next_commitment": committed.payload["commitment"]}
    if json:
        print_json(info)
        return
    typer.echo(f"epoch {p['epoch']} revealed: seed {p['seed']} (client seed {p['client_seed']!r}, {p['rolls']} rolls)")
    note = unseeded_epochs_note([(p["epoch"], p["rolls"])] if p["rolls"] and not p["client_seed"] else [])
    if note:
        typer.echo(f"note: {note}")
    typer.echo(f"epoch {info['next_epoch']} opened: commitment {info['next_commitment']}")
    typer.echo(seed_prompt(info["next_epoch"]))


@app.command("epochs")
def epochs(ctx: typer.Context, at_event: Optional[int] = AT_EVENT, as_of: Optional[str] = AS_OF,
           as_recorded: Optional[str] = AS_RECORDED,
           at_session: Optional[str] = AT_SESSION, json: bool = JSON_OPTION) -> None:
    """List the dice epochs: commitments, client seeds, rolls, reveals."""
    opts = options(ctx)
    state = query(opts.store(), opts.campaign, lambda c: c.dice,
                 point=Pin(at_event, as_of, as_recorded, at_session))
    rows = [{"epoch": e.number, "commitment": e.commitment, "client_seed": e.client_seed,
             "player_seed": bool(e.client_seed), "rolls": e.nonces, "hand_rolls": e.hand_rolls,
             "revealed": not e.open, "seed": e.seed} for e in state.epochs]
    if json:
        print_json(rows)
        return
    print_table(["epoch", "commitment", "client seed", "rolls", "hand", "seed"],
                [(r["epoch"], r["commitment"][:16] + "…", r["client_seed"] or "(none)", r["rolls"], r["hand_rolls"],
                  r["seed"] or "(not revealed)") for r in rows])
    note = unseeded_epochs_note([(r["epoch"], r["rolls"]) for r in rows if r["rolls"] and not r["player_seed"]])
    if note:
        typer.echo(f"note: {note}")


@app.command("report")
def report(
    ctx: typer.Context,
    session: Optional[int] = typer.Option(None, "--session", help="The rolls of one session."),
    start: Optional[str] = typer.Option(None, "--from", help="The rolls from this in-game date (alone: to today)."),
    end: Optional[str] = typer.Option(None, "--to", help="The rolls up to this in-game date (alone: from the start)."),
    character: Optional[str] = typer.Option(None, "--for", help="Only this character's rolls."),
    json: bool = JSON_OPTION,
) -> None:
    """The luck report: each roll's exact chance of a result at least as good, and how lucky each character,
    player and the table was (default: the whole campaign)."""
    from cli.luck import print_report
    from projections.luck import report as luck_report
    from projections.span import span_of

    opts = options(ctx)
    found = query(opts.store(), opts.campaign,
                  lambda c: luck_report(c, span_of(c, session, start, end, command="the luck report"), character))
    counts: dict[int, int] = {}
    for row in found["rolls"]:
        if row["player_seed"] is False:
            counts[row["epoch"]] = counts.get(row["epoch"], 0) + 1
    note = unseeded_epochs_note(sorted(counts.items()))
    if json:
        print_json({**found, "note": note})
    else:
        print_report(found, note)
