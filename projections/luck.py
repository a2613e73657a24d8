"""The luck report (`tally dice report`, the chronicle's luck page): every
roll of a session or a stretch of days with the exact chance of a result at
least as good, a check's chance of passing, and per character, per player
and for the whole table the mean percentile, the luckiest and unluckiest
roll, and how unusual the run was (ledger/dice/luck.py says how each is
counted). Odds come from the exact engine (ledger/dice/odds.py); a roll whose
odds it refuses as too large to count, or cannot read (another tool's
formula), is listed with the reason and left out of the summaries."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Optional, Union

from ledger.dice.check import LOW_WINS, Target
from ledger.dice.expression import parse
from ledger.dice.luck import HIGHER, LOWER, Roll, Standing, standing, unusual
from ledger.dice.odds import distribution
from ledger.errors import BadInput, NotFound
from ledger.names import key
from projections import views
from projections.span import Span, events_in

ROLLED = "dice.rolled"
EVERYONE = "everyone"


def exact(chance: Optional[Fraction]) -> Optional[str]:
    """A chance as an exact fraction string: "3/20" (1 is "1/1")."""
    return None if chance is None else f"{chance.numerator}/{chance.denominator}"


@lru_cache(maxsize=512)
def _distribution(text: str) -> Union[dict, str]:
    """The expression's exact distribution, or the one line saying why there is none."""
    try:
        return distribution(parse(text))
    except BadInput as exc:
        return str(exc)


@lru_cache(maxsize=512)
def _unfit(text: str, faces: tuple[int, ...], total: int) -> Optional[str]:
    """Why these faces and total are no roll of the expression (a roll brought in from another
    tool: a d20 showing 25, 2d6 with one face), or None: odds for them would be of another roll."""
    try:
        reading = parse(text).hand(list(faces))
    except BadInput as exc:
        return f"its faces {list(faces)} are no roll of {text}: {exc}"
    if reading.total != total:
        return f"its faces {list(faces)} make {reading.total} with {text}, not the {total} recorded"
    return None


def _odds(payload: dict) -> tuple[Optional[dict], Optional[str], Optional[tuple[Roll, Standing]]]:
    """What the report says of one roll's odds, or why it has none; and the roll, to summarise."""
    if payload.get("exact_total") is not None:
        return None, f"its total {payload['exact_total']} is not a whole number: tally cannot place it", None
    dist = _distribution(payload["expression"])
    if isinstance(dist, str):
        return None, f"no odds: {dist}", None
    if payload.get("nonce") is None:  # a derived roll is its expression's own; by hand or brought in: checked
        unfit = _unfit(payload["expression"], tuple(payload["dice"]), payload["total"])
        if unfit is not None:
            return None, f"no odds: {unfit}", None
    check = payload.get("check")
    better = LOWER if check and check["against"] in LOW_WINS else HIGHER
    found = standing(dist, payload["total"], better)
    if found is None:
        return None, f"{payload['total']} is not a total {payload['expression']} can roll: no odds", None
    odds = {"better": better, "p_at_least": exact(found.p_at_least), "p_exactly": exact(found.p_equal),
            "p_at_most": exact(found.p_at_most), "percentile": round(float(found.percentile), 4),
            "p_pass": None}
    if check:
        aim = Target(check["against"], check["target"], check.get("epic"))
        odds["p_pass"] = exact(aim.chances(dist)["pass"])
    return odds, None, (Roll(dist, better, payload["total"]), found)


