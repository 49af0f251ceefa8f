"""The files of a results directory: ownership, the writer lock, safe writes.

A results directory is robomaze's own: :func:`claim` creates it (or accepts
an empty one, or one a sweep wrote before) and records a *manifest*
(``DIR/.robomaze-results.json``) listing every file robomaze wrote there.
Three rules keep a sweep or a report from destroying data:

- **one writer at a time**: :class:`DirLock` takes an exclusive
  ``fcntl.flock`` on ``DIR/.robomaze.lock`` and writes the holder (pid,
  command, start time) into it; a second writer gets a
  :class:`~robomaze.errors.ResultsDirError` naming the holder. The lock is
  released by the kernel when its holder dies, so a killed sweep never
  leaves a stale lock behind.
- **nothing outside DIR, never through a link**: DIR itself must not be a
  symbolic link, nor lead through one that someone other than you or root
  created (:func:`check_not_linked`); :func:`target` refuses a
  relative name that leaves the directory and any symbolic link on the way;
  :func:`write_file` writes a temporary file beside the target and renames
  it over (atomic; a renamed file replaces a link entry, never its target).
- **delete only what robomaze wrote**: :func:`remove_stale` deletes only
  files listed in the manifest.

>>> import tempfile
>>> d = claim(Path(tempfile.mkdtemp()) / "out")
>>> with DirLock(d, "doctest"):
...     _ = write_file(d, "notes/a.txt", "hello")
>>> sorted(Manifest.load(d).files)
['notes/a.txt']
>>> safe_name("../../etc/passwd")
'etc_passwd-936d7c'
"""

from __future__ import annotations

import datetime as _dt
import errno
import fcntl
import json
import os
import stat
import sys
import tempfile
from pathlib import Path, PurePosixPath
from typing import Callable, Iterable

from .. import _readfile
from .._validate import safe_name  # noqa: F401  (re-exported: report names go through it)
from ..errors import ResultsDirError

__all__ = ["claim", "owned", "DirLock", "Manifest", "target", "write_file", "remove_stale",
           "safe_name", "MANIFEST_NAME", "LOCK_NAME", "file_problem", "read_regular",
           "check_not_linked"]

MANIFEST_NAME = ".robomaze-results.json"
LOCK_NAME = ".robomaze.lock"
_FORMAT = "robomaze.results"
_LEGACY = "results.jsonl"  # directories written before manifests existed hold this


def file_problem(path: str | os.PathLike) -> str | None:
    """Why ``path`` cannot be read as a file: ``"no such file"``, ``"is a FIFO
    (named pipe); expected a regular file"``, too large..., or None when it is
    a regular file (:func:`robomaze._readfile.file_problem`).

    >>> file_problem("/dev/zero")
    'is a character device; expected a regular file'
    """
    return _readfile.file_problem(path)


def read_regular(path: str | os.PathLike, error: type = ResultsDirError) -> bytes:
    """The bytes of ``path``, which must be a regular file within the size limit.

    :func:`robomaze._readfile.read_guarded`: a FIFO, a device or a directory
    is refused before ``open()`` (which would block on a FIFO for ever, or
    read ``/dev/zero`` until memory runs out); the file is opened
    non-blocking and checked again on its descriptor, so one swapped in
    between cannot block either. Raises ``error`` naming the file and the
    problem.
    """
    return _readfile.read_guarded(path, error)


def check_not_linked(directory: str | os.PathLike) -> None:
    """Refuse a results directory that is a symbolic link, or whose path goes
    through a link owned by someone other than this user or root.

    A link there would send the results, manifest and lock elsewhere (into a
    folder someone else chose); links owned by you or root (``/var/run``
    style system links, your own shortcuts) are yours to trust.
    """
    d = Path(directory)
    if d.is_symlink():
        raise ResultsDirError(f"{d}: is a symbolic link (to {os.readlink(d)!r}); robomaze "
                              "writes results only into a real directory: give the "
                              "directory itself, or a new one")
    trusted = {0, os.geteuid()}
    path = Path(os.path.abspath(d))
    for part in [*reversed(path.parents), path]:
        try:
            st = os.lstat(part)
        except OSError:
            break                               # the rest does not exist yet
        if stat.S_ISLNK(st.st_mode) and st.st_uid not in trusted:
            raise ResultsDirError(
                f"{d}: its path goes through the symbolic link {str(part)!r} (to "
                f"{os.readlink(part)!r}), owned by user id {st.st_uid}, not by you or root; "
                "robomaze does not write results through another user's link")


