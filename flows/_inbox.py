"""Taking files in: parse, load in one transaction, then archive or reject.

What the inbox promises a webmaster (docs/rules/inputs.md): a dropped file is loaded completely or not
at all; a file that cannot be read moves to ``inbox/rejected/`` with ``<file>.reason.txt`` saying
where it broke; the same bytes twice load nothing twice; a corrected file replaces its event.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from parsers import ParseError, ParseResult, parse_bytes
from warehouse import (
    IdentitySettings,
    LoadError,
    Loader,
    Parsed,
    LoadReport,
    Warehouse,
    WarehouseError,
    file_sha256,
    is_loaded,
    load_result,
)
from warehouse.files import withdrawal_of
from warehouse.review import apply_waiting, waiting_after_files

__all__ = ["FileOutcome", "inbox_files", "ingest_batch", "ingest_file", "reason_text"]

Status = Literal["loaded", "correction", "duplicate", "rejected"]


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


def inbox_files(inbox: Path) -> list[Path]:
    """Files waiting in the inbox, oldest first (a correction comes after what it corrects)."""
    if not inbox.is_dir():
        return []
    files = [
        p for p in inbox.iterdir()
        if p.is_file() and not p.name.startswith(".") and not p.name.endswith(".reason.txt")
    ]
    return sorted(files, key=lambda p: (p.stat().st_mtime_ns, p.name))


def reason_text(path: Path, exc: Exception) -> str:
    """The plain-language reason written next to a rejected file."""
    lines = [f"file: {path.name}", f"error: {type(exc).__name__}"]
    if isinstance(exc, ParseError):
        lines += [f"{label}: {value}" for label, value in exc.location() if label != "file"]
        if exc.has_value:
            lines.append(f"value: {exc.value!r}")
        lines.append(f"problem: {exc.problem}")
    lines.append(f"message: {exc}")
    lines.append("")
    lines.append(
        "Nothing from this file was loaded. Correct it and drop it into the inbox again."
    )
    return "\n".join(lines) + "\n"


def _move(src: Path, folder: Path) -> Path:
    """Move ``src`` into ``folder``; an older file of the same name and other bytes is kept."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / src.name
    if target.exists() and target.read_bytes() != src.read_bytes():
        target = folder / f"{src.stem}.{file_sha256(src.read_bytes())[:10]}{src.suffix}"
    if src.resolve() != target.resolve():
        os.replace(src, target)
    return target


def _reject(path: Path, exc: Exception, rejected: Path | None) -> FileOutcome:
    message = f"{path.name}: rejected: {exc}"
    if rejected is None:  # a read-only source: leave it where it is
        return FileOutcome(str(path), "rejected", message)
    rejected.mkdir(parents=True, exist_ok=True)
    target = rejected / path.name
    shutil.move(str(path), target)
    (rejected / f"{path.name}.reason.txt").write_text(reason_text(path, exc), encoding="utf-8")
    return FileOutcome(str(path), "rejected", message, moved_to=str(target))


def ingest_file(
    wh: Warehouse,
    path: Path,
    *,
    archive: Path | None = None,
    rejected: Path | None = None,
    identity: IdentitySettings | None = None,
    parsed: ParseResult | None = None,
    loader: Loader | None = None,
) -> FileOutcome:
    """Parse and load one file. With ``archive``/``rejected`` the file is moved afterwards
    (inbox files); without, it stays where it is (read-only source folders). ``parsed`` is the
    file already parsed elsewhere (parsing fanned out, docs/scale-out.md). ``loader``: the run's
    loader, whose identity index is kept current from file to file (flows/core.py); without
    one, a loader is built for this file alone."""
    data = path.read_bytes()
    early = _already_known(wh, path, file_sha256(data), archive, rejected)
    if early is not None:
        return early
    try:
        result = parsed if parsed is not None else parse_bytes(data, source=str(path))
        if loader is not None:
            report: LoadReport = loader.load(data, result, path=str(path))
        else:
            report = load_result(wh, data, result, path=str(path), identity=identity)
    except (ParseError, LoadError) as exc:
        return _reject(path, exc, rejected)
    return _loaded(wh, path, report, result, archive, loader)


