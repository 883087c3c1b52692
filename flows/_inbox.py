"""Taking files in: parse, load in one transaction, then archive or reject.

What the inbox promises a webmaster (docs/rules/inputs.md): a dropped file is loaded completely or not
at all; a file that cannot be read moves to ``inbox/rejected/`` with ``<file>.reason.txt`` saying
where it broke; the same bytes twice load nothing twice; a corrected file replaces its event.
"""

from __future__ import annotations

import contextlib
import contextvars
import datetime as dt
import hashlib
import json
import os
import re
import traceback
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from parsers import (
    LimitExceeded,
    ParseError,
    ParseResult,
    UnknownFormat,
    UnsupportedVariant,
    parse_bytes,
)
from parsers._errors import DamagedFile, EmptyFile, NoResults, UnknownBinary
from parsers._limits import check_size
from warehouse import (
    TEMP_PREFIX,
    IdentitySettings,
    Loader,
    LoadError,
    LoadReport,
    Parsed,
    Warehouse,
    WarehouseError,
    atomic_write,
    file_sha256,
    is_loaded,
)
from warehouse.files import withdrawal_of
from warehouse.review import apply_waiting, waiting_after_files

__all__ = [
    "FileOutcome", "InternalError", "Refusal", "display_name", "inbox_files", "ingest_batch",
    "ingest_file", "noting", "reason_text", "refusal", "stored_name", "warning_line",
]

Status = Literal["loaded", "correction", "duplicate", "same", "rejected"]


@dataclass(frozen=True, slots=True)
class FileOutcome:
    path: str
    status: Status
    message: str
    events: int = 0
    replaced_events: tuple[int, ...] = ()
    players_created: int = 0
    moved_to: str | None = None
    waiting: tuple[tuple[str, str], ...] = ()
    """(name as written, review item key) of names that wait for review."""
    warnings: tuple[str, ...] = ()
    """What the parser worked around while reading the file (its warnings and errors), each as
    ``message (where)``; the import report lists them per file."""
    seconds: float = 0.0
    """Time taken for the file (its share of its batch), for the run log."""
    sha256: str = ""
    """The file's bytes' SHA-256 where it was read ("" if it could not be)."""
    same_as: tuple[str, ...] = ()
    """The files already loaded whose results this one writes again (its events are stored as
    second renderings, not counted again)."""


RESERVED = frozenset({"archive", "rejected"})
"""The inbox's own folders: a dropped file of such a name is stored under another."""
MAX_STORED_BYTES = 150
"""Longest stored file name, in UTF-8 bytes (room is left for ``.reason.txt`` and a hash)."""
_SUFFIX = re.compile(r"\.[A-Za-z0-9]{1,8}$")
_UNSAFE = frozenset('/\\:*?"<>|\ufffd')


def stored_name(name: str) -> str:
    """The name a dropped file is kept under: itself when it is safe, else a safe form of it.

    Safe means: valid UTF-8 without control characters or characters other systems refuse,
    not starting with a dot or a space, not ending in ``.reason.txt``, not the name of one of
    the inbox's folders, and at most :data:`MAX_STORED_BYTES` bytes (a longer name is cut and
    gets a short hash of the original, keeping an extension of up to eight letters or digits).
    Characters that cannot be kept become ``_``; two names that meet in one safe name are told
    apart when renamed (:func:`inbox_files`)."""
    raw = os.fsencode(name)
    text = raw.decode("utf-8", "replace")
    clean = "".join("_" if c in _UNSAFE or unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co",
                                                                          "Cn", "Zl", "Zp")
                    else c for c in text).strip()
    if not clean or clean[0] == ".":
        clean = "_" + clean
    match = _SUFFIX.search(clean)
    suffix = match.group(0) if match else ""
    stem = clean[:len(clean) - len(suffix)]
    if (stem + suffix).lower().endswith(".reason.txt") or stem.lower() in RESERVED:
        stem += "_"
    if len((stem + suffix).encode("utf-8")) > MAX_STORED_BYTES:
        tag = "~" + hashlib.sha256(raw).hexdigest()[:8]
        room = MAX_STORED_BYTES - len((tag + suffix).encode("utf-8"))
        stem = stem.encode("utf-8")[:room].decode("utf-8", "ignore") + tag
    return stem + suffix