def _is_dir(p: Path) -> bool:
    return p.is_dir() and not p.is_symlink()


def owned(directory: str | os.PathLike) -> bool:
    """Whether robomaze wrote this directory (a manifest, or an older sweep's results)."""
    d = Path(directory)
    for name in (MANIFEST_NAME, _LEGACY):
        p = d / name
        if p.is_file() and not p.is_symlink():
            return True
    return False


def claim(directory: str | os.PathLike) -> Path:
    """Create a results directory, or check an existing one is robomaze's.

    Accepted: a path that does not exist (created), an empty directory, or a
    directory robomaze wrote (:func:`owned`). Refused, before anything is
    written: an existing file (``-o results.jsonl``), a ``.jsonl`` name, a
    directory holding other files.
    """
    d = Path(directory)
    check_not_linked(d)
    if d.suffix == ".jsonl":
        raise ResultsDirError(f"{d}: the output must be a directory (robomaze writes "
                              f"results.jsonl and the report inside it), not a .jsonl file name")
    if d.exists() and not d.is_dir():
        raise ResultsDirError(f"{d}: is an existing file, not a directory; robomaze writes "
                              "its results into a directory it creates or already owns and "
                              "never overwrites other files")
    if d.exists():
        if not owned(d):
            if any(p.name not in (LOCK_NAME, MANIFEST_NAME) for p in d.iterdir()):
                raise ResultsDirError(
                    f"{d}: holds files robomaze did not write (no {MANIFEST_NAME}, no "
                    f"{_LEGACY}); choose a new or empty directory")
    else:
        d.mkdir(parents=True)
    if not (d / MANIFEST_NAME).exists():
        Manifest(d).save()
    return d


class Manifest:
    """The list of files robomaze wrote in a results directory (relative paths)."""

    def __init__(self, directory: Path, files: Iterable[str] = ()) -> None:
        self.directory = Path(directory)
        self.files: set[str] = set(files)

    @classmethod
    def load(cls, directory: str | os.PathLike) -> "Manifest":
        """The manifest of ``directory`` (empty when there is none or it is unreadable)."""
        d = Path(directory)
        p = d / MANIFEST_NAME
        files: list = []
        if p.is_file() and not p.is_symlink():
            try:
                data = json.loads(read_regular(p, OSError).decode("utf-8"))
                if isinstance(data, dict) and isinstance(data.get("files"), list):
                    files = [f for f in data["files"] if isinstance(f, str) and _relative(f)]
            except (OSError, ValueError, RecursionError):
                files = []  # a damaged manifest only means fewer files count as ours
        return cls(d, files)

    def add(self, rel: str) -> None:
        self.files.add(rel)

    def save(self) -> None:
        text = json.dumps({"format": _FORMAT, "version": 1, "files": sorted(self.files)},
                          indent=1) + "\n"
        replace_file(target(self.directory, MANIFEST_NAME), text)


def _relative(rel: str) -> bool:
    p = PurePosixPath(rel)
    return bool(p.parts) and not p.is_absolute() and ".." not in p.parts and "\\" not in rel


def target(directory: str | os.PathLike, rel: str) -> Path:
    """``DIR/rel``, its folders created, after checking it stays inside ``DIR``
    and that no folder on the way and not the file itself is a symbolic link."""
    d = Path(directory)
    if not _relative(rel):
        raise ResultsDirError(f"{d}: refusing to write {rel!r}: outside the results directory")
    parts = PurePosixPath(rel).parts
    cur = d
    for part in parts[:-1]:
        cur = cur / part
        if cur.is_symlink():
            raise ResultsDirError(f"{cur}: is a symbolic link; robomaze writes only inside its "
                                  "results directory and never through links (remove the link)")
        if not cur.exists():
            try:
                cur.mkdir()
            except FileExistsError:
                # another worker of the sweep made it between the check and here;
                # it must still be a real folder (the checks below and above)
                if cur.is_symlink():
                    raise ResultsDirError(f"{cur}: is a symbolic link; robomaze writes only "
                                          "inside its results directory and never through "
                                          "links (remove the link)") from None
        if not cur.is_dir():
            raise ResultsDirError(f"{cur}: expected a folder robomaze writes into, found a file")
    out = cur / parts[-1]
    if out.is_symlink() or (out.exists() and not out.is_file()):
        raise ResultsDirError(f"{out}: is a symbolic link or not a regular file; robomaze "
                              "replaces only regular files it writes (remove it)")
    return out


