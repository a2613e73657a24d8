"""Writing a file the user asked for (an export, a generated campaign): all
of it or none of it, never over an existing file without --force, and never
through a symbolic link or onto a device, a pipe or a folder.

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
from typing import Iterator, Optional, TextIO

from ledger.errors import BadInput


def check_target(path: str, *, force: bool = False) -> Optional[os.stat_result]:
    """Refuse a target that may not be written; the existing regular file's
    status (to be replaced: ``force`` was given), or None for a new file."""
    if not path or path.endswith(os.sep):
        raise BadInput(f"cannot write {path!r}: give a file name, not a folder")
    if "\x00" in path:  # the OS calls below would raise ValueError, not OSError
        raise BadInput(f"cannot write {path!r}: not a file name")
    try:  # a lone surrogate (from bytes that were never text) has no bytes to name a file by
        os.fsencode(path)
    except UnicodeEncodeError:
        raise BadInput(f"cannot write {path!r}: not a file name this system can store") from None
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise BadInput(f"cannot write {path}: the folder {folder} does not exist")
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
def writing(path: str, *, force: bool = False, mode: Optional[int] = None) -> Iterator[TextIO]:
    """A text handle whose content becomes ``path`` when the block ends
    without error. ``mode``: the file's permissions; by default those of the
    file it replaces, or for a new file what the umask gives (0666 & ~umask)."""
    existing = check_target(path, force=force)
    if mode is None:
        mode = stat.S_IMODE(existing.st_mode) if existing else 0o666 & ~_umask()
    folder = os.path.dirname(os.path.abspath(path))
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
        _put_in_place(temporary, path, force=force)
        _sync_folder(folder)
    except OSError as exc:
        raise BadInput(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        with suppress(FileNotFoundError):
            os.unlink(temporary)


def _put_in_place(temporary: str, path: str, *, force: bool) -> None:
    """Rename the finished file over the target, checking the target once
    more: it may have changed while the content was written."""
    if not force:
        # A hard link fails if the name exists: no file that appeared meanwhile is overwritten.
        try:
            os.link(temporary, path)
            return
        except FileExistsError:
            check_target(path, force=False)  # says what is there now
            raise
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
                raise
            # a file system without hard links: check again, then rename
    check_target(path, force=force)
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
