"""`tally --help` grouped by the rules each command belongs to, and, when a
ledger and its campaign are known, which groups that campaign uses.

A campaign runs the rules modules given to `campaign new --rules`; a command
of a module it does not run is refused in it. Listing every ruleset's commands
in one heap left a referee of a Wolves band reading about Wealth and Boons."""

from __future__ import annotations

import os
from typing import Optional

# The panels in the order `tally --help` shows them: a rules module's panel is
# keyed by the module's name as `campaign new --rules` takes it.
PANELS = {
    "core": "Every campaign: players, characters, sessions, dice, time, the log",
    "coeac": "coeac (004): Wealth, Cash, the Company, hit points, inventory, Boons",
    "wolves": "wolves (000): silver, equipment, hirelings, companions, boasts, ships",
    "gods": "gods (001): alignments, gods, marks, prayers",
    "xp": "xp (002): XP and levels, skill rolls, expertise, hit dice, vows",
    "skirmish": "skirmish (003): luck, wounds, levels, stats and skills",
    "ledger": "The ledger itself: checking, signing, copying, serving, the database",
}
MODULES = ("coeac", "wolves", "gods", "xp", "skirmish")
Uses = Optional[tuple[str, tuple[str, ...]]]  # a campaign's name and the rules modules it runs

# Each top-level command or group of `tally`, by panel (tests/test_cli_help.py
# holds this to cli/main.py's GROUPS and COMMANDS: each in exactly one panel).
MEMBERS = {
    "core": ("campaign", "player", "char", "stable", "session", "treasure", "roll", "odds", "dice", "audit",
             "calendar", "downtime", "project", "note", "why", "diff", "log", "void", "script", "shell",
             "import-rolls", "secret", "recap", "test"),
    "coeac": ("wealth", "stronghold", "treasury", "company", "rep", "cash", "buy", "sell", "give", "item", "hp",
              "rest", "down-and-out", "boon", "specialty", "resource", "follower", "retire"),
    "wolves": ("silver", "outfit", "hire", "dismiss", "wages", "companion", "boast", "ship"),
    "gods": ("god",),
    "xp": ("xp", "skill", "vow", "expertise", "hd", "attributes"),
    "skirmish": ("luck", "wound", "skirmish"),
    "ledger": ("verify", "export", "import", "proof", "keys", "checkpoint", "serve", "chronicle", "db",
               "schedule", "scheduler", "bench"),
}
PANEL_OF = {name: panel for panel, names in MEMBERS.items() for name in names}

UNKNOWN = ("Commands are grouped by the rules module they belong to (`campaign new --rules`). "
           "Give the ledger (--db, or TALLY_DB) and --campaign before --help to see which its campaign uses.")


def ordered(names: list[str]) -> list[str]:
    """The commands panel by panel, each panel's in its own order."""
    return sorted(names, key=lambda name: (list(PANELS).index(PANEL_OF[name]), MEMBERS[PANEL_OF[name]].index(name))
                  if name in PANEL_OF else (len(PANELS), 0))


def titles(uses: Uses) -> dict[str, str]:
    """Each panel's title; with a campaign known (its name and rules), each rules module's
    title says whether the campaign runs it."""
    if uses is None:
        return dict(PANELS)
    name, rules = uses
    return {panel: title if panel not in MODULES else
            f"{title} · {'used by' if panel in rules else 'not used by'} {name}"
            for panel, title in PANELS.items()}


def epilog(uses: Uses, why_not: Optional[str] = None) -> str:
    if uses is None:
        return f"{UNKNOWN} Here: {why_not}." if why_not else UNKNOWN
    name, rules = uses
    unused = [PANELS[m].split(":")[0] for m in MODULES if m not in rules]
    runs = (", ".join(PANELS[m].split(":")[0] for m in MODULES if m in rules)
            or "no rules module (dice and calendar only)")
    others = f"; the commands under {', '.join(unused)} belong to rules it does not run" if unused else ""
    return f"Campaign {name} runs {runs}{others}."


def given(args: list[str], option: str) -> Optional[str]:
    """An option's value as typed before --help (`--db X` or `--db=X`), without parsing the rest."""
    for i, arg in enumerate(args):
        if arg == option and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith(option + "="):
            return arg[len(option) + 1:]
    return None


def ledger_named(db: Optional[str]) -> Optional[str]:
    """The ledger help should read: --db, else TALLY_DB, else ./tally.db, only if it is there.
    Nothing is imported nor opened when there is no ledger: `tally --help` stays instant."""
    target = db or os.environ.get("TALLY_DB") or "tally.db"
    if "://" in target and not target.startswith("sqlite:///"):
        return target  # a server: only opening it tells
    path = target[len("sqlite:///"):] if target.startswith("sqlite:///") else target
    return target if os.path.isfile(os.path.expanduser(path)) else None


def campaign_uses(opts, db: Optional[str], campaign: Optional[str]) -> tuple[Uses, Optional[str]]:
    """(the campaign's name and rules modules, or None; why not, when a ledger was there but said no)."""
    if hasattr(opts, "store"):  # a line of `tally shell` or `tally script` (cli.context.Options): its ledger
        store, campaign, own = opts.store(), campaign or opts.campaign, False
    else:
        if ledger_named(db) is None:
            return None, None
        from ledger.engines import resolve_url
        from ledger.store import Store

        store, own = None, True
    from ledger.errors import TallyError
    from projections.reading import resolve_campaign

    try:
        if own:
            store = Store(resolve_url(db), create=False)
        with store.reading() as tx:
            name = resolve_campaign(tx, campaign)
            return (name, tuple(tx.first(name).payload["rules"])), None
    except TallyError as refused:
        return None, str(refused)
    except Exception:  # help is always given: an unreadable ledger only loses the marks
        return None, None
    finally:
        if own and store is not None:
            store.dispose()


def prepare(ctx, args: list[str]) -> tuple[dict[str, str], str]:
    """What `tally --help` needs: each panel's title and the closing line, read from the ledger
    that --db/--campaign (typed before --help), TALLY_DB, or the shell's own options name."""
    uses, why_not = campaign_uses(ctx.obj, given(args, "--db"), given(args, "--campaign"))
    return titles(uses), epilog(uses, why_not)
