"""One error hierarchy for everything a user can get wrong.

Every message is one line that says what is wrong and what to do. The
command line prints it and exits 1; nothing has been written when one of
these is raised inside a command.
"""


class TallyError(Exception):
    """Base class: a refusal the user can act on."""


class BadInput(TallyError):
    """The input itself is malformed (a date, an expression, a file)."""


class RuleRefused(TallyError):
    """The input is well formed but the rules (or the ledger) forbid it."""


class NotFound(TallyError):
    """A campaign, event or other named thing does not exist."""


class ConcurrencyConflict(TallyError):
    """An append named a stream version that is no longer current."""

    def __init__(self, stream: str, expected: int, actual: int):
        self.stream, self.expected, self.actual = stream, expected, actual
        super().__init__(
            f"stream {stream} is at version {actual}, not {expected}: someone "
            "recorded to it first; read the state again and retry"
        )


class StoreError(TallyError):
    """The database cannot be opened or used."""


class ChainBroken(TallyError):
    """The hash chain does not verify."""

    def __init__(self, position: int, reason: str):
        self.position, self.reason = position, reason
        super().__init__(f"chain broken at position {position}: {reason}")


class TreeBroken(TallyError):
    """The stored Merkle tree does not match the events it is derived from."""

    def __init__(self, level: int, index: int, problem: str):
        self.level, self.index, self.problem = level, index, problem
        super().__init__(f"the Merkle tree's node at level {level}, index {index} {problem}: the tree is derived "
                         "from the events; `tally db tree --rebuild` recomputes it")


class CheckpointRefuted(TallyError):
    """A signed checkpoint, or a cosignature, that the log does not bear out."""


class SnapshotRefuted(TallyError):
    """A stored snapshot fails its checks or disagrees with the log (derived data: rebuild it)."""

    def __init__(self, campaign: str, position: int, problem: str):
        self.campaign, self.position, self.problem = campaign, position, problem
        super().__init__(f"the snapshot of campaign {campaign} at event {position} {problem}; snapshots are "
                         "derived data: tally db snapshot --drop rebuilds them")


class Unfoldable(Exception):
    """A fold met an event whose subject is not in the world it folds into: a
    void withdrew what the event acts on, or a fact logged late would come
    before it. Raised by the folds themselves (projections/handlers.py
    ``entry``) and by nothing else, so the late-fact check can refuse such a
    change without mistaking a bug in a fold for a rule: any other error a
    fold raises is an internal error, with its details."""


class SnapshotUnusable(Exception):
    """A stored snapshot that may not serve a query, and why. ``kind``:
    "failed" a check; "stale": sound but written for read models of another
    shape (after an upgrade of tally); "unsigned": written by a tally from
    before snapshots carried a MAC; "unkeyed": this ledger's snapshot key
    cannot be read here, so no snapshot of it can be told from a forgery."""

    def __init__(self, reason: str, *, stale: bool = False, kind: str = "") -> None:
        super().__init__(reason)
        self.reason, self.kind = reason, kind or ("stale" if stale else "failed")
        self.stale = self.kind == "stale"