def display_name(path: Path | str) -> str:
    """A file's name as text that can be printed and stored (invalid bytes shown as ``\\xNN``)."""
    name = os.path.basename(os.fspath(path))
    return os.fsencode(name).decode("utf-8", "backslashreplace")


_DROPPED_AS: dict[str, str] = {}
"""Stored inbox path -> the name the file was dropped under, for the files this process
renamed (the names log keeps them for good)."""


def inbox_files(inbox: Path, *, names_log: Path | None = None) -> list[Path]:
    """Files waiting in the inbox, oldest first (a correction comes after what it corrects).

    Every regular file counts, whatever its name: one whose name is not safe to store
    (:func:`stored_name`: not UTF-8, too long, a dot file, a ``.reason.txt`` ending, a file
    named like the inbox's own folders) is first renamed in place, the original name written to
    ``names_log`` (one JSON line per file) before the rename. Temporary files of the project's
    own writers are not inbox files."""
    if not inbox.is_dir():
        return []
    found: list[tuple[int, str, Path]] = []
    for entry in os.scandir(inbox):
        try:
            if not entry.is_file() or entry.name.startswith(TEMP_PREFIX):
                continue
            path = Path(entry.path)
            safe = stored_name(entry.name)
            if safe != entry.name:
                path = _rename(path, safe, names_log)
            found.append((path.stat().st_mtime_ns, path.name, path))
        except OSError:  # gone meanwhile (taken by hand): nothing to take
            continue
    return [path for _, _, path in sorted(found)]


def _rename(path: Path, safe: str, names_log: Path | None) -> Path:
    target = path.with_name(safe)
    k = 1
    while target.exists():
        k += 1
        target = path.with_name(f"{Path(safe).stem}-{k}{Path(safe).suffix}")
    original = display_name(path)
    if names_log is not None:
        names_log.parent.mkdir(parents=True, exist_ok=True)
        with names_log.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps({"time": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                                 "dropped_as": original, "stored_as": target.name},
                                ensure_ascii=False) + "\n")
    os.replace(path, target)
    _DROPPED_AS[str(target)] = original
    return target


def _dropped_note(path: Path) -> str:
    original = _DROPPED_AS.get(str(path))
    return f" (dropped as {original!r}, a name that cannot be stored as it is)" if original else ""


_CORRECT = ("Correct it (or export it again from the scoring program) and drop it into the inbox "
            "again.")
_ADVICE: tuple[tuple[type[Exception], str], ...] = (
    (EmptyFile, "Export the results again from the scoring program and drop the new file into "
                "the inbox."),
    (DamagedFile, "Open it in the program that wrote it and save it again (or export it again "
                  "from the scoring program), then drop it into the inbox again."),
    (UnknownBinary, "Drop the scoring program's results export instead (clubratings parse "
                    "--list-formats lists the formats read)."),
    (NoResults, "Nothing to do: this kind of file holds no results; drop the scoring program's "
                "results export instead."),
    (LimitExceeded, "If the file is genuine, raise the limit as said and drop it into the inbox "
                    "again."),
    (UnsupportedVariant, "This variant is not read yet: drop the results exported in another "
                         "format the scoring program offers."),
)
"""Advice by kind of refusal, the first that fits (docs/rules/inputs.md "What a refusal says")."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a file was not loaded, as a webmaster reads it: what is wrong (one line), where it
    is when known (as (label, text): table, row, column, value), and what to do; no class names."""

    why: str
    where: tuple[tuple[str, str], ...]
    advice: str

    def line(self) -> str:
        """All of it on one line (the command line, the import report)."""
        text = self.why
        value = dict(self.where).get("value")
        if value is not None:
            text += f": value {value}"
        places = ", ".join(f"{label} {v}" for label, v in self.where if label != "value")
        if places:
            text += f" ({places})"
        return f"{text}. {self.advice}" if self.advice else text


def refusal(exc: Exception) -> Refusal:
    """What to tell a webmaster of a file refused for ``exc``."""
    if isinstance(exc, InternalError):
        return Refusal(_short(str(exc)), (), "This is a fault of clubratings, not of the file: "
                       "please report it together with the file; once it is fixed, drop the "
                       "file into the inbox again.")
    if not isinstance(exc, ParseError):  # the warehouse refused it (one event twice, withdrawn)
        text = _short(" ".join(str(exc).split()))
        return Refusal(text, (), "" if "clubratings files restore" in text else _CORRECT)
    where = [(label, value) for label, value in exc.location() if label != "file"]
    if exc.has_value:
        where.append(("value", _short(repr(exc.value))))
    advice = next((text for kind, text in _ADVICE if isinstance(exc, kind)), None)
    if advice is None and isinstance(exc, UnknownFormat) and "looks most like" not in exc.problem:
        advice = ("If it does hold results, export them from the scoring program in one of "
                  "those formats and drop that file into the inbox.")
    return Refusal(_short(exc.problem), tuple(where), advice or _CORRECT)


