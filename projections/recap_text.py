"""A recap (projections/recap.py) as Markdown that pastes cleanly into
Discord and Obsidian — headings and lists, no HTML, no tables — or as plain
text. Only what someone typed is escaped in Markdown (a name, a reason, a
calendar's month): each character Markdown, Discord or Obsidian could read as
markup gets a backslash, so `*Bo*` stays `*Bo*`, `@everyone` pings no one and
`[[Bo]]` links to nothing."""

from __future__ import annotations

# Emphasis and code (* _ ` ~), Discord's spoilers (|), links and images ([ ]), HTML and
# autolinks (<), entities (&), headings and Obsidian's tags (#), Discord's mentions (@),
# Obsidian's highlights (=), comments (%), maths ($) and block references (^), the escape itself.
SPECIAL = frozenset("\\`*_~|[]<&#@=%$^")


def escape(text: str) -> str:
    """Typed text as Markdown that reads as the text itself (never at a line's start: that is a label's)."""
    text = " ".join(str(text).split())  # one line: a newline could start a block of its own
    return "".join("\\" + c if c in SPECIAL else c for c in text)


def _parts(parts, markdown: bool) -> str:
    return "".join(escape(text) if markdown and typed else text for text, typed in parts)


def _who_line(session: dict, markdown: bool) -> str:
    esc = escape if markdown else str
    dates = f"{esc(session['start'])} to {esc(session['end'])}" if session["end"] else f"{esc(session['start'])}, still open"
    names = []
    for c in session["characters"]:
        how = f"{esc(c['player'])}" + (", joined" if c["joined"] else "") \
            + (f", replacing {esc(c['replaces'])}" if c["replaces"] else "")
        names.append(f"{esc(c['character'])} ({how})")
    label = f"Session {session['number']}"
    return f"{'**' + label + '**' if markdown else label} ({dates}): {', '.join(names) or 'nobody'}"


def _totals(recap: dict, markdown: bool) -> list[tuple[str, str]]:
    esc = escape if markdown else str
    t = recap["totals"]

    def named(counts: dict, unit: str = "") -> str:
        return ", ".join(f"{esc(name)} {amount}{unit}" for name, amount in counts.items()) or "none"

    found = ", ".join(f"{amount} {unit}" for unit, amount in t["treasure_found"].items()) or "none"
    deaths = ", ".join(esc(name) for name in t["deaths"]) or "none"
    replaced = ", ".join(f"{esc(r['character'])} for {esc(r['replaces'])}" for r in t["replacements"])
    rows = [("Treasure found", found), ("Shares", named(t["shares"]))]
    if t["set_aside"]:
        rows.append(("Set aside", named(t["set_aside"])))
    rows += [("XP", named(t["xp"])),
            ("Boons gained", named(t["boons"])), ("Deaths", deaths)]
    if replaced:
        rows.append(("Replacements", replaced))
    rows.append(("Days passed", str(recap["days_passed"])))
    return rows


def _heading(recap: dict, markdown: bool) -> tuple[str, str]:
    esc = escape if markdown else str
    title = f"{esc(recap['campaign'])}: {esc(recap['label'])}"
    span = recap["from"] if recap["from"] == recap["to"] else f"{recap['from']} to {recap['to']}"
    still = ", still open" if recap["open"] else ""
    return title, f"In game: {esc(span)}{still} ({recap['days_passed']} day(s) passed)"


def markdown(recap: dict) -> str:
    title, when = _heading(recap, True)
    out = [f"# {title}", "", f"*{when}*", "", "## Who went", ""]
    out += [f"- {_who_line(s, True)}" for s in recap["who"]] or ["- no session"]
    for day in recap["days"]:
        out += ["", f"## {escape(day['date'])}", ""]
        for entry in day["entries"]:
            out.append(f"- **{entry['kind']}:** {_parts(entry['parts'], True)}")
    if not recap["days"]:
        out += ["", "Nothing was recorded in this stretch."]
    out += ["", "## Totals", ""]
    out += [f"- **{label}:** {value}" for label, value in _totals(recap, True)]
    return "\n".join(out) + "\n"


def plain(recap: dict) -> str:
    title, when = _heading(recap, False)
    out = [title, when, "", "Who went"]
    out += [f"  {_who_line(s, False)}" for s in recap["who"]] or ["  no session"]
    for day in recap["days"]:
        out += ["", day["date"]]
        for entry in day["entries"]:
            out.append(f"  {entry['kind']}: {_parts(entry['parts'], False)}")
    if not recap["days"]:
        out += ["", "Nothing was recorded in this stretch."]
    out += ["", "Totals"]
    out += [f"  {label}: {value}" for label, value in _totals(recap, False)]
    return "\n".join(out) + "\n"


def as_json(recap: dict) -> dict:
    """The recap as JSON prints it: each entry's text whole (its parts are for the renderers)."""
    days = [{**day, "entries": [{k: v for k, v in e.items() if k != "parts"} for e in day["entries"]]}
            for day in recap["days"]]
    return {**recap, "days": days}