def ingest_batch(
    wh: Warehouse,
    files: Sequence[tuple[Path, Path | None, Path | None, ParseResult | None]],
    *,
    loader: Loader,
) -> list[FileOutcome]:
    """:func:`ingest_file` for several files (path, archive, rejected, parsed) at once, with the
    same outcome for each: the files that parse are loaded by ``loader.load_many`` in one
    transaction (if that fails, one transaction per file, so one bad file never takes the
    others with it), then each is archived or rejected. A run killed before the transaction
    commits leaves the warehouse and the inbox as they were."""
    outcomes: list[FileOutcome | None] = [None] * len(files)
    ready: list[tuple[int, Parsed]] = []
    for index, (path, archive, rejected, parsed) in enumerate(files):
        data = path.read_bytes()
        sha = file_sha256(data)
        early = _already_known(wh, path, sha, archive, rejected, loader.file_id_of(sha))
        if early is not None:
            outcomes[index] = early
            continue
        try:
            result = parsed if parsed is not None else parse_bytes(data, source=str(path))
        except ParseError as exc:
            outcomes[index] = _reject(path, exc, rejected)
            continue
        ready.append((index, Parsed(data, result, str(path), sha)))
    waiting = waiting_after_files(wh)

    def finish(index: int, item: Parsed, report: LoadReport | Exception) -> None:
        path, archive, rejected, _ = files[index]
        if isinstance(report, Exception):
            if not isinstance(report, (ParseError, LoadError)):
                raise report
            outcomes[index] = _reject(path, report, rejected)
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
                report: LoadReport | Exception = loader.load(item.data, item.result,
                                                             path=item.path)
            except (ParseError, LoadError) as exc:
                report = exc
            finish(index, item, report)
    else:
        for (index, item), report in zip(ready, loader.load_many([item for _, item in ready]),
                                         strict=True):
            finish(index, item, report)
    return [o for o in outcomes if o is not None]


def _already_known(wh: Warehouse, path: Path, sha: str, archive: Path | None,
                   rejected: Path | None, known: int | None = -1) -> FileOutcome | None:
    """The outcome of bytes loaded before (a duplicate) or withdrawn (refused); None if new.
    ``known``: the file id of these bytes as the run's loader knows it (looked up if -1)."""
    if known == -1:
        known = is_loaded(wh, sha)
    if known is None:
        return None
    withdrawn = withdrawal_of(wh, sha)
    if withdrawn is not None:
        file_id, w = withdrawn
        why = WarehouseError(
            f"these bytes were loaded as file {file_id} and withdrawn on "
            f"{w.withdrawn_at:%Y-%m-%d %H:%M} ({w.reason}); nothing loaded. To load them again, "
            f"undo the withdrawal: clubratings files restore {file_id}")
        if rejected is None:  # a read-only source scanned on every run: skipped quietly
            return FileOutcome(str(path), "duplicate",
                               f"{path.name}: withdrawn (file {file_id}), skipped; "
                               f"clubratings files restore {file_id} takes it back in",
                               sha256=sha)
        return _reject(path, why, rejected)
    moved = str(_move(path, archive)) if archive is not None else None
    return FileOutcome(
        str(path), "duplicate",
        f"{path.name}: already loaded (file {known}), nothing to do", moved_to=moved,
        sha256=sha,
    )


def _loaded(wh: Warehouse, path: Path, report: LoadReport, result: ParseResult,
            archive: Path | None, loader: Loader | None, *, decisions: bool = True,
            ) -> FileOutcome:
    """A loaded file's outcome: its line, its warnings, the decisions that followed it; then
    the file is archived."""
    message = report.summary()
    warnings = tuple(
        f"{issue.message} ({issue.where})" if issue.where else issue.message
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
    moved = str(_move(path, archive)) if archive is not None else None
    return FileOutcome(
        str(path), report.status, message, report.events, report.replaced_events,
        report.players_created, moved, report.waiting, warnings, sha256=report.sha256,
    )