def report(ctx, span: Span, character: Optional[str] = None) -> dict:
    """The luck report of the span (optionally one character's rolls), at the point."""
    stable, calendar = ctx.world.stable, ctx.campaign.calendar
    who = None
    if character is not None:
        who = stable.character(character)
        if who is None:
            raise NotFound(f"no character named {character!r} in campaign {ctx.name} (see `tally char list`)")
    seeded = {e["epoch"]: bool(e["client_seed"]) for e in views.epochs(ctx)}
    rows, runs = [], {}
    for e in events_in(ctx, span, [ROLLED]):
        p = e.payload
        owner = stable.character(p["character"]) if p.get("character") else None
        if who is not None and (owner is None or key(owner.name) != key(who.name)):
            continue
        odds, refused, roll = _odds(p)
        row = {"position": e.position, "game_date": calendar.format(e.game_time), "game_day": e.game_time,
               "session": e.session, "epoch": p["epoch"], "nonce": p.get("nonce"),
               "expression": p["expression"], "dice": list(p["dice"]), "total": p["total"],
               "character": owner.name if owner else p.get("character"), "player": owner.player if owner else None,
               "why": p.get("why"), "hand": not p["verifiable"], "source": p.get("source"),
               "player_seed": seeded.get(p["epoch"], False) if p["verifiable"] else None,
               "check": p.get("check"), **(odds or {"better": None, "p_at_least": None, "p_exactly": None,
                                                    "p_at_most": None, "percentile": None, "p_pass": None}),
               "refused": refused}
        rows.append(row)
        for group in _groups(row):
            runs.setdefault(group, []).append((row, roll))
    known: dict = {}  # a player of one character has that character's run: counted once
    summaries = {kind: [_summary(name, runs[(kind, name)], known) for (k, name) in runs if k == kind]
                 for kind in ("character", "player")}
    table = runs.get(("table", EVERYONE))
    unseeded = sorted({r["epoch"] for r in rows if r["player_seed"] is False})
    return {"campaign": ctx.name, "range": span.as_dict(calendar), "label": span.label(calendar),
            "for": who.name if who else None, "rolls": rows,
            "characters": summaries["character"], "players": summaries["player"],
            "table": _summary(EVERYONE, table or [], known),
            "unseeded_epochs": unseeded,
            "derived_unseeded": sum(1 for r in rows if r["player_seed"] is False)}


def _groups(row: dict) -> list[tuple[str, str]]:
    groups = [("table", EVERYONE)]
    if row["character"]:
        groups.append(("character", row["character"]))
    if row["player"]:
        groups.append(("player", row["player"]))
    return groups


def _brief(row: dict) -> dict:
    return {"position": row["position"], "character": row["character"], "expression": row["expression"],
            "total": row["total"], "game_date": row["game_date"], "p_at_least": row["p_at_least"],
            "p_at_most": row["p_at_most"], "percentile": row["percentile"]}


def _summary(name: str, run: list, known: dict) -> dict:
    counted = [(row, roll) for row, roll in run if roll is not None]  # roll: (Roll, Standing)
    out = {"name": name, "rolls": len(run), "counted": len(counted), "hand": sum(1 for row, _ in run if row["hand"]),
           "mean_percentile": None, "luckiest": None, "unluckiest": None, "unusual": None}
    if not counted:
        return out
    rows = [row for row, _ in counted]
    standings = [found for _, (_, found) in counted]
    out["mean_percentile"] = round(float(sum(s.percentile for s in standings) / len(rows)), 4)
    out["luckiest"] = _brief(rows[min(range(len(rows)), key=lambda i: (standings[i].p_at_least, i))])
    out["unluckiest"] = _brief(rows[min(range(len(rows)), key=lambda i: (standings[i].p_at_most, i))])
    # How unusual depends only on which rolls came out how, in any order.
    same = tuple(sorted((row["expression"], roll.better, roll.total) for row, (roll, _) in counted))
    if same not in known:
        known[same] = unusual([roll for _, (roll, _) in counted])
    found = known[same]
    out["unusual"] = {"p": round(found.p, 6), "one_in": _one_in(found.p), "exact": found.exact,
                      "direction": found.direction,
                      "p_exact": exact(found.p_exact) if found.p_exact is not None
                      and len(str(found.p_exact.denominator)) <= 40 else None}
    return out


def _one_in(p: float) -> Optional[float]:
    """1/p, as "1 in N" reads it: a tenth below 10, whole above; None for a chance of 0."""
    if p <= 0:
        return None
    return round(1 / p, 1) if 1 / p < 10 else round(1 / p)
