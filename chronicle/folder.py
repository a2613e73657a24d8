"""The folder `tally chronicle --out DIR` writes: which folders it may
take, and how a new site replaces the old one whole.

The site is built in a staging folder beside the target (``.chronicle-…``,
on the same file system), then put in place by one rename: onto a new or
empty folder a plain rename, over an earlier site an exchange of the two
folders (Linux's renameat2 RENAME_EXCHANGE), after which the old site,
now under the staging name, is removed. A kill at any moment leaves the
old site or the new one at DIR, and at most a staging folder beside it,
which the next build removes. (Where the exchange is not available the
old site is moved aside first: a kill between the two renames leaves no
site at DIR until the next build.)

--force replaces only a folder tally made: each site carries a marker file,
``.tally-chronicle``, written first into its staging folder. A staging
folder's name holds the number of the process building it, so the next
build removes only those of builds no longer running."""

from __future__ import annotations

import ctypes
import errno
import json
import os
import stat
import tempfile
from contextlib import suppress
from pathlib import Path
from typing import Iterable

from ledger.errors import BadInput

MARKER = ".tally-chronicle"
STAGING = ".chronicle-"
_RENAME_EXCHANGE = 2  # linux/fs.h
_AT_FDCWD = -100


def ledger_files(store) -> list[Path]:
    """The ledger's own files, which no chronicle may be written over: a SQLite ledger,
    its journal files, its secrets file (and its journals), and the referee's key file."""
    from ledger import keys

    found: list[Path] = []
    if store.engine.dialect.name == "sqlite":
        database = Path(store.engine.url.database).absolute()
        secrets = Path(store.secrets.path)
        found += [Path(f"{f}{suffix}") for f in (database, secrets) for suffix in ("", "-wal", "-shm", "-journal")]
    try:
        found.append(keys.referee_key_path(store.engine))
    except BadInput:  # a PostgreSQL ledger without TALLY_KEY_FILE keeps no key file we know of
        pass
    return found


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def check_out(out: str, force: bool, ledger: Iterable[Path] = ()) -> Path:
    """The folder to write, or a refusal: a file, a link, the file system's root, a folder
    holding the ledger's own files, a folder tally did not make that is not empty (even with
    --force), or an earlier chronicle without --force."""
    if not out.strip() or not out.isprintable() or not _encodable(out):
        raise BadInput(f"--out {out!r} is not a folder path (blank, control characters or not UTF-8): "
                       "give a new or empty folder")
    try:
        path = Path(out).absolute()
        if path.is_symlink():
            raise BadInput(f"{out} is a symbolic link: give the chronicle's folder itself")
        if path.exists() and not path.is_dir():
            raise BadInput(f"{out} is a file, not a folder: give --out a new or empty folder")
        if path.parent == path:
            raise BadInput(f"{out} is the filesystem's root: give the chronicle a folder of its own")
        if not path.parent.is_dir():
            raise BadInput(f"the folder {str(path.parent)!r} does not exist: create it first")
        real = _real(path)
        for own in ledger:
            mine = _real(own)
            if mine == real or real in mine.parents:
                raise BadInput(f"{out} holds the ledger's own file {own.name}: the chronicle would replace it; "
                               "give the chronicle a folder of its own")
        if path.is_dir() and any(path.iterdir()):
            if not (path / MARKER).is_file():
                raise BadInput(f"{out} is not empty and is no chronicle tally wrote (it has no {MARKER}): give "
                               "an empty or new folder; --force replaces only a chronicle tally wrote")
            if not force:
                raise BadInput(f"{out} holds a chronicle written before: give --force to replace it, "
                               "or an empty or new folder")
    except (OSError, ValueError) as exc:
        raise BadInput(f"cannot write the chronicle to {out!r}: "
                       f"{getattr(exc, 'strerror', None) or 'not a usable path'}") from None
    return path


def _running(folder: Path) -> bool:
    """Whether the build that made a staging folder (its name holds the builder's process
    number: after an exchange, the old site it holds goes with that name) is still running."""
    number = folder.name[len(STAGING):].split("-", 1)[0]
    if not number.isdigit():
        return False
    pid = int(number)
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):
        return True  # some process has that number: leave its folder be
    return True


def remove_stale(target: Path) -> list[str]:
    """Remove the staging folders beside ``target`` that killed builds left: marked ones
    (or empty ones) whose builder is no longer running. Their names."""
    removed = []
    for folder in target.parent.glob(STAGING + "*"):
        if folder.is_symlink() or not folder.is_dir() or _running(folder):
            continue
        try:
            if (folder / MARKER).is_file():
                remove(folder)
            else:
                folder.rmdir()  # killed before its marker was written: empty
        except OSError:
            continue  # unmarked and not empty (not ours), or not ours to remove: left as it is
        removed.append(folder.name)
    return removed


def staging(target: Path, campaign: str) -> Path:
    """A new staging folder beside ``target``, named for this process and marked as tally's."""
    folder = _new_folder(target)
    (folder / MARKER).write_text(json.dumps({"made_by": "tally chronicle", "campaign": campaign}) + "\n",
                                 encoding="utf-8")
    return folder


def _new_folder(target: Path) -> Path:
    return Path(tempfile.mkdtemp(prefix=f"{STAGING}{os.getpid()}-", dir=target.parent))


def remove(folder: Path) -> None:
    """Remove a marked folder, the marker last: a kill part way leaves it marked, for the next build."""
    for item in folder.iterdir():
        if item.name == MARKER:
            continue
        if item.is_dir() and not item.is_symlink():
            _remove_tree(item)
        else:
            item.unlink()
    (folder / MARKER).unlink(missing_ok=True)
    folder.rmdir()


def discard(folder: Path) -> None:
    """Remove a marked folder if it is there, as far as it can be: what is left, the next build removes."""
    if folder.exists():
        with suppress(OSError):
            remove(folder)


def _remove_tree(folder: Path) -> None:
    import shutil

    shutil.rmtree(folder)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders' names in one step; False where the system cannot."""
    renameat2 = getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)
    if renameat2 is None:
        return False
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def put_in_place(folder: Path, target: Path) -> None:
    """Make the finished staging ``folder`` the site at ``target`` in one rename, and remove the old site."""
    # mkdtemp made it private; the site gets the mode of the folder it replaces, or what the umask gives
    os.chmod(folder, stat.S_IMODE(target.stat().st_mode) if target.exists() else 0o777 & ~_umask())
    if not target.exists() or not any(target.iterdir()):
        os.rename(folder, target)  # over an empty folder too: rename replaces it whole
    elif _exchange(folder, target):
        discard(folder)  # the old site, under the staging name
    else:
        aside = _new_folder(target)
        os.rename(target, aside)  # replaces the empty folder just made
        os.rename(folder, target)
        discard(aside)
    _sync(target.parent)


def _sync(folder: Path) -> None:
    try:
        descriptor = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass  # a folder that cannot be synced
    finally:
        os.close(descriptor)


def _umask() -> int:
    current = os.umask(0o077)  # the only way to read it is to set it
    os.umask(current)
    return current