def reason_text(path: Path, exc: Exception) -> str:
    """The plain-language reason written next to a rejected file: a first line saying why it was
    not loaded, then where (when known), then what to do, each once."""
    said = refusal(exc)
    lines = [f"{display_name(path)}: not loaded: {said.why}"]
    if str(path) in _DROPPED_AS:
        lines.append(f"dropped as: {_DROPPED_AS[str(path)]}")
    lines += [f"{label}: {value}" for label, value in said.where]
    if said.advice:
        lines += ["", said.advice]
    return "\n".join(lines) + "\n"


def _short(text: str, limit: int = 500) -> str:
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


class InternalError(Exception):
    """A reader or the loader failed on a file in a way it did not foresee: a fault of the
    program, reported as such; the file is rejected and the run goes on."""


def internal_error(path: Path, exc: BaseException, log: Path | None) -> InternalError:
    """The rejection of ``path`` for an unforeseen ``exc``; the traceback goes to ``log``."""
    where = ""
    if log is not None:
        log.parent.mkdir(parents=True, exist_ok=True)
        stamp = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        with log.open("a", encoding="utf-8") as fh:
            fh.write(f"--- {stamp} internal error while reading {display_name(path)}\n")
            fh.write("".join(traceback.format_exception(exc)))
        where = f"; the details are in {log}"
    return InternalError(
        f"internal error while reading {display_name(path)} "
        f"({_short(' '.join(str(exc).split()), 200) or 'no message'}){where}")


def _digest(path: Path) -> str:
    """SHA-256 of a file read in pieces (a file refused for its size is never read whole)."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _target(folder: Path, src: Path) -> Path:
    """Where ``src`` goes in ``folder``: its own name, unless another file of other bytes
    already has it (then the name with a hash of the bytes)."""
    target = folder / src.name
    if not target.exists():
        return target
    if target.is_file() and target.stat().st_size == src.stat().st_size \
            and _digest(target) == _digest(src):
        return target
    stem, suffix = os.path.splitext(src.name)
    return folder / f"{stem}.{_digest(src)[:10]}{suffix}"


def _move(src: Path, folder: Path) -> Path:
    """Move ``src`` into ``folder``; an older file of the same name and other bytes is kept."""
    folder.mkdir(parents=True, exist_ok=True)
    target = _target(folder, src)
    if src.resolve() != target.resolve():
        os.replace(src, target)
    return target


def _reject(path: Path, exc: Exception, rejected: Path | None) -> FileOutcome:
    message = f"{display_name(path)}{_dropped_note(path)}: rejected: {refusal(exc).line()}"
    if rejected is None:  # a read-only source: leave it where it is
        return FileOutcome(str(path), "rejected", message)
    rejected.mkdir(parents=True, exist_ok=True)
    target = _target(rejected, path)
    outcome = FileOutcome(str(path), "rejected", message, moved_to=str(target))
    # the reason and the note first: a run killed before the move leaves the file in the
    # inbox, where the next run takes it again
    atomic_write(target.with_name(target.name + ".reason.txt"), reason_text(path, exc))
    _noted(outcome)
    os.replace(path, target)
    return outcome


_NOTE: contextvars.ContextVar[Callable[[FileOutcome], None] | None] = \
    contextvars.ContextVar("note", default=None)


@contextlib.contextmanager
def noting(note: Callable[[FileOutcome], None]) -> Iterator[None]:
    """Tell ``note`` of each file loaded or rejected in the block, before the file is moved
    (the run core keeps them for the import report, flows/_runlog.py ``Unreported``)."""
    token = _NOTE.set(note)
    try:
        yield
    finally:
        _NOTE.reset(token)


def _noted(outcome: FileOutcome) -> None:
    note = _NOTE.get()
    if note is not None:
        note(outcome)


def _too_large(path: Path, rejected: Path | None) -> FileOutcome | None:
    """The rejection of a file beyond ``[limits] file_mb``, judged by its size alone (such a
    file is never read here); None for any other file, or one that cannot be looked at (its
    reading says why)."""
    try:
        check_size(path.stat().st_size)
    except LimitExceeded as exc:
        return _reject(path, exc.with_file(display_name(path)), rejected)
    except OSError:
        pass
    return None


def warning_line(message: str, where: str) -> str:
    """A reader's warning as the file's line and the import report show it."""
    return f"{message} ({where})" if where else message


def _display_path(path: Path) -> str:
    return str(path.parent / display_name(path))


def ingest_file(
    wh: Warehouse,
    path: Path,
    *,
    archive: Path | None = None,
    rejected: Path | None = None,
    identity: IdentitySettings | None = None,
    parsed: ParseResult | ParseError | None = None,
    loader: Loader | None = None,
    errors_log: Path | None = None,
) -> FileOutcome:
    """Parse and load one file: :func:`ingest_batch` of that one file. With
    ``archive``/``rejected`` the file is moved afterwards (inbox files); without, it stays
    where it is (read-only source folders). ``parsed`` is the file already parsed elsewhere
    (a worker process, flows/_parsing.py), or the error that refused it there. ``loader``:
    the run's loader (flows/core.py); without one, a loader is built for this file alone."""
    return ingest_batch(wh, [(path, archive, rejected, parsed)],
                        loader=loader or Loader(wh, identity=identity),
                        errors_log=errors_log)[0]


