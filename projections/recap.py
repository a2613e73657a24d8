"""A recap of a session or a stretch of days (`tally recap`, the chronicle's
recap page): who went, and what happened day by day in game-date order —
treasure and its division, Income, XP and levels, Boons, deaths and
replacements, Wealth and stronghold attempts, Reputation, gods' marks,
downtime and projects, notes, sealed secrets sealed and revealed, time
passing — with totals. Voided events are left out.

Each line is kept as parts, each part marked as the ledger's own words or
text someone typed (a name, a reason, a calendar's month), so Markdown can
escape only what was typed (projections/recap_text.py) and a page can show
it escaped as HTML, from the same data."""

from __future__ import annotations

from collections import Counter
from typing import Callable, Optional

from ledger.names import key
from projections.company import reputation_after
from projections.span import Span, events_in

Part = tuple[str, bool]  # (text, typed by someone)


def _typed(value) -> Part:
    return (str(value), True)


def _say(*pieces) -> list[Part]:
    """Parts from plain strings (the ledger's words) and _typed(...) parts."""
    return [p if isinstance(p, tuple) else (str(p), False) for p in pieces if p != ""]


def _names(pairs, sep: str = ", ") -> list[Part]:
    """name amount, name amount: names typed, amounts the ledger's."""
    out: list[Part] = []
    for i, (name, amount) in enumerate(pairs):
        out += _say(sep if i else "", _typed(name), f" {amount}")
    return out


def _currency(p: dict) -> str:
    return "sp" if p.get("currency") == "sp" else "Cash"


def _divided(p: dict) -> list[Part]:
    parts = _names(p["shares"].items())
    if p.get("set_aside"):
        parts += _say("; set aside for ") + _names(p["set_aside"].items())
    if p.get("companions"):
        parts += _say("; companions' half shares: ") + _names(p["companions"].items())
    return parts + _say(f" ({p['total']} {_currency(p)})")


def _income(p: dict) -> Optional[list[Part]]:
    if not p["wealth_dice"] and not p["economy_dice"]:
        return None  # no dice to roll: nothing happened
    return _say(_typed(p["character"]), f": {p['successes']} Cash from {p['wealth_dice'] + p['economy_dice']} dice")


def _boon_spent(p: dict) -> list[Part]:
    what = _say("+1 ", _typed(p["target"])) if p["kind"] in ("skill", "save") else _say(_typed(p["target"]))
    return _say(_typed(p["character"]), " chooses ") + what + _say(" from the ", _typed(p["boon_list"]), " list")


def _attempt(p: dict, what: list[Part]) -> list[Part]:
    verdict = "gained" if p["succeeded"] else "failed"
    tags = _say(", tags ") + _list(p.get("tags") or []) if p["succeeded"] and p.get("tags") else []
    return what + _say(f" {p['rank_from']} → {p['rank_from'] + 1}, Ob {p['ob']}, {p['wager']} Cash wagered: "
                       f"{p['successes']} successes, {verdict}") + tags


def _list(names) -> list[Part]:
    out: list[Part] = []
    for i, name in enumerate(names):
        out += _say(", " if i else "", _typed(name))
    return out


def _reputation(p: dict) -> list[Part]:
    before, after = p["before"], reputation_after(p)
    return _say(_typed(p["faction"]), f" {p['requested']:+d} ({before:+d} → {after:+d}): ", _typed(p["why"]))


def _repented(p: dict) -> list[Part]:
    return _say(_typed(p["character"]), " repents: " + ("accepted, the black marks are lifted" if p["accepted"]
                                                        else "not believed"))


def _crawled(p: dict) -> Optional[list[Part]]:
    effect = {"removed_black_mark": "a black mark is lifted", "banked_bonus": f"+{p.get('bonus', 0)}% banked"}
    return _say(_typed(p["character"]), " crawls: " + effect.get(p["effect"], "no effect"))


def _revealed(p: dict) -> list[Part]:
    """A revealed text's first line (a table's first row): the whole text is on the secret's page and in
    `tally secret list --json`; a recap line stays one line."""
    lines = p["text"].splitlines() or [""]
    more = f" (+{len(lines) - 1} more line(s))" if len(lines) > 1 else ""
    return _say("the sealed secret ", _typed(p["label"]), " is revealed: ", _typed(lines[0]),
                f"{more}; it makes its commitment {p['commitment'][:16]}… (check: tally secret verify)")