def replace_file(out: Path, data: str | bytes | Callable[[Path], object]) -> None:
    """Write ``out`` atomically: a fresh temporary file beside it (never a fixed
    name a link could sit on), fsync'd, then renamed over ``out``; ``data`` is
    the content or a function that writes the temporary path."""
    fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=".tmp-", suffix=out.suffix)
    try:
        os.fchmod(fd, file_mode())  # mkstemp's 0600 would hide results from the group
        if callable(data):
            os.close(fd)
            data(Path(tmp))
            with open(tmp, "rb+") as fh:
                os.fsync(fh.fileno())
        else:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data.encode("utf-8") if isinstance(data, str) else data)
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, out)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def file_mode() -> int:
    """``0o666`` less the umask: the mode ``open()`` would give a new file."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def write_file(directory: str | os.PathLike, rel: str,
               data: str | bytes | Callable[[Path], object],
               manifest: Manifest | None = None) -> Path:
    """Write ``DIR/rel`` atomically (text, bytes, or ``data(tmp_path)`` writing a file).

    The name is recorded in ``manifest`` (saved by the caller) or, without
    one, in the directory's manifest at once.
    """
    out = target(directory, rel)
    replace_file(out, data)
    if manifest is None:
        m = Manifest.load(directory)
        m.add(rel)
        m.save()
    else:
        manifest.add(rel)
    return out


def remove_stale(manifest: Manifest, folder: str, keep: Iterable[str]) -> list[str]:
    """Delete the files robomaze wrote under ``folder`` earlier and not in ``keep``.

    Only manifest entries are candidates, each deleted only if it is still a
    regular file reached without a symbolic link.
    """
    keep = set(keep)
    removed = []
    for rel in sorted(manifest.files):
        if not rel.startswith(folder.rstrip("/") + "/") or rel in keep:
            continue
        try:
            p = target(manifest.directory, rel)
        except ResultsDirError:
            continue  # a link or a folder in the way: not ours to delete through
        if p.is_file():
            p.unlink()
        manifest.files.discard(rel)
        removed.append(rel)
    return removed


class DirLock:
    """Exclusive writer lock of a results directory (``with DirLock(d, "bench"):``).

    Non-blocking: when another process holds it, raise
    :class:`~robomaze.errors.ResultsDirError` naming that process.
    """

    def __init__(self, directory: str | os.PathLike, purpose: str = "") -> None:
        self.directory = Path(directory)
        self.purpose = purpose
        self._fd: int | None = None

    def __enter__(self) -> "DirLock":
        check_not_linked(self.directory)
        path = self.directory / LOCK_NAME
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise ResultsDirError(f"{path}: is a symbolic link; remove it") from None
            raise ResultsDirError(f"{path}: cannot open the lock file: {exc.strerror}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            raise ResultsDirError(
                f"{self.directory}: another robomaze process is writing here ({holder}); "
                "wait for it to finish or stop it, or use another directory") from None
        except BaseException:
            os.close(fd)
            raise
        info = {"pid": os.getpid(), "command": " ".join([os.path.basename(sys.argv[0] or "python"),
                                                         *sys.argv[1:]])[:300],
                "purpose": self.purpose,
                "started": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")}
        os.ftruncate(fd, 0)
        os.pwrite(fd, (json.dumps(info) + "\n").encode(), 0)
        self._fd = fd
        return self

    def __exit__(self, *exc) -> None:
        if self._fd is not None:
            try:
                os.ftruncate(self._fd, 0)
            finally:
                os.close(self._fd)  # closing the last descriptor releases the flock
                self._fd = None


def _holder(fd: int) -> str:
    try:
        data = json.loads(os.pread(fd, 4096, 0).decode("utf-8", "replace") or "{}")
        return (f"pid {data.get('pid', '?')}, {data.get('purpose') or 'writer'} started "
                f"{data.get('started', '?')}, command {data.get('command', '?')!r}")
    except (OSError, ValueError, AttributeError):
        return "holder unknown: it has not written its name yet"