def ingest_batch(
    wh: Warehouse,
    files: Sequence[tuple[Path, Path | None, Path | None, ParseResult | ParseError | None]],
    *,
    loader: Loader,
    errors_log: Path | None = None,
    hashes: Mapping[Path, str] | None = None,
) -> list[FileOutcome]:
    """:func:`ingest_file` for several files (path, archive, rejected, parsed) at once, with the
    same outcome for each: the files that parse are loaded by ``loader.load_many`` in one
    transaction (if that fails, one transaction per file, so one bad file never takes the
    others with it), then each is archived or rejected. A run killed before the transaction
    commits leaves the warehouse and the inbox as they were. ``hashes``: the SHA-256 of read-only
    source files as this run found them (``Project.new_files``): a file whose hash the
    warehouse has loaded is a duplicate without being read again."""
    outcomes: list[FileOutcome | None] = [None] * len(files)
    ready: list[tuple[int, Parsed]] = []
    for index, (path, archive, rejected, parsed) in enumerate(files):
        too_large = _too_large(path, rejected)
        if too_large is not None:
            outcomes[index] = too_large
            continue
        sha = hashes.get(path) if hashes else None  # a source file this run hashed already
        data: bytes | None = None
        if sha is None or loader.file_id_of(sha) is None:  # bytes not loaded before: read
            try:
                data = path.read_bytes()
            except OSError as exc:  # gone or unreadable since it was listed: left as it is
                outcomes[index] = FileOutcome(str(path), "rejected",
                                              f"{display_name(path)}: could not be read "
                                              f"({exc.strerror or exc}); left where it is")
                continue
            sha = file_sha256(data)
        early = _already_known(wh, path, sha, archive, rejected, loader.file_id_of(sha),
                               loader)
        if early is not None:
            outcomes[index] = early
            continue
        assert data is not None  # bytes left unread were loaded before: a duplicate above
        try:
            result = parsed if parsed is not None else parse_bytes(data, source=str(path))
            if isinstance(result, ParseError):
                raise result
        except ParseError as exc:
            outcomes[index] = _reject(path, exc, rejected)
            continue
        except Exception as exc:  # noqa: BLE001 - one file's fault never ends a run
            outcomes[index] = _reject(path, internal_error(path, exc, errors_log), rejected)
            continue
        ready.append((index, Parsed(data, result, _display_path(path), sha)))
    waiting = waiting_after_files(wh)

    def finish(index: int, item: Parsed, report: LoadReport | BaseException) -> None:
        path, archive, rejected, _ = files[index]
        if isinstance(report, BaseException):
            if not isinstance(report, Exception):
                raise report
            why = report if isinstance(report, (ParseError, LoadError)) else \
                internal_error(path, report, errors_log)
            outcomes[index] = _reject(path, why, rejected)
        elif report.status == "duplicate":  # the same bytes twice in one batch
            moved = str(_move(path, archive)) if archive is not None else None
            outcomes[index] = FileOutcome(str(path), "duplicate", report.summary(),
                                          moved_to=moved, sha256=report.sha256)
        else:
            outcomes[index] = _loaded(wh, path, report, item.result, archive, loader,
                                      decisions=report.sha256 in waiting)

    if any(item.sha256 in waiting for _, item in ready):
        # identity decisions follow some of these files: one file at a time, each decision
        # applied right after its file, before the next file (and said so on the file's line)
        for index, item in ready:
            try:
                report: LoadReport | BaseException = loader.load(item.data, item.result,
                                                                 path=item.path)
            except Exception as exc:  # noqa: BLE001 - reported per file
                report = exc
            finish(index, item, report)
    else:
        for (index, item), report in zip(ready, loader.load_many([item for _, item in ready]),
                                         strict=True):
            finish(index, item, report)
    return [o for o in outcomes if o is not None]


