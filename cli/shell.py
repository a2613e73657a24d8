"""tally shell: one prompt for a whole evening at the table.

Each line is a tally command as it would be typed after `tally`, run by the
same command tree through the same error boundary, so it prints what the
one-shot command prints and refuses in the same one line; but the ledger
stays open between lines and every command's code stays loaded, so a
command answers without starting Python again. prompt_toolkit does the line
editing, the history file and the completion of commands, options and the
campaign's names.
"""

from __future__ import annotations

import os
import shlex
import sys
from contextlib import suppress
from pathlib import Path
from typing import Iterable, Optional

import typer

from cli.context import Options, options

PROMPT = "tally> "
LEAVE = {"exit", "quit"}
GLOBAL_WITH_VALUE = {"--db", "--campaign", "--actor", "--game-date"}

# Which of the campaign's names complete a value, by the name of the option or
# argument it fills; "name" is a character's unless the command says otherwise.
KINDS = {
    "name": "character", "character": "character", "subject": "subject", "giver": "character",
    "receiver": "character", "aid_by": "character", "haven": "character", "activate": "character",
    "healer": "character", "raised_by": "character", "opponent": "character", "by": "character",
    "owner": "character", "player": "player", "faction": "faction", "rep_faction": "faction", "god": "god",
}
# Commands whose NAME is a new name (nothing to complete) or names something else.
NAME_OF = {("player", "add"): None, ("char", "new"): None, ("campaign", "new"): None,
           ("stronghold", "found"): None, ("project", "start"): None, ("ship", "add"): None,
           ("ship", "buy"): None, ("follower", "add"): None, ("stronghold", "improve"): "stronghold"}
COMPANY = {"by", "owner"}  # where the Company stands beside the characters


def shell(
    ctx: typer.Context,
    history: Optional[str] = typer.Option(
        None, "--history", help="The file that keeps the shell's command history "
                                "(default: TALLY_HISTORY, else ~/.tally_history)."),
) -> None:
    """An interactive prompt for a whole evening: every tally command, typed without `tally`, the ledger
    kept open between them; command history, and Tab completes commands, options and the campaign's
    names. Ctrl-D or `exit` leaves."""
    from ledger.files import refuse_ledger_file
    from ledger.engines import resolve_url

    opts = options(ctx)
    with suppress(RuntimeError):  # no home folder: no default history file to check
        refuse_ledger_file(str(_history_file(history)), resolve_url(opts.db))  # appended to all evening
    root = ctx.find_root().command
    shared = Options(db=opts.db, campaign=opts.campaign, actor=opts.actor)
    names = Names(shared)
    try:
        for text in _lines(root, names, history):
            try:
                if run_line(root, text, shared) is None:
                    break
            except KeyboardInterrupt:  # between the command's own boundary and the prompt
                typer.echo("tally: interrupted", err=True)
            names.stale = True
    finally:
        shared.close()


def run_line(root, text: str, shared: Options) -> Optional[int]:
    """Run one line as `tally <line>` would run: its exit status, or None to leave."""
    try:
        words = shlex.split(text)
    except ValueError as exc:
        typer.echo(f"tally: cannot read that line ({exc}): close the quote", err=True)
        return 2
    if words[:1] == ["tally"]:
        words = words[1:]
    if not words:
        return 0
    if len(words) == 1 and words[0] in LEAVE:
        return None
    if words[0] == "help":  # `help`, `help char`: what --help says
        words = words[1:] + ["--help"]
    if words[0] == "shell":
        typer.echo("tally: this is the shell already (Ctrl-D or `exit` leaves it)", err=True)
        return 1
    try:
        root.main(words, prog_name="tally", standalone_mode=True, obj=shared)
    except SystemExit as done:
        return done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    finally:
        shared.say_notes()  # after each line, as the one-shot command says them at its end
        sys.stdout.flush()
    return 0


