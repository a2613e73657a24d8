"""Writing a file the user asked for (an export, a generated campaign): all
of it or none of it, never over an existing file without --force, never
through a symbolic link or onto a device, a pipe or a folder, and never over
the ledger's own files (its database, SQLite's journals of it, its secrets,
its signing key) or any file holding a SQLite database or a private key, even
with --force. And reading one: only a regular file, opened so that a pipe or a
device named in its place can never hold the command up.

The content goes to a temporary file in the target's folder (created 0600,
so nobody reads it half-written), which is flushed and fsync'ed, given the
target's mode, renamed over the target with os.replace, and the folder is
fsync'ed so the rename itself survives a power cut. On any refusal or error
the temporary file is removed and the target is as it was.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO, Iterator, Optional, TextIO

from ledger.beside import KEY_ENV, KEY_SUFFIX, SECRETS_SUFFIX
from ledger.errors import BadInput

# SQLite's files beside a database while it is written: its write-ahead log, the
# log's shared-memory index, the rollback journal. A stray one is read as the
# database's own: replacing or planting one loses or corrupts committed data.
_JOURNALS = {"-wal": "write-ahead log", "-shm": "shared-memory index", "-journal": "rollback journal"}
# What a file begins with, for the files whose loss cannot be undone wherever they are.
_KEY_MAGIC = b"PRIVATE+KEY+"
_PRECIOUS_CONTENT = ((b"SQLite format 3\x00", "a SQLite database (a ledger, or a ledger's secrets)"),
                     (_KEY_MAGIC, "a private signing key"))


def ledger_files(url: Optional[str], *, key_file: Optional[str] = None, keys: bool = True) -> dict[Path, str]:
    """The ledger's own files for the ledger at ``url``, each with what it is:
    on SQLite the database, its secrets file (the unrevealed dice seeds) and
    SQLite's journals of both, and the signing key beside it; on any backend
    the signing key TALLY_KEY_FILE or ``key_file`` names; none for no ``url``. ``keys=False``
    leaves the key files out (for writing the key itself). Paths are absolute,
    not yet resolved."""
    found: dict[Path, str] = {}
    if url is None:  # no ledger in use: none of its files to keep
        return found
    database = _sqlite_database(url)
    if database is not None:
        for base, what in ((database, "this ledger's database"),
                           (Path(f"{database}{SECRETS_SUFFIX}"), "this ledger's secrets file")):
            found[base] = what
            for suffix, journal in _JOURNALS.items():
                found[Path(f"{base}{suffix}")] = f"the {journal} of {what}"
        if keys:
            found[Path(f"{database}{KEY_SUFFIX}")] = "this ledger's signing key"
    if keys:
        for named in (os.environ.get(KEY_ENV), key_file):
            if named:
                with suppress(ValueError, OSError, RuntimeError):  # a name no file can have guards nothing
                    found[Path(named).expanduser().absolute()] = "this ledger's signing key"
    return found


def _sqlite_database(url: Optional[str]) -> Optional[Path]:
    if not url or not url.startswith("sqlite"):
        return None
    try:
        import sqlalchemy as sa

        database = sa.engine.make_url(url).database
    except Exception:  # not a URL SQLAlchemy reads: no store was opened on it either
        return None
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database).expanduser().absolute()


def refuse_ledger_file(path: str, url: Optional[str], *, key_file: Optional[str] = None, keys: bool = True,
                       content: bool = True) -> None:
    """Refuse ``path`` if it is one of the ledger's own files (ledger_files), by
    its resolved real path (links, ``..``) and, where both exist, as the same
    file (a hard link); or if it holds a SQLite database or (unless
    ``keys=False``, for writing the key itself) a private key; ``content=False``
    leaves what the file holds to the writer, which replaces no file without
    --force anyway. The chronicle checks its files with this too."""
    try:
        real = os.path.realpath(path)
        status = os.stat(real)
    except FileNotFoundError:
        status = None
    except (OSError, ValueError):
        return  # a name no file can have: check_target says why
    for own, what in ledger_files(url, key_file=key_file, keys=keys).items():
        try:
            same = os.path.realpath(own) == real or (status is not None and _same_file(status, own))
        except (OSError, ValueError):
            continue
        if same:
            raise BadInput(f"{path} is {what} ({own}): tally never writes over the ledger's own files, "
                           "even with --force (its events, dice seeds or signing key would be lost); "
                           "choose another file name")
    if content and status is not None and stat.S_ISREG(status.st_mode):
        start = _beginning(real)
        for magic, what in _PRECIOUS_CONTENT:
            if start.startswith(magic) and (keys or magic != _KEY_MAGIC):
                raise BadInput(f"{path} holds {what}: tally never writes over one, even with --force; "
                               "choose another file name")


def _same_file(status: os.stat_result, other: Path) -> bool:
    try:
        theirs = os.stat(other)
    except FileNotFoundError:
        return False
    return (status.st_dev, status.st_ino) == (theirs.st_dev, theirs.st_ino)


def _beginning(path: str) -> bytes:
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return b""  # unreadable to us: its content cannot be judged, the rest of the checks stand
    try:
        return os.read(descriptor, 16)
    except OSError:
        return b""
    finally:
        os.close(descriptor)


def check_target(path: str, *, force: bool = False, ledger: Optional[str] = None,
                 key_file: Optional[str] = None) -> Optional[os.stat_result]:
    """Refuse a target that may not be written; the existing regular file's
    status (to be replaced: ``force`` was given), or None for a new file.
    ``ledger``: the URL of the ledger in use, whose own files are refused
    (refuse_ledger_file), as is any file holding a SQLite database or a key."""
    if not path or path.endswith(os.sep):
        raise BadInput(f"cannot write {path!r}: give a file name, not a folder")
    if "\x00" in path:  # the OS calls below would raise ValueError, not OSError
        raise BadInput(f"cannot write {path!r}: not a file name")
    try:  # a lone surrogate (from bytes that were never text) has no bytes to name a file by
        os.fsencode(path)
    except UnicodeEncodeError:
        raise BadInput(f"cannot write {path!r}: not a file name this system can store") from None
    folder = os.path.realpath(os.path.dirname(path) or ".")  # as the OS walks it: a link, then its ..
    if not os.path.isdir(folder):
        raise BadInput(f"cannot write {path}: the folder {folder} does not exist")
    refuse_ledger_file(path, ledger, key_file=key_file, content=force)
    try:
        existing = os.lstat(path)  # the link itself, never what it points at
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise BadInput(f"cannot write {path}: {exc.strerror}") from None
    if stat.S_ISLNK(existing.st_mode):
        raise BadInput(f"{path} is a symbolic link: tally does not write through links, "
                       "even with --force; give the real path or a new file name")
    if stat.S_ISDIR(existing.st_mode):
        raise BadInput(f"{path} is a folder: give a file name inside it")
    if not stat.S_ISREG(existing.st_mode):
        raise BadInput(f"{path} is not a regular file (a device, pipe or socket): tally writes only "
                       "regular files, even with --force")
    if not force:
        raise BadInput(f"{path} exists: choose another file name, or pass --force to replace it")
    return existing


@contextmanager
def writing(path: str, *, force: bool = False, mode: Optional[int] = None, ledger: Optional[str] = None,
            key_file: Optional[str] = None) -> Iterator[TextIO]:
    """A text handle whose content becomes ``path`` when the block ends
    without error. ``mode``: the file's permissions; by default those of the
    file it replaces, or for a new file what the umask gives (0666 & ~umask).
    ``ledger``: the URL of the ledger in use, whose own files are never
    written (check_target); every command passes it."""
    existing = check_target(path, force=force, ledger=ledger, key_file=key_file)
    if mode is None:
        mode = stat.S_IMODE(existing.st_mode) if existing else 0o666 & ~_umask()
    folder = os.path.realpath(os.path.dirname(path) or ".")  # as the OS walks it: a link, then its ..
    try:
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".partial")
    except OSError as exc:
        raise BadInput(f"cannot write {path}: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
            os.fchmod(handle.fileno(), mode)
        _put_in_place(temporary, path, force=force, ledger=ledger, key_file=key_file)
        _sync_folder(folder)
    except OSError as exc:
        raise BadInput(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        with suppress(FileNotFoundError):
            os.unlink(temporary)


def _put_in_place(temporary: str, path: str, *, force: bool, ledger: Optional[str],
                  key_file: Optional[str]) -> None:
    """Rename the finished file over the target, checking the target once
    more: it may have changed while the content was written."""
    if not force:
        # A hard link fails if the name exists: no file that appeared meanwhile is overwritten.
        try:
            os.link(temporary, path)
            return
        except FileExistsError:
            check_target(path, force=False, ledger=ledger, key_file=key_file)  # says what is there now
            raise
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
                raise
            # a file system without hard links: check again, then rename
    check_target(path, force=force, ledger=ledger, key_file=key_file)
    os.replace(temporary, path)  # replaces the name; a link there would be replaced, never followed


def _sync_folder(folder: str) -> None:
    descriptor = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(descriptor)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):  # folders that cannot be synced
            raise
    finally:
        os.close(descriptor)


def _umask() -> int:
    current = os.umask(0o077)  # the only way to read it is to set it
    os.umask(current)
    return current


def open_regular(path: str, what: str) -> BinaryIO:
    """``path`` opened to read, if it is a regular file (a link to one is
    followed); a folder, a pipe, a socket or a device is refused before it is
    opened, and opened without waiting, so a pipe put in its place meanwhile
    cannot hold the command up either."""
    def refuse(reason: str) -> BadInput:
        return BadInput(f"cannot read {what} {path}: {reason}")

    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise refuse(_not_regular(os.stat(path).st_mode))
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise refuse(exc.strerror or str(exc)) from None
    except ValueError:  # a NUL, or a lone surrogate: no file has that name
        raise BadInput(f"cannot read {what} {path!r}: not a file name") from None
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            raise refuse(_not_regular(mode))
        os.set_blocking(descriptor, True)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


def read_regular(path: str, what: str, limit: int) -> bytes:
    """The bytes of a regular file (open_regular) of at most ``limit`` bytes."""
    with open_regular(path, what) as handle:
        try:
            data = handle.read(limit + 1)
        except OSError as exc:
            raise BadInput(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise BadInput(f"{what} {path} is larger than {_size(limit)}: tally reads at most that much from one file")
    return data


def _not_regular(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "it is a folder, not a file"
    return "not a regular file (a device, pipe or socket): tally reads only regular files"


def _size(count: int) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if count < 1024 or unit == "GiB":
            return f"{count:,} {unit}" if unit == "bytes" else f"{count:g} {unit}"
        count /= 1024
    return f"{count} GiB"
