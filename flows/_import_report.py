"""What a run did, for the people who send files: the import report.

- ``build_report``: per run and per club (organiser), the files loaded, replaced, rejected (with
  the reason), the files still waiting in ``inbox/rejected/``, what is held for a person
  (``files release``, ``review``), what people released, withdrew, restored or answered, players
  created, names waiting for review, events not rated and why, and the results the latest
  rating runs did not count, grouped by reason. Dated once, when built (UTC). Rendered as
  Markdown (the Prefect artifact, ``public/reports/<id>.md``) and HTML (``<id>.html``,
  ``latest.html``); ``write_report`` keeps every report and lists them, newest first, in
  ``public/reports/index.html``. Named after the import: when it ran (UTC, to the minute) and
  what it brought, the one file or how many (``2026-11-29-0558-club-2013-11-csv``,
  ``2026-11-29-0558-31-files``); a second report of the same name keeps both (``-2``).

What the report shows of earlier runs killed before their report comes from the journal of
what no report has shown yet (flows/_runlog.py ``Unreported``); the run log and progress are
there too.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from warehouse import Warehouse, atomic_write, file_sha256, utc_now
from warehouse.corrections import held_corrections, held_versions
from warehouse.files import event_keys_of_files, list_files
from warehouse.history import Action, actions_since
from warehouse.reporting import (
    events_not_rated, not_counted, organisers_by_file, organisers_of_path, organisers_of_sha,
    unrated_events, versions_loaded, waiting_by_club,
)
from warehouse.review import open_items

from ._inbox import FileOutcome
from ._runlog import PoolRunLike, Since, file_counts

__all__ = ["ImportReport", "Section", "build_report", "not_rated_lines", "write_report"]

NOT_READ = "(file not read)"


# ------------------------------------------------------------------ the import report

@dataclass(frozen=True, slots=True)
class Section:
    """A heading, a few lines of text and an optional table (header, rows, links)."""

    title: str
    lines: tuple[str, ...] = ()
    header: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    links: tuple[str, ...] = ()
    """Where each row's first cell links to (the list of reports); none: plain text."""


@dataclass(frozen=True, slots=True)
class ImportReport:
    report_id: str
    """When the import ran and what it brought: ``2026-11-29-0558-club-2013-11-csv`` (one
    file), ``2026-11-29-0558-31-files``, ``...-ratings-only`` (nothing loaded, a new rating
    run). The title says the same in words."""
    title: str
    sections: tuple[Section, ...]
    quiet: bool
    """Nothing loaded, replaced or rejected, nothing released, withdrawn, restored or answered
    and no new rating run: no report file is written."""
    clubs: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per organiser: files, loaded, correction, duplicate, same, rejected, events_replaced,
    players_created, waiting, unrated."""
    generated_at: str = ""
    """When the report was built, ``YYYY-MM-DD HH:MM UTC`` (taken once, by ``build_report``)."""
    stamp: str = ""
    """The same moment in ISO 8601 (UTC, to the microsecond): the order of the reports."""
    headline: dict[str, int | None] = field(default_factory=dict)
    """The run's counts, which the list of reports shows: loaded, rejected, waiting in rejected,
    held, released, withdrawn, restored, corrected, answered (``waiting in rejected`` is None
    when no rejected folder was looked at)."""
    not_rated: tuple[str, ...] = ()
    """What the run prints of the events in force that no list rates (:func:`not_rated_lines`):
    one line per reason, with the files; none when every event is rated."""

    def markdown(self, *, generated_at: str | None = None) -> str:
        return _markdown(self.title, self.sections, generated_at or self.generated_at or None)

    def html(self, *, generated_at: str | None = None) -> str:
        return _html(self.title, self.sections, generated_at or self.generated_at or None)


def _file_organisers(wh: Warehouse, outcome: FileOutcome,
                     by_sha: dict[str, list[str]] | None = None) -> list[str]:
    """The organisers of a file's events: by its bytes (where it is now), else by its path."""
    if outcome.status == "rejected":
        return []
    if outcome.sha256 and by_sha is not None and outcome.sha256 in by_sha:
        return by_sha[outcome.sha256]
    for candidate in (outcome.moved_to, outcome.path):
        if candidate and Path(candidate).is_file():
            found = organisers_of_sha(wh, file_sha256(Path(candidate).read_bytes()))
            if found:
                return found
    return organisers_of_path(wh, outcome.path)


