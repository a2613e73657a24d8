"""Where signing keys live: in files of their own, never in the database.

The referee's checkpoint key signs for the log; whoever holds it can sign a
checkpoint of any history, so it is kept apart from the events, like the dice
secrets: beside a SQLite ledger in ``<database>.key`` (``tally.db`` ->
``tally.db.key``), or wherever ``--key-file`` or ``TALLY_KEY_FILE`` says
(which a PostgreSQL ledger needs: a server has no folder beside it). A
witness's key is the player's own, in the file they name. Key files are
created 0600 and refused while others may read them. Each holds one line in
the signer-key format Go's golang.org/x/mod/sumdb/note reads
(``PRIVATE+KEY+name+keyid+base64``).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Optional

from ledger.beside import KEY_ENV, KEY_SUFFIX
from ledger.errors import BadInput, NotFound
from ledger.files import writing
from ledger.notes import Signer, parse_skey

ENV, SUFFIX = KEY_ENV, KEY_SUFFIX


def referee_key_path(engine, given: Optional[str] = None) -> Path:
    """The referee's key file for the ledger on ``engine``: --key-file, else
    TALLY_KEY_FILE, else beside a SQLite ledger."""
    chosen = given or os.environ.get(ENV)
    if chosen:
        return Path(chosen).expanduser().absolute()
    if engine.dialect.name == "sqlite":
        return Path(f"{Path(engine.url.database).absolute()}{SUFFIX}")
    raise BadInput(f"a PostgreSQL ledger has no folder to keep its signing key in: name a file with "
                   f"--key-file PATH or {ENV}=PATH (kept private to you, never in the database)")


def key_file_exists(path: Path) -> bool:
    """Whether a key file is already there; a path no file can have (too long,
    a NUL, a lone surrogate) is refused on one line."""
    try:
        return path.exists()
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or "not a file name"
        raise BadInput(f"cannot use {str(path)[:200]!r} as a key file: {reason}") from None


def write_key(path: Path, signer: Signer) -> None:
    """A new key file, mode 0600, written whole or not at all; never over an existing file."""
    with writing(str(path), mode=0o600) as out:
        out.write(signer.skey + "\n")


def read_key(path: Path, what: str = "the signing key file") -> Signer:
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise NotFound(f"{what} {path} does not exist (`tally keys new` makes the referee's; "
                       f"--key-file or {ENV} names another)") from None
    except OSError as exc:
        raise BadInput(f"cannot read {what} {path}: {exc.strerror}") from None
    except ValueError:  # a NUL or a lone surrogate: no file can have that name
        raise BadInput(f"cannot read {what} {str(path)!r}: not a file name") from None
    if not stat.S_ISREG(info.st_mode):
        raise BadInput(f"{what} {path} is not a regular file")
    if stat.S_IMODE(info.st_mode) & 0o077:
        raise BadInput(f"{what} {path} can be read or written by others (mode {stat.S_IMODE(info.st_mode):04o}), "
                       f"so they could sign in your name: run `chmod 600 {path}` and try again")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"cannot read {what} {path}: {getattr(exc, 'strerror', None) or exc}") from None
    return parse_skey(text, f"{what} {path}")
