"""tally roll | audit | odds, and tally dice client-seed|reveal|epochs"""

from __future__ import annotations

from fractions import Fraction
from typing import Optional

import typer

from cli.context import guarded, options
from cli.output import AS_OF, AS_RECORDED, AT_EVENT, JSON_OPTION, print_json, print_table
from ledger.commands import dice as commands
from ledger.commands.base import query
from projections.timeline import Pin
from ledger.errors import BadInput

app = typer.Typer(help="Dice epochs: the client seed, revealing the seed, listing epochs.",
                  no_args_is_help=True)


def roll(
    ctx: typer.Context,
    expression: str = typer.Argument(..., help="e.g. 2d6, 3d6kh2, 2d6kl1, 6d6s4, d%, dA, 3d6*10, 1d6/2."),
    character: Optional[str] = typer.Option(None, "--for", help="Whose roll this is."),
    why: Optional[str] = typer.Option(None, help="What the roll is for."),
    dice: Optional[str] = typer.Option(None, "--dice", help="Faces rolled by hand, e.g. 4,6,1 (recorded, not verifiable)."),
    json: bool = JSON_OPTION,
) -> None:
    """Roll dice derived from the epoch's committed seed, or log a hand roll."""
    opts = options(ctx)
    hand = commands.parse_hand_faces(dice) if dice is not None else None
    rolled = commands.roll(opts.store(), opts.campaign, expression, actor=opts.who(),
                           character=character, why=why, hand=hand)
    p = rolled.payload
    if json:
        print_json({"position": rolled.position, **p})
        return
    source = f"roll n={p['nonce']} of epoch {p['epoch']}" if p["verifiable"] else "rolled by hand, not verifiable"
    who = f" for {p['character']}" if p["character"] else ""
    typer.echo(f"{p['expression']}{who}: {p['dice']} = {p['total']}  (position {rolled.position}, {source})")


def audit(
    ctx: typer.Context,
    epoch: str = typer.Argument("all", help="An epoch number, or all."),
    json: bool = JSON_OPTION,
) -> None:
    """Re-derive every roll of every revealed epoch and check its commitment."""
    from ledger.dice.audit import audit as run_audit

    if epoch != "all" and not (epoch.isascii() and epoch.isdigit()):
        raise BadInput(f"audit takes an epoch number or all, not {epoch!r}")
    opts = options(ctx)
    report = query(opts.store(), opts.campaign, lambda c: run_audit(c.envelopes))
    if epoch != "all":
        report = [r for r in report if r.epoch == int(epoch)]
        if not report:
            raise BadInput(f"there is no epoch {epoch} in this campaign")
    ok = all(r.ok for r in report)
    if json:
        print_json({"ok": ok, "epochs": [r.as_dict() for r in report],
                    "unrevealed": [r.epoch for r in report if not r.revealed]})
    else:
        print_table(["epoch", "revealed", "commitment", "rolls checked", "hand rolls", "mismatches"],
                    [(r.epoch, "yes" if r.revealed else "not yet", _ok(r.commitment_ok), r.rolls_checked,
                      r.hand_rolls, "; ".join(f"{m['position']}: {m['reason']}" for m in r.mismatches) or "none")
                     for r in report])
        typer.echo("audit: every revealed roll matches" if ok else "audit: MISMATCH found")
    if not ok:
        raise typer.Exit(1)


def _ok(value: Optional[bool]) -> str:
    return {None: "-", True: "ok", False: "WRONG"}[value]


def odds(
    expression: str = typer.Argument(..., help="A dice expression, e.g. 12d6s4."),
    ob: Optional[int] = typer.Option(None, "--ob", help="The Objective: chance of a total at least this."),
    json: bool = JSON_OPTION,
) -> None:
    """Exact odds of a roll (computed, not simulated)."""
    from ledger.dice.expression import parse
    from ledger.dice.odds import distribution, mean

    parsed = parse(expression)
    dist = distribution(parsed)
    at_least = _cumulative(dist)
    info = {"expression": parsed.text, "min": min(dist), "max": max(dist), "mean": float(mean(dist)),
            "distribution": [{"total": t, "chance": float(dist[t]), "at_least": float(at_least[t])}
                             for t in sorted(dist)]}
    if ob is not None:
        chance = sum((p for t, p in dist.items() if t >= ob), Fraction(0))
        info.update(ob=ob, chance=float(chance), exact=f"{chance.numerator}/{chance.denominator}")
    if json:
        print_json(info)
        return
    if ob is not None:
        typer.echo(f"P({parsed.text} >= {ob}) = {_percent(info['chance'])} (exactly {info['exact']})")
        return
    print_table(["total", "chance", "at least"],
                [(d["total"], _percent(d["chance"]), _percent(d["at_least"])) for d in info["distribution"]],
                title=f"{parsed.text}: mean {info['mean']:.3f}")


def _cumulative(dist):
    running, out = Fraction(0), {}
    for total in sorted(dist, reverse=True):
        running += dist[total]
        out[total] = running
    return out


def _percent(chance: float) -> str:
    return f"{chance * 100:.2f}%"


@app.command("client-seed")
@guarded
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
@guarded
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
    typer.echo(f"epoch {info['next_epoch']} opened: commitment {info['next_commitment']}")


@app.command("epochs")
@guarded
def epochs(ctx: typer.Context, at_event: Optional[int] = AT_EVENT, as_of: Optional[str] = AS_OF,
           as_recorded: Optional[str] = AS_RECORDED, json: bool = JSON_OPTION) -> None:
    """List the dice epochs: commitments, client seeds, rolls, reveals."""
    opts = options(ctx)
    state = query(opts.store(), opts.campaign, lambda c: c.dice,
                 point=Pin(at_event, as_of, as_recorded))
    rows = [{"epoch": e.number, "commitment": e.commitment, "client_seed": e.client_seed,
             "rolls": e.nonces, "hand_rolls": e.hand_rolls, "revealed": not e.open,
             "seed": e.seed} for e in state.epochs]
    if json:
        print_json(rows)
        return
    print_table(["epoch", "commitment", "client seed", "rolls", "hand", "seed"],
                [(r["epoch"], r["commitment"][:16] + "…", r["client_seed"], r["rolls"], r["hand_rolls"],
                  r["seed"] or "(not revealed)") for r in rows])