def _day(value: object) -> str:
    """A date as ``YYYY-MM-DD`` (DuckDB dates arrive as timestamps in a frame)."""
    if value is None or str(value) in ("NaT", "nan"):
        return "-"
    return str(value)[:10]


def _reason(outcome: FileOutcome) -> str:
    _, sep, reason = outcome.message.partition(": rejected: ")
    return reason if sep else outcome.message


def _runs_line(runs: Sequence[PoolRunLike]) -> str:
    parts = [f"{r.pool} run {r.run_id} ({'kept: inputs unchanged' if r.reused else 'new'})"
             if r.run_id is not None else f"{r.pool}: no events to rate" for r in runs]
    return "Rating runs: " + ("; ".join(parts) if parts else "none") + "."


def _actions_new(wh: Warehouse, since: str | Since) -> list[Action]:
    """What people did to files that no report has shown yet, oldest first: by count when the
    report before said how many rows of the trail it had shown (the trail only grows), else by
    time."""
    every = actions_since(wh, None)
    if isinstance(since, Since) and since.actions is not None and since.actions <= len(every):
        return every[since.actions:]
    return actions_since(wh, str(since)) if str(since) else every


def _clock() -> dt.datetime:
    """Now, in UTC (:func:`warehouse.utc_now`: ``SOURCE_DATE_EPOCH`` pins it)."""
    return utc_now().replace(tzinfo=dt.UTC)


_DONE = {"released": ("released", "its dates confirmed: its events are rated"),
         "accepted": ("answered", "the held new version accepted: it replaces the one in force"),
         "kept": ("answered", "the version in force kept: the held new version is never rated"),
         "separate": ("answered", "another event of the same night: both stay in force")}


def _action_what(action: Action) -> str:
    """``withdrawn by ann: wrong evening``, ``answered by ann (the held new version
    accepted: ...): checked with the club``."""
    verb, detail = _DONE.get(action.action, (action.action, ""))
    return (verb + (f" by {action.by}" if action.by else "") + (f" ({detail})" if detail else "")
            + (f": {action.note}" if action.note else ""))


def _version_rows(wh: Warehouse, outcomes: Sequence[FileOutcome],
                  actions: Sequence[Action]) -> list[tuple[str, ...]]:
    """The corrections and new versions this run loaded, and ``actions``: what people did to
    files since the report before (withdrawn, restored, released, answered)."""
    rows: list[tuple[str, ...]] = []
    shas = [o.sha256 for o in outcomes if o.sha256 and o.status not in ("duplicate",
                                                                        "rejected")]
    versions = versions_loaded(wh, shas)
    is_version = {name for name, _, _, _ in versions}
    for outcome in outcomes:
        name = Path(outcome.path).name
        if outcome.replaced_events and name not in is_version:
            rows.append(("this run", name, f"correction: replaced {len(outcome.replaced_events)} "
                         "event(s) in force"))
    for name, file_id, previous, hold in versions:
        what = (f"new version of file {previous}, HELD: {hold} (clubratings review "
                f"--resolve version:{file_id})" if hold else
                f"new version of file {previous}, which it supersedes")
        rows.append(("this run", f"{name} (file {file_id})", what))
    for action in actions:
        rows.append((f"{action.at:%Y-%m-%d %H:%M}", f"{action.name} (file {action.file_id})",
                     _action_what(action)))
    return rows


def _waiting_rejected(folder: Path | None,
                      outcomes: Sequence[FileOutcome]) -> list[tuple[str, ...]] | None:
    """(file, rejected when, reason) of every ``<file>.reason.txt`` in ``folder``, by name:
    what waits there for a person, whichever run rejected it. None: no folder to look in."""
    if folder is None:
        return None
    this_run = {Path(o.moved_to).name for o in outcomes
                if o.status == "rejected" and o.moved_to}
    rows: list[tuple[str, ...]] = []
    suffix = ".reason.txt"
    try:
        reasons = sorted(p for p in folder.iterdir()
                         if p.name.endswith(suffix) and p.is_file())
    except OSError:  # no rejected/ yet: nothing waits
        return []
    for path in reasons:
        name = path.name[:-len(suffix)]
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
            when = ("this run" if name in this_run else dt.datetime.fromtimestamp(
                path.stat().st_mtime, dt.UTC).strftime("%Y-%m-%d %H:%M"))
        except OSError:
            continue  # moved away while we looked
        first = text.strip().splitlines()[0] if text.strip() else "(no reason written)"
        _, sep, why = first.partition(": not loaded: ")
        if not (folder / name).is_file():
            name += " (the file itself is gone)"
        rows.append((name, when, why if sep else first))
    return rows