def _lines(root, names: "Names", history: Optional[str]) -> Iterable[str]:
    """The lines typed: at a terminal through prompt_toolkit, else (a pipe) as read."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        yield from (line.rstrip("\n") for line in sys.stdin)
        return
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory, InMemoryHistory

    path = _history_file(history)
    try:
        path.touch(mode=0o600, exist_ok=True)
        kept = FileHistory(str(path))
    except OSError as exc:
        typer.echo(f"tally: note: no history file ({path}: {exc.strerror}); this evening's is kept in memory",
                   err=True)
        kept = InMemoryHistory()
    session = PromptSession(history=kept, completer=Completer(root, names), complete_while_typing=False)
    typer.echo("tally shell: the ledger stays open. Tab completes; `help` lists the commands; "
               "Ctrl-D or `exit` leaves.")
    while True:
        try:
            yield session.prompt(PROMPT)
        except KeyboardInterrupt:  # Ctrl-C clears the line, as in any shell
            continue
        except EOFError:
            typer.echo("")
            return


def _history_file(history: Optional[str]) -> Path:
    return Path(history or os.environ.get("TALLY_HISTORY") or Path.home() / ".tally_history")


class Names:
    """The campaign's names, read again after each command that ran."""

    def __init__(self, shared: Options) -> None:
        self.shared, self.stale, self._known = shared, True, {}

    def of(self, kind: str) -> list[str]:
        if self.stale:
            self.stale = False
            self._known = self._read()
        if kind == "subject":  # what `why` explains: a character, the Company, a Faction, a stronghold
            return (self._known.get("character", []) + ["company"]
                    + [f"rep:{f}" for f in self._known.get("faction", [])]
                    + [f"stronghold:{s}" for s in self._known.get("stronghold", [])])
        return self._known.get(kind, [])

    def _read(self) -> dict[str, list[str]]:
        from projections.reading import query
        from ledger.errors import TallyError
        from projections.roster import roster

        try:
            return query(self.shared.store(), self.shared.campaign, lambda c: roster(c.world))
        except TallyError:  # no ledger yet, or several campaigns and none chosen: nothing to offer
            return {}
        except Exception:  # Tab is a convenience: whatever broke will be said by the next command run
            return {}


def _tokens(text: str) -> tuple[list[str], str, int]:
    """The words typed before the cursor, the word being typed and how many
    characters of the line it takes (quotes included)."""
    words, start, buffer, quote = [], None, [], None
    for i, char in enumerate(text):
        if quote:
            if char == quote:
                quote = None
            else:
                buffer.append(char)
        elif char in "'\"":
            quote, start = char, i if start is None else start
        elif char.isspace():
            if start is not None:
                words.append("".join(buffer))
                start, buffer = None, []
        else:
            start = i if start is None else start
            buffer.append(char)
    if start is None:
        return words, "", 0
    return words, "".join(buffer), len(text) - start


def _quoted(name: str) -> str:
    return shlex.quote(name) if name != shlex.quote(name) else name


try:
    from prompt_toolkit.completion import Completer as _Base, Completion
except ImportError:  # pragma: no cover - prompt_toolkit is a dependency; only the terminal path needs it
    _Base, Completion = object, None


class Completer(_Base):
    """Tab: the sub-commands of the group typed so far, the options of the
    command (after a -), and the campaign's names where a value names one."""

    def __init__(self, root, names: Names) -> None:
        self.root, self.names = root, names

    def get_completions(self, document, complete_event):
        words, current, length = _tokens(document.text_before_cursor)
        for candidate in self.candidates(words, current):
            if candidate.casefold().startswith(current.casefold()):
                # A word chosen is a word done: the space after it saves the referee a key.
                yield Completion(_quoted(candidate) + " ", start_position=-length, display=candidate)

    def candidates(self, words: list[str], current: str) -> list[str]:
        command, path, position, pending = self._resolve(words)
        if current.startswith("-") and pending is None:
            opts = [o for p in command.params if p.param_type_name == "option"
                    for o in (*p.opts, *p.secondary_opts)] if command is not None else []
            return sorted(set(opts + ["--help"] + (sorted(GLOBAL_WITH_VALUE) if not path else [])))
        if pending is not None:
            return self._names(path, pending)
        if command is None:
            return []
        if hasattr(command, "list_commands"):
            return command.list_commands(typer.Context(command, info_name="tally"))
        arguments = [p for p in command.params if p.param_type_name == "argument"]
        if not arguments:
            return []
        argument = arguments[min(position, len(arguments) - 1)]
        if position >= len(arguments) and argument.nargs != -1:
            return []
        return self._names(path, argument.name)

    def _resolve(self, words: list[str]):
        """The command the words reach, its path, how many arguments it has been
        given, and the option waiting for its value (if the last word is one)."""
        command, path, position, pending = self.root, (), 0, None
        for word in words:
            if pending is not None:
                pending = None
                continue
            if word.startswith("-"):
                option = self._option(command, word) if command is not None else None
                if not path and word in GLOBAL_WITH_VALUE:
                    pending = word.lstrip("-").replace("-", "_")
                elif option is not None and not option.is_flag and not option.count:
                    pending = option.name
                continue
            if command is not None and hasattr(command, "list_commands"):
                found = command.get_command(typer.Context(command, info_name="tally"), word)
                command, path = found, path + (word,)
                continue
            position += 1
        return command, path, position, pending

    @staticmethod
    def _option(command, word: str):
        return next((p for p in command.params
                     if p.param_type_name == "option" and word in (*p.opts, *p.secondary_opts)), None)

    def _names(self, path: tuple[str, ...], parameter: str) -> list[str]:
        kind = NAME_OF.get(path, KINDS.get(parameter)) if parameter == "name" else KINDS.get(parameter)
        if kind is None:
            return []
        return self.names.of(kind) + (["company"] if parameter in COMPANY else [])
