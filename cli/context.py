"""Global options (--db, --campaign, --actor), shared by every command."""

from __future__ import annotations

import getpass
import os
import unicodedata
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any, Optional

import typer

from ledger.engines import resolve_url
from ledger.errors import BadInput
from ledger.store import Store
from ledger.text import ACTOR_LIMIT, check_text


NOTES_SHOWN = 5


@dataclass
class Options:
    db: Optional[str] = None
    campaign: Optional[str] = None
    actor: Optional[str] = None
    game_date: Optional[str] = None  # the global --game-date, given before the command
    _stores: dict = field(default_factory=dict)
    # `tally script`: its lines share one store, in one batch ended by this stack (see Store.batch).
    batch: Optional[ExitStack] = None
    # What went wrong with the last command run with these options (cli/errors.py), and whether
    # the one who ran it reports it itself (`tally script`) rather than the boundary on stderr.
    refusal: Optional[Any] = None
    hand_back: bool = False

    def store(self, create: bool = False) -> Store:
        """The ledger; only commands that may start one create the file. In a
        script's batch, the one store every line uses, opened by the first line
        that asks (creating the ledger if that line may start one)."""
        if self.batch is not None:
            if "batch" not in self._stores:
                store = Store(resolve_url(self.db), create=create)
                self._stores["batch"] = store
                self.batch.enter_context(store.batch())
            return self._stores["batch"]
        if create not in self._stores:
            self._stores[create] = Store(resolve_url(self.db), create=create)
        return self._stores[create]

    def who(self) -> str:
        """Who is logging: --actor, else TALLY_ACTOR (either refused if it is not
        printable one-line text of at most 80 characters), else the OS user
        name made printable and cut to fit, else "referee"."""
        if self.actor is not None:
            return check_text(self.actor, "--actor", ACTOR_LIMIT)
        if os.environ.get("TALLY_ACTOR"):
            return check_text(os.environ["TALLY_ACTOR"], "TALLY_ACTOR", ACTOR_LIMIT)
        try:
            user = getpass.getuser()
        except Exception:
            user = ""
        # The OS name is not the referee's to fix at the table: keep what is printable.
        user = "".join(c for c in unicodedata.normalize("NFC", user) if c.isprintable()).strip()[:ACTOR_LIMIT].strip()
        return user or "referee"

    def late(self, game_date: Optional[str], ruling: Optional[str]) -> dict[str, Optional[str]]:
        """What a recording command passes on: --game-date given before the
        command or at its end (not both), and --ruling."""
        if game_date is not None and self.game_date is not None and game_date != self.game_date:
            raise BadInput(f"--game-date given twice ({self.game_date} and {game_date}): give it once")
        return {"game_date": game_date or self.game_date, "ruling": ruling}

    def close(self) -> None:
        """After the command: print what the read path noted, and let the ledger go."""
        self.say_notes()
        for store in self._stores.values():
            store.dispose()

    def say_notes(self) -> None:
        """What the read path noted (an ignored snapshot, the instant a query
        was pinned at), one line each on stderr, each said once."""
        notes = list(dict.fromkeys(note for store in self._stores.values() for note in store.notes))
        for note in notes[:NOTES_SHOWN]:
            typer.echo(f"tally: note: {note}", err=True)
        if len(notes) > NOTES_SHOWN:
            typer.echo(f"tally: note: and {len(notes) - NOTES_SHOWN} more like it", err=True)
        for store in self._stores.values():
            store.notes.clear()


def options(ctx: typer.Context) -> Options:
    return ctx.find_root().obj