def _held_rows(wh: Warehouse, unrated: object) -> list[tuple[str, ...]]:
    """What is loaded but waits for a person: files held for their dates (``files release``),
    held new versions and held corrections (``review``)."""
    held_reasons: dict[tuple[str, str, str, str], str] = {}
    for r in unrated.itertuples(index=False):  # type: ignore[attr-defined]
        if str(r.review_keys).startswith("held: "):
            key = (str(r.organiser), _day(r.event_date), str(r.title), str(r.section))
            held_reasons[key] = str(r.review_keys)[len("held: "):]
    rows: list[tuple[str, ...]] = []
    held = [loaded for loaded in list_files(wh) if loaded.status == "held"]
    events_of = event_keys_of_files(wh, [loaded.file_id for loaded in held])  # one query
    for loaded in held:
        reasons = list(dict.fromkeys(
            held_reasons[key] for date, organiser, title, section in events_of[loaded.file_id]
            if (key := (organiser, _day(date), title, section)) in held_reasons))
        rows.append(("held for its dates", f"{loaded.name} (file {loaded.file_id})",
                     "; ".join(reasons) or "an event dated in the future or years away",
                     f"clubratings files release {loaded.file_id}"))
    for version in held_versions(wh):
        rows.append(("new version held", f"{version.file_name} (file {version.file_id})",
                     f"{version.reason} (the version in force is file {version.in_force})",
                     f"clubratings review --resolve {version.key}"))
    for correction in held_corrections(wh):
        rows.append(("correction held", f"{correction.file_name} (file {correction.file_id})",
                     f"{correction.title} ({correction.event_date}): {correction.reason}",
                     f"clubratings review --resolve {correction.key}"))
    return rows


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _headline_line(headline: dict[str, int | None]) -> str:
    waiting = headline["waiting in rejected"]
    parts = [f"{headline['loaded']} loaded", f"{headline['rejected']} rejected"]
    if waiting is not None:
        parts.append(f"{_plural(waiting, 'file')} waiting in inbox/rejected/")
    parts += [f"{headline['held']} held for a person", f"{headline['released']} released",
              f"{headline['withdrawn']} withdrawn", f"{headline['restored']} restored",
              f"{headline['corrected']} corrected", f"{headline['answered']} answered"]
    return "This run: " + ", ".join(parts) + "."


