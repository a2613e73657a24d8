"""tally script FILE: run tally commands from a file, one per line, as one
transaction (all or nothing), or with --each as one transaction a line."""

from __future__ import annotations

import io
import shlex
import sys
from contextlib import ExitStack, contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from typing import Iterator, TextIO

import typer

from cli.context import Options, options
from ledger.errors import BadInput

# Commands that cannot share the script's transaction, and why.
APART = {
    "import": "it checks its file in worker processes and commits on its own",
    "export": "it would write a file of events the script has not committed",
    "verify": "its worker processes read only what is committed",
    "bench": "it works on databases of its own",
    "schedule": "the scheduler's job store is written outside the ledger's transaction",
    "scheduler": "the scheduler runs jobs in transactions of their own",
    "db": "it works on the database itself",
    "chronicle": "it would write pages of events the script has not committed",
    "serve": "it would show events the script has not committed, holding the write lock while it serves",
    "shell": "it would take commands from the terminal while holding the script's write lock",
}
# An option that writes a file: the file would hold what the script has not committed, and stay if a
# later line is refused (a signed checkpoint of a log that never was, a proof of a rolled-back event).
_WRITES_FILE = "--out"
_GLOBAL_WITH_VALUE = {"--db", "--campaign", "--actor", "--game-date"}


@dataclass
class Line:
    number: int
    text: str  # as written, fit to quote in a one-line message
    words: list[str]

    @property
    def command(self) -> str:
        """The command or group the line runs (its first word past the global options)."""
        skip = False
        for word in self.words:
            if skip:
                skip = False
            elif word.startswith("-"):
                skip = word in _GLOBAL_WITH_VALUE
            else:
                return word
        return ""


def script(
    ctx: typer.Context,
    file: str = typer.Argument(..., help="A file of tally commands, one per line; # starts a comment."),
    echo: bool = typer.Option(True, "--echo/--quiet", help="Print each command before its output."),
    each: bool = typer.Option(False, "--each", help="Commit each line on its own (the first refusal "
                              "stops the script; the lines before it stay recorded)."),
) -> None:
    """Replay a scripted session as one transaction: every line is recorded, or
    none is. The first refusal stops the script, naming its line."""
    from typer.main import get_command

    from cli.main import app

    lines = _read(file, each)
    if not lines:
        typer.echo(f"{file} holds no commands: nothing was recorded")
        return
    opts = options(ctx)
    shared = Options(db=opts.db, campaign=opts.campaign, actor=opts.actor)
    command = get_command(app)
    done = 0  # the last line that ran and was kept (with --each)
    # What the lines print is held until what they recorded is kept: a refused
    # script shows none of it, above all not a derived roll, which was a peek at
    # the next roll of its epoch (nothing recorded, the same roll numbers come again).
    held = Held()
    with ExitStack() as stack:
        stack.callback(shared.close)  # last: after the batch has ended
        stack.push(lambda failed, *_: None if failed else held.release())  # once the batch has committed
        if not each:
            shared.batch = stack
        for line in lines:
            with held.capture():
                if echo:
                    typer.echo(f"\n$ tally {shlex.join(line.words)}")
                code, message = _run(command, line, shared)
            if each and not code:
                held.release()  # committed by the line itself
                shared.say_notes()
            if code:
                with held.capture():  # the notes of what is not kept go with it
                    shared.say_notes()
                held.drop()
                what = "was interrupted" if code == 130 else "was refused"
                if not each:
                    kept = "nothing of the script is recorded"
                elif done == 0:
                    kept = "nothing is recorded"
                else:
                    kept = f"line{'s 1-' if done > 1 else ' '}{done} {'are' if done > 1 else 'is'} recorded"
                if each:
                    report = f"{file}: {kept}; line {line.number} ({line.text}) {what}: {message}"
                else:
                    report = f"{file} line {line.number} ({line.text}) {what}: {message}; {kept}"
                typer.echo(f"tally: {report}", err=True)
                raise typer.Exit(code)  # through the stack: the batch rolls back
            done = line.number