# What each event type says in a recap: (its kind, its line); a line of None leaves the event out.
PHRASES: dict[str, tuple[str, Callable[[dict], Optional[list[Part]]]]] = {
    "session.opened": ("Session", lambda p: _say(f"session {p['number']} opens: ") + _list(p["activated"].values())),
    "session.joined": ("Joined", lambda p: _say(_typed(p["character"]), " (", _typed(p["player"]), ") joins the "
                                                "session") + (_say(", replacing ", _typed(p["replaces"]))
                                                              if p.get("replaces") else [])),
    "session.closed": ("Session", lambda p: _say(f"session {p['number']} closes")),
    "treasure.found": ("Treasure", lambda p: _say(f"{p['cash']} {_currency(p)} found: ", _typed(p["source"]))),
    "treasure.divided": ("Treasure split", _divided),
    "treasure.set_aside_paid": ("Treasure", lambda p: _say(_typed(p["character"]), f" receives {p['cash']} "
                                                           f"{_currency(p)} set aside for ", _typed(p["player"]))),
    "item.gained": ("Treasure", lambda p: _say(_typed(p["character"]), " finds ", _typed(p["item"]),
                                               f" (worth {p['cash']} Cash)") if p["cash"] else None),
    "commodity.converted": ("Treasure", lambda p: _say(_typed(p["character"]), " turns ", _typed(p["item"]),
                                                       f" into {p['cash']} Cash")),
    "income.rolled": ("Income", _income),
    "company.income_rolled": ("Income", lambda p: _say("the Company's ", _typed(p["stronghold"]),
                                                       f": {p['successes']} Cash from {p['economy_dice']} dice")),
    "xp.awarded": ("XP", lambda p: _say(_typed(p["character"]), f" {p['amount']:+d} XP ({p['source']}): ",
                                        _typed(p["why"]))),
    "level.attained": ("Level", lambda p: _say(_typed(p["character"]), f" reaches level {p['level']}: ",
                                               _typed(p["benefit"]))),
    "level.lost": ("Level", lambda p: _say(_typed(p["character"]), f" falls to level {p['level']} "
                                                                   f"(from {p['from_level']})")),
    "boon.gained": ("Boon", lambda p: _say(_typed(p["character"]), f" gains a Boon ({p['reason']})")),
    "boon.owed": ("Boon", lambda p: _say(_typed(p["died"]), "'s Boon waits for ", _typed(p["player"]),
                                         "'s next new character")),
    "boon.spent": ("Boon", _boon_spent),
    "character.died": ("Death", lambda p: _say(_typed(p["character"]), " dies: ", _typed(p["cause"]))),
    "character.created": ("New character", lambda p: _say(_typed(p["name"]), " joins ", _typed(p["player"]),
                                                          "'s stable") + (_say(", inheriting from ",
                                                                               _typed(p["inherited_from"]))
                                                                          if p.get("inherited_from") else [])),
    "character.retired": ("Retired", lambda p: _say(_typed(p["name"]), f" retires ({p['boons']} Boons, Wealth "
                                                                        f"{p['wealth']})")),
    "wealth.attempted": ("Wealth", lambda p: _attempt(p, _say(_typed(p["character"]), ": Wealth"))),
    "stronghold.founded": ("Stronghold", lambda p: _say(_typed(p["name"]), " founded, owned by ",
                                                        _typed(p["owner"]))),
    "stronghold.attempted": ("Stronghold", lambda p: _attempt(p, _say(_typed(p["name"]), " (paid by ",
                                                                      _typed(p["by"]), ")"))),
    "reputation.changed": ("Reputation", _reputation),
    "god.black_mark": ("Gods", lambda p: _say(_typed(p["character"]), ": a black mark: ", _typed(p["why"]))),
    "god.grey_marks": ("Gods", lambda p: _say(_typed(p["character"]), f": {p['count']} grey mark(s): ",
                                              _typed(p["why"]))),
    "god.warning": ("Gods", lambda p: _say(_typed(p["character"]), ": a warning sign: ", _typed(p["why"]))),
    "god.punished": ("Gods", lambda p: _say(_typed(p["character"]), " is punished: ", _typed(p["how"]))),
    "god.repented": ("Gods", _repented),
    "god.crawled": ("Gods", _crawled),
    "god.sacrificed": ("Gods", lambda p: _say(_typed(p["character"]), f" sacrifices ({p['black']} black, "
                                                                      f"{p['grey']} grey mark(s) redeemed): ",
                                              _typed(p["why"]))),
    "god.converted": ("Gods", lambda p: _say(_typed(p["character"]), " converts from ", _typed(p["from_god"]),
                                             " to ", _typed(p["god"]))),
    "downtime.acted": ("Downtime", lambda p: _say(_typed(p["character"]), ": ", _typed(p["action"]))
                       + (_say(" (project ", _typed(p["project"]), ")") if p.get("project") else [])),
    "project.started": ("Project", lambda p: _say(_typed(p["name"]), " begins for ", _typed(p["owner"]),
                                                  f": {p['ticks']} ticks")),
    "project.ticked": ("Project", lambda p: _say(_typed(p["name"]), f": a tick (of {p['ticks']}) by ",
                                                 _typed(p["by"]))),
    "note.recorded": ("Note", lambda p: _say(_typed(p["title"])) + (_say(" — ", _typed(p["text"]))
                                                                    if p.get("text") else [])),
    "secret.sealed": ("Secret", lambda p: _say("a secret is sealed: ", _typed(p["label"]),
                                               f" (commitment {p['commitment'][:16]}…)")),
    "secret.revealed": ("Secret", _revealed),
    "calendar.advanced": ("Time", lambda p: _say(f"{p['days']} day(s) pass") + (_say(": ", _typed(p["why"]))
                                                                                if p.get("why") else [])),
}