def build_report(wh: Warehouse, outcomes: Sequence[FileOutcome],
                 runs: Sequence[PoolRunLike], since: str | Since = "", *,
                 rejected: Path | None = None, now: dt.datetime | None = None) -> ImportReport:
    """The report of one run: the files it looked at, the rating runs it made or kept; the
    versions and corrections it loaded, what people did to files ``since`` the report before
    (:class:`Since`, or its time as text), what waits in the ``rejected`` folder (default:
    ``since.rejected``) and what is held for a person. Dated ``now`` (default: the clock, UTC,
    or ``SOURCE_DATE_EPOCH``), taken once."""
    moment = (now or _clock()).astimezone(dt.UTC)
    if rejected is None and isinstance(since, Since):
        rejected = since.rejected
    clubs: dict[str, dict[str, int]] = {}
    files_by_club: dict[str, list[tuple[str, ...]]] = {}

    def club(name: str) -> dict[str, int]:
        return clubs.setdefault(name, dict.fromkeys(
            ("files", "loaded", "correction", "duplicate", "same", "rejected",
             "events_replaced", "players_created", "waiting", "unrated"), 0))

    rejected_rows: list[tuple[str, ...]] = []
    warning_rows: list[tuple[str, ...]] = []
    same_rows: list[tuple[str, ...]] = []
    by_sha = organisers_by_file(wh) if outcomes else {}
    items = open_items(wh)
    still_open = {str(key) for key in items["item_key"]}  # answered since loading: not waiting
    for outcome in outcomes:
        name = Path(outcome.path).name
        organisers = _file_organisers(wh, outcome, by_sha) or [NOT_READ]
        owner = organisers[0]  # a file's counts go to its first organiser
        counts = club(owner)
        counts["files"] += 1
        counts[outcome.status] += 1
        counts["events_replaced"] += len(outcome.replaced_events)
        counts["players_created"] += outcome.players_created
        waiting = ", ".join(sorted({n for n, key in outcome.waiting if key in still_open}))
        if outcome.status != "duplicate":  # duplicates only as a count (per club, overview)
            files_by_club.setdefault(owner, []).append((
                name, outcome.status, str(outcome.events), str(len(outcome.replaced_events)),
                str(outcome.players_created), waiting or "-"))
        if outcome.status == "rejected":
            rejected_rows.append((name, _reason(outcome)))
        if outcome.same_as:
            same_rows.append((name, "same results as " + ", ".join(outcome.same_as)))
        warning_rows.extend((name, text) for text in outcome.warnings)

    waiting_rows = sorted((  # by first date and key: the same warehouse, the same report
        (str(r.item_key), str(r.name_as_written), str(r.club or "-"), str(r.first_event or "-"),
         _day(r.first_date), str(int(r.occurrences)))
        for r in items.itertuples(index=False)), key=lambda row: (row[4], row[0]))
    unrated = unrated_events(wh)
    run_ids = [r.run_id for r in runs if r.run_id is not None]
    not_rated = events_not_rated(wh, run_ids)
    unrated_rows = []
    for r in not_rated.itertuples(index=False):
        club(str(r.organiser))["unrated"] += 1
        unrated_rows.append((str(r.organiser), _day(r.event_date), str(r.title),
                             str(r.section) or "-", str(r.file), str(r.reason)))
    for r in waiting_by_club(wh).itertuples(index=False):
        club(str(r.organiser))["waiting"] = int(r.n)

    pools = {r.run_id: r.pool for r in runs if r.run_id is not None}
    not_counted_rows: list[tuple[str, ...]] = []
    if run_ids:
        frame = not_counted(wh, run_ids)
        not_counted_rows = [
            (pools[int(r.run_id)], str(int(r.run_id)), str(r.organiser), str(r.reason) or "-",
             str(int(r.n_rows)), str(int(r.n_events)))
            for r in frame.itertuples(index=False)]

    counts = file_counts(outcomes)
    totals = ", ".join(f"{n} {s}" for s, n in counts.items())
    actions = _actions_new(wh, since)
    version_rows = _version_rows(wh, outcomes, actions)
    waiting_rejected = _waiting_rejected(rejected, outcomes)
    held_rows = _held_rows(wh, unrated)
    done = [a.action for a in actions]
    headline: dict[str, int | None] = {
        "loaded": sum(counts.get(k, 0) for k in ("loaded", "correction", "same")),
        "rejected": counts.get("rejected", 0),
        "waiting in rejected": None if waiting_rejected is None else len(waiting_rejected),
        "held": len(held_rows),
        "released": done.count("released"),
        "withdrawn": done.count("withdrawn"),
        "restored": done.count("restored"),
        "corrected": sum(1 for row in version_rows if row[0] == "this run"
                         and "HELD" not in row[2]) + done.count("accepted"),
        "answered": sum(done.count(k) for k in ("accepted", "kept", "separate")),
    }
    overview = Section("Overview", (
        _headline_line(headline),
        _runs_line(runs),
        f"Files: {len(outcomes)}" + (f" ({totals})" if totals else "") + "; players created: "
        f"{sum(o.players_created for o in outcomes)}; names waiting for review: "
        f"{len(waiting_rows)}; events not rated: {len(unrated_rows)}"
        + (f" ({_reason_counts(not_rated)})" if unrated_rows else "") + ".",
    ))
    per_club = Section(
        "Per club",
        header=("club", "files", "loaded", "corrections", "duplicates", "same results",
                "rejected", "events replaced", "players created", "names waiting",
                "events not rated"),
        rows=tuple((name, *(str(c[k]) for k in (
            "files", "loaded", "correction", "duplicate", "same", "rejected", "events_replaced",
            "players_created", "waiting", "unrated")))
            for name, c in sorted(clubs.items())))
    sections = [overview, per_club]
    for name in sorted(files_by_club):
        sections.append(Section(
            f"Files: {name}",
            header=("file", "status", "events", "events replaced", "players created",
                    "names waiting"),
            rows=tuple(files_by_club[name])))
    waiting_n = len(waiting_rejected or ())
    earlier = sum(1 for row in waiting_rejected or () if row[1] != "this run")
    sections.append(_table_or_none(
        "Rejected files", ("file", "reason"), rejected_rows,
        "Rejected by this run: nothing from a rejected file was loaded; its reason is also in "
        "inbox/rejected/<file>.reason.txt.",
        "No file was rejected by this run" + (
            f"; {_plural(earlier, 'file')} rejected by earlier runs still "
            f"{'waits' if earlier == 1 else 'wait'} in inbox/rejected/ (below)."
            if earlier else ".")))
    if waiting_rejected is not None:
        sections.append(_table_or_none(
            "Waiting in inbox/rejected/", ("file", "rejected", "reason"), waiting_rejected,
            f"{_plural(waiting_n, 'file')} {'waits' if waiting_n == 1 else 'wait'} in "
            "inbox/rejected/, each with its <file>.reason.txt, whichever run rejected it: "
            "nothing of them is loaded. Correct a file (or export it again) and drop it into "
            "inbox/ again; delete the file and its .reason.txt once it is dealt with.",
            "Nothing waits in inbox/rejected/."))
    sections.append(_table_or_none(
        "Held for a person", ("held", "file", "why", "to answer"), held_rows,
        f"{_plural(len(held_rows), 'file or correction waits', 'files and corrections wait')}"
        " for a person: loaded, but not rated until answered. `clubratings files release` "
        "confirms a file's dates; `clubratings review` accepts or keeps out a held new "
        "version or correction.",
        "Nothing is held for `clubratings files release` or `clubratings review`."))
    sections.append(_table_or_none(
        "Same results written twice", ("file", "what it writes again"), same_rows,
        "The same night from another file (a web page beside its text report, another "
        "program's export): kept as a second rendering, not counted again "
        "(docs/rules/inputs.md).", "No file repeated results already loaded."))
    sections.append(_table_or_none(
        "Versions, withdrawals and answers", ("when", "file", "what"), version_rows,
        "The corrections and new versions this run loaded, and what people withdrew, "
        "restored, released or answered since the report before. A new version of a file "
        "supersedes the version before it; `clubratings files history NAME` shows every "
        "version and who did what when (docs/rules/inputs.md, \"Versions of a file\").",
        "No correction or new version of a file, and nothing withdrawn, restored, released "
        "or answered since the report before."))
    sections.append(_table_or_none(
        "Warnings from reading the files", ("file", "warning"), warning_rows,
        "The file was loaded; the parser worked around these. Check that it read what the "
        "club meant.", "No file loaded with a warning."))
    sections.append(_table_or_none(
        "Names waiting for review",
        ("review key", "name as written", "club", "first event", "date", "occurrences"),
        waiting_rows, "Answer them with `clubratings review`.", "No name waits for review."))
    sections.append(_table_or_none(
        "Events not rated", ("organiser", "date", "event", "section", "file", "why"),
        unrated_rows,
        "Loaded and in force, but on no list of the rating runs, and why: held for a person, "
        "a name waiting for review, a game, kind or scoring no pool rates, dated before the "
        "pool's start (it counts towards the start ratings only), or none of its results "
        "counted.", "Every event in force is rated."))
    sections.append(_table_or_none(
        "Results not counted by the rating runs",
        ("pool", "run", "club", "reason", "rows", "events"), not_counted_rows,
        "Rows of the rating runs' contributions with counted = false, by reason.",
        "Every result of the rating runs counted."))

    subject = _subject(outcomes, actions)
    report_id = f"{moment:%Y-%m-%d-%H%M}-{_slug(subject)}"
    quiet = (all(o.status == "duplicate" for o in outcomes) and not version_rows
             and all(r.reused or r.run_id is None for r in runs))
    return ImportReport(report_id, f"Import report {moment:%Y-%m-%d %H:%M} UTC: {subject}",
                        tuple(sections), quiet, clubs,
                        f"{moment:%Y-%m-%d %H:%M} UTC",
                        moment.replace(tzinfo=None).isoformat(sep=" "), headline,
                        tuple(not_rated_lines(not_rated)))