def _already_known(wh: Warehouse, path: Path, sha: str, archive: Path | None,
                   rejected: Path | None, known: int | None = -1,
                   loader: Loader | None = None) -> FileOutcome | None:
    """The outcome of bytes loaded before (a duplicate) or withdrawn (refused); None if new.
    ``known``: the file id of these bytes as the run's loader knows it (looked up if -1);
    ``loader``: the run's loader, which knows the withdrawals too (a source folder of
    thousands of known files costs no query per file)."""
    if known == -1:
        known = is_loaded(wh, sha)
    if known is None:
        return None
    if loader is not None:
        w = loader.withdrawal(known)
        withdrawn = None if w is None else (known, w)
    else:
        withdrawn = withdrawal_of(wh, sha)
    if withdrawn is not None:
        file_id, w = withdrawn
        why = WarehouseError(
            f"these bytes were loaded as file {file_id} and withdrawn on "
            f"{w.withdrawn_at:%Y-%m-%d %H:%M} ({w.reason}). To load them again, "
            f"undo the withdrawal: clubratings files restore {file_id}")
        if rejected is None:  # a read-only source scanned on every run: skipped quietly
            return FileOutcome(str(path), "duplicate",
                               f"{display_name(path)}: withdrawn (file {file_id}), skipped; "
                               f"clubratings files restore {file_id} takes it back in",
                               sha256=sha)
        return _reject(path, why, rejected)
    moved = str(_move(path, archive)) if archive is not None else None
    return FileOutcome(
        str(path), "duplicate",
        f"{display_name(path)}{_dropped_note(path)}: already loaded (file {known}), nothing to "
        "do", moved_to=moved,
        sha256=sha,
    )


def _loaded(wh: Warehouse, path: Path, report: LoadReport, result: ParseResult,
            archive: Path | None, loader: Loader | None, *, decisions: bool = True,
            ) -> FileOutcome:
    """A loaded file's outcome: its line, its warnings, the decisions that followed it; then
    the file is archived."""
    message = report.summary() + _dropped_note(path)
    warnings = tuple(warning_line(issue.message, issue.where)
                     for issue in result.issues if issue.level != "info")
    if warnings:
        message += (f"; {len(warnings)} warning(s) from reading it "
                    "(listed in the import report, public/reports/latest.html)")
    try:  # decisions made right after this file (``decisions``: some may wait for it)
        decided = apply_waiting(wh, report.sha256) if decisions else 0
    except WarehouseError as exc:
        message += f"; a decision that followed this file could not be applied: {exc}"
    else:
        if decided:
            if loader is not None:
                loader.refresh()  # the decisions changed who is who: read it again
            message += f"; {decided} identity decision(s) that followed this file applied"
        if decisions and report.sha256 in waiting_after_files(wh):  # contradicting ones wait
            message += ("; a decision that followed this file contradicts an answer on record: "
                        "held, not applied (clubratings decisions apply names it)")
    target = _target(archive, path) if archive is not None else None
    outcome = FileOutcome(
        str(path), report.status, message, report.events, report.replaced_events,
        report.players_created, str(target) if target is not None else None, report.waiting,
        warnings, sha256=report.sha256, same_as=report.same_files(),
    )
    _noted(outcome)  # before the move: the next run's report knows it even if killed now
    if target is not None:
        archive.mkdir(parents=True, exist_ok=True)  # type: ignore[union-attr]
        if path.resolve() != target.resolve():
            os.replace(path, target)
    return outcome