def recap(ctx, span: Span) -> dict:
    """The recap of the span at the point: plain data for the command line and the chronicle."""
    calendar = ctx.campaign.calendar
    days: list[dict] = []
    totals = {"found": Counter(), "shares": Counter(), "set_aside": Counter(), "xp": Counter(),
              "boons": Counter(), "deaths": [], "replacements": []}
    for e in events_in(ctx, span, list(PHRASES)):
        kind, phrase = PHRASES[e.type]
        parts = phrase(e.payload)
        if parts is None:
            continue
        if not days or days[-1]["day"] != e.game_time:
            days.append({"day": e.game_time, "date": calendar.format(e.game_time), "entries": []})
        days[-1]["entries"].append({"position": e.position, "type": e.type, "kind": kind, "parts": parts,
                                    "text": "".join(text for text, _ in parts)})
        _count(totals, e.type, e.payload)
    first, last = span.first, span.last
    return {"campaign": ctx.name, "range": span.as_dict(calendar), "label": span.label(calendar),
            "days_passed": last - first, "from": calendar.format(first), "to": calendar.format(last),
            "open": span.kind == "session" and ctx.world.sessions.get(span.session).open,
            "who": _who(ctx, span), "days": days,
            "totals": {"treasure_found": dict(totals["found"]), "shares": dict(totals["shares"]),
                       "set_aside": dict(totals["set_aside"]),
                       "xp": dict(totals["xp"]), "boons": dict(totals["boons"]), "deaths": totals["deaths"],
                       "replacements": totals["replacements"]}}


def _count(totals: dict, kind: str, p: dict) -> None:
    if kind == "treasure.found":
        totals["found"][_currency(p)] += p["cash"]
    elif kind == "treasure.divided":
        for name, amount in p["shares"].items():
            totals["shares"][name] += amount
        for name, amount in p.get("set_aside", {}).items():
            totals["set_aside"][name] += amount
    elif kind == "xp.awarded":
        totals["xp"][p["character"]] += p["amount"]
    elif kind == "boon.gained":
        totals["boons"][p["character"]] += 1
    elif kind == "character.died":
        totals["deaths"].append(p["character"])
    elif kind == "session.joined" and p.get("replaces"):
        totals["replacements"].append({"character": p["character"], "replaces": p["replaces"]})


def _who(ctx, span: Span) -> list[dict]:
    """The sessions the span covers, each with every character who went (joined ones too), in order."""
    sessions = ctx.world.sessions
    if span.kind == "session":
        numbers = [span.session]
    else:
        numbers = [s.number for s in sessions.sessions
                   if s.start <= span.last and (s.end if s.end is not None else ctx.campaign.today) >= span.first]
    calendar = ctx.campaign.calendar
    out = []
    for number in numbers:
        found = sessions.get(number)
        went: list[dict] = []
        for e in ctx.tx.read(ctx.name, upto=ctx.upto, types=["session.opened", "session.joined"],
                             after=found.opened_at - 1, session=number):
            p = e.payload
            if e.type == "session.opened" and p["number"] == number:
                went += [{"character": c, "player": player, "joined": False, "replaces": None}
                         for player, c in p["activated"].items()]
            elif e.type == "session.joined" and p["number"] == number:
                went.append({"character": p["character"], "player": p["player"], "joined": True,
                             "replaces": p.get("replaces")})
        players = ctx.world.stable.players
        for row in went:  # the player as the stable names them (activated is keyed by the name's key)
            found_player = players.get(key(row["player"]))
            row["player"] = found_player.name if found_player else row["player"]
        out.append({"number": number, "start": calendar.format(found.start),
                    "end": calendar.format(found.end) if found.end is not None else None, "characters": went})
    return out