def _subject(outcomes: Sequence[FileOutcome], actions: Sequence[Action]) -> str:
    """What the import was, for its report's name: the one file it brought (``club-2013-11.csv``),
    or how many (``31 files``), else what people did (``2 answers and withdrawals``), else
    ``ratings only`` (a new rating run, nothing loaded)."""
    new = [o for o in outcomes if o.status != "duplicate"]
    if len(new) == 1:
        return Path(new[0].path).name
    if new:
        return _plural(len(new), "file")
    if actions:
        return _plural(len(actions), "answer or withdrawal", "answers and withdrawals")
    return "ratings only"


def _slug(text: str) -> str:
    """``Club 2013-11.csv`` -> ``club-2013-11-csv``: a file name's safe part, at most 60
    characters (accents and other characters become ``-``)."""
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60].strip("-")
    return slug or "import"


def _kind_of_reason(reason: str) -> str:
    """A reason without its particulars (the names waiting, the review keys): ``waiting for
    review``, ``before the pool's start (2013-10-01)``."""
    return reason.split(":", 1)[0]


def _reason_counts(frame: pd.DataFrame) -> str:
    """``16 before the pool's start (2013-10-01), 1 waiting for review``: the events of
    ``frame`` (:func:`warehouse.reporting.events_not_rated`) by kind of reason, most first."""
    counts = frame["reason"].map(_kind_of_reason).value_counts(sort=False)
    order = sorted(counts.items(), key=lambda kv: (-int(kv[1]), str(kv[0])))
    return ", ".join(f"{int(n)} {kind}" for kind, n in order)