def _read(file: str, each: bool) -> list[Line]:
    """The script's commands, every line checked before any runs."""
    try:
        with open(file, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as exc:
        raise BadInput(f"cannot read {file}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise BadInput(f"cannot read {file}: it is not UTF-8 text") from None
    except ValueError:  # a NUL in the path (found by the CLI fuzz)
        raise BadInput(f"cannot read {file!r}: not a file name") from None
    lines = []
    for number, raw in enumerate(text.splitlines(), 1):
        shown = _quote(raw)
        try:
            words = shlex.split(raw, comments=True)
        except ValueError as exc:
            raise BadInput(f"{file} line {number} ({shown}): {exc}; nothing of the script was run") from None
        if words[:1] == ["tally"]:
            words = words[1:]
        if not words:
            continue
        line = Line(number, shown, words)
        if line.command == "script":
            raise BadInput(f"{file} line {number} ({shown}): a script cannot run another script; "
                           "nothing of the script was run")
        if not each and line.command in APART:
            raise BadInput(
                f"{file} line {number} ({shown}): `{line.command}` cannot run inside the script's one "
                f"transaction ({APART[line.command]}); run the script with --each, or that command on "
                "its own. Nothing of the script was run")
        if not each and any(w == _WRITES_FILE or w.startswith(_WRITES_FILE + "=") for w in words):
            raise BadInput(
                f"{file} line {number} ({shown}): {_WRITES_FILE} cannot be used inside the script's one "
                "transaction (the file would hold what the script has not committed, and stay if a later line "
                "is refused); run the script with --each, or that command on its own. Nothing of the script "
                "was run")
        lines.append(line)
    return lines


class Held:
    """Output held back: each piece with the stream it was written to, in order."""

    def __init__(self) -> None:
        self.pieces: list[tuple[TextIO, str]] = []

    @contextmanager
    def capture(self) -> Iterator[None]:
        with redirect_stdout(_Holding(self, sys.stdout)), redirect_stderr(_Holding(self, sys.stderr)):
            yield

    def release(self) -> None:
        for stream, text in self.pieces:
            stream.write(text)
        for stream in {id(s): s for s, _ in self.pieces}.values():
            stream.flush()
        self.pieces = []

    def drop(self) -> None:
        self.pieces = []


class _Holding(io.StringIO):
    """A stream that hands what is written to it to a Held, for ``real``; it is a
    terminal if ``real`` is one, so tables keep their colours."""

    def __init__(self, held: Held, real: TextIO) -> None:
        super().__init__()
        self.held, self.real = held, real

    def write(self, text: str) -> int:
        if not isinstance(text, str):  # as StringIO: click tells a text stream from a binary one so
            raise TypeError("a text stream")
        self.held.pieces.append((self.real, text))
        return len(text)

    def isatty(self) -> bool:
        return self.real.isatty()

    @property
    def encoding(self) -> str:
        return getattr(self.real, "encoding", None) or "utf-8"


def _run(command, line: Line, shared: Options) -> tuple[int, str]:
    """Run one line with the script's options: its exit status, and the refusal the
    error boundary handed back when it failed (the script reports it itself)."""
    shared.refusal, shared.hand_back = None, True
    try:
        result = command.main(line.words, prog_name="tally", standalone_mode=False, obj=shared)
    except typer.TyperException as exc:  # a usage error: the line is not a command as written
        return exc.exit_code, exc.format_message().rstrip(".")
    except typer.Abort:
        return 1, "aborted"
    finally:
        shared.hand_back = False
    code = result if isinstance(result, int) else 0
    return code, shared.refusal.message if code and shared.refusal is not None else f"exit status {code}"


def _quote(raw: str, limit: int = 80) -> str:
    text = "".join(c if c.isprintable() else "?" for c in raw.strip())
    return text if len(text) <= limit else text[:limit - 1] + "…"