def not_rated_lines(frame: pd.DataFrame, *, most: int = 3) -> list[str]:
    """One line per kind of reason of the events in force no list rates (``frame``:
    :func:`warehouse.reporting.events_not_rated`), naming the files (``most`` of them, then
    how many more): what the run prints, so that no loaded event goes unmentioned."""
    if frame.empty:
        return []
    lines = []
    kinds = frame["reason"].map(_kind_of_reason)
    for kind in sorted(set(kinds), key=lambda k: (-int((kinds == k).sum()), k)):
        files = list(dict.fromkeys(str(f) for f in frame.loc[kinds == kind, "file"]))
        named = ", ".join(files[:most]) + (f" and {len(files) - most} more" if len(files) > most
                                           else "")
        n = int((kinds == kind).sum())
        lines.append(f"not rated: {_plural(n, 'event')} {kind}: {named}")
    lines.append("not rated: every such event and why: the import report (public/reports/"
                 "latest.html), \"Events not rated\"")
    return lines


def _table_or_none(title: str, header: tuple[str, ...], rows: Sequence[tuple[str, ...]],
                   note: str, empty: str) -> Section:
    if not rows:
        return Section(title, (empty,))
    return Section(title, (note,), header, tuple(rows))


# ------------------------------------------------------------------ rendering

def _md_cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _markdown(title: str, sections: Sequence[Section], generated_at: str | None) -> str:
    out = [f"# {title}", ""]
    if generated_at:
        out += [f"Generated {generated_at}.", ""]
    for s in sections:
        out += [f"## {s.title}", ""]
        out += [line for text in s.lines for line in (text, "")]
        if s.header:
            out.append("| " + " | ".join(_md_cell(h) for h in s.header) + " |")
            out.append("|" + "|".join("---" for _ in s.header) + "|")
            out += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in s.rows]
            out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _html(title: str, sections: Sequence[Section], generated_at: str | None) -> str:
    """The report as a page of the site (publishing.report_page: its style, escaped)."""
    from publishing import report_page

    return report_page(title, sections, generated_at)


LIST = "reports.json"
"""Every report written: its id, date and headline counts, newest first (``index.html``)."""
_COLUMNS = (("loaded", "loaded"), ("rejected", "rejected"),
            ("waiting in rejected", "waiting in rejected/"), ("held", "held"),
            ("released", "released"), ("withdrawn", "withdrawn"), ("restored", "restored"),
            ("corrected", "corrected"), ("answered", "answered"))


def write_report(report: ImportReport, public: Path) -> Path | None:
    """``public/reports/<id>.md|.html`` and ``latest.html``, then the list of every report
    (``reports.json``, ``index.html``, newest first); reports written before stay. A quiet run
    writes nothing (so a repeated run leaves every published byte as it was). Returns the
    Markdown file."""
    if report.quiet:
        return None
    folder = public / "reports"
    folder.mkdir(parents=True, exist_ok=True)
    report = _unique(report, folder)
    md = folder / f"{report.report_id}.md"
    page = report.html()
    atomic_write(md, report.markdown())
    atomic_write(folder / f"{report.report_id}.html", page)
    atomic_write(folder / "latest.html", page)
    entries = [e for e in _listed(folder) if e["id"] != report.report_id]
    entries.append({"id": report.report_id, "generated_at": report.generated_at,
                    "stamp": report.stamp, "headline": report.headline})
    entries = _with_unlisted(folder, entries)
    entries.sort(key=lambda e: (str(e["stamp"]), str(e["id"])), reverse=True)
    atomic_write(folder / LIST, json.dumps({"reports": entries}, ensure_ascii=False,
                                           indent=1, sort_keys=True) + "\n")
    atomic_write(folder / "index.html", _reports_index(entries))
    return md


def _unique(report: ImportReport, folder: Path) -> ImportReport:
    """``report``, or, when another report of its name is in ``folder`` (two imports of one
    file in one minute), the same with ``-2``, ``-3``, ... added to its name. The same report
    written again keeps its name."""
    report_id, n = report.report_id, 1
    text = report.markdown()
    while (folder / f"{report_id}.md").is_file():
        try:
            if (folder / f"{report_id}.md").read_text(encoding="utf-8") == text:
                break
        except OSError:
            pass
        n += 1
        report_id = f"{report.report_id}-{n}"
    return report if n == 1 else dataclasses.replace(report, report_id=report_id)


def _listed(folder: Path) -> list[dict[str, object]]:
    """The entries of ``reports.json`` whose report is still there ([] if none can be read)."""
    try:
        data = json.loads((folder / LIST).read_text(encoding="utf-8"))
        entries = [e for e in data["reports"] if isinstance(e, dict) and "id" in e]
    except (OSError, ValueError, KeyError, TypeError):
        return []
    return [e for e in entries if (folder / f"{e['id']}.html").is_file()]


def _with_unlisted(folder: Path, entries: list[dict[str, object]]) -> list[dict[str, object]]:
    """``entries`` and every report page in ``folder`` they miss (written before reports were
    listed): dated by the date line of its Markdown, else by the time the file was written."""
    known = {str(e["id"]) for e in entries}
    for page in sorted(folder.glob("*.html")):
        if page.stem in known or page.name in ("latest.html", "index.html"):
            continue
        moment: dt.datetime | None = None
        try:
            text = (folder / f"{page.stem}.md").read_text(encoding="utf-8")
            found = re.search(r"^Generated (\d{4}-\d\d-\d\d \d\d:\d\d) UTC\.$", text, re.M)
            if found:
                moment = dt.datetime.fromisoformat(found.group(1))
        except (OSError, ValueError):
            pass
        when = f"{moment:%Y-%m-%d %H:%M} UTC" if moment else ""
        if moment is None:
            moment = dt.datetime.fromtimestamp(page.stat().st_mtime, dt.UTC).replace(tzinfo=None)
            when = f"{moment:%Y-%m-%d %H:%M} UTC (file written)"
        entries.append({"id": page.stem, "generated_at": when,
                        "stamp": moment.isoformat(sep=" "), "headline": {}})
    return entries


def _reports_index(entries: Sequence[dict[str, object]]) -> str:
    """``public/reports/index.html``: every report, newest first, with its date, headline
    counts and a link (a page of the site, like the reports)."""
    from publishing import report_page

    rows: list[tuple[str, ...]] = []
    for e in entries:
        headline = e.get("headline") or {}
        assert isinstance(headline, dict)
        rows.append((str(e["generated_at"]), str(e["id"]),
                     *("-" if headline.get(k) is None else str(headline[k])
                       for k, _ in _COLUMNS)))
    listing = Section(
        "Every report, newest first",
        (f"{_plural(len(rows), 'report')}. Each is the report of one run that loaded, "
         "rejected, released, withdrew, restored or answered something, or made a new rating "
         "run; a run with nothing new writes none. latest.html is the newest.",),
        header=("date", "report", *(label for _, label in _COLUMNS)), rows=tuple(rows))
    return report_page("Import reports", (dataclasses.replace(
        listing, links=tuple(f"{e['id']}.html" for e in entries)),))
