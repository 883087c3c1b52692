"""The embedded default, end to end: every file `clubratings run` publishes from the bundled
fixtures is byte-identical to the recorded one (tests/golden/default_outputs.json).

A change of the code's structure must leave every published byte as it was; a change meant to
change the outputs records them again with ``CLUBRATINGS_UPDATE_GOLDEN=1`` and shows the
difference in review."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

GOLDEN = Path(__file__).parent / "golden" / "default_outputs.json"


STAMPS = {".published", ".editions"}
"""Files that are no output: ``.published`` is a digest of the inputs of the last publication,
the publishing code included (flows/core.py), so any change of that code changes it; each
pool's ``.editions`` the same per edition (publishing/_site.py)."""


def _outputs(public: Path) -> dict[str, str]:
    return {p.relative_to(public).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(public.rglob("*")) if p.is_file() and p.name not in STAMPS}


def test_the_default_run_publishes_the_recorded_bytes(default_run: Path) -> None:
    """The session's default run (tests/conftest.py: the repository's configuration, fixtures,
    identity decisions and docs, run once with the clock pinned)."""
    project = default_run
    outputs = _outputs(project / "public")
    if os.environ.get("CLUBRATINGS_UPDATE_GOLDEN"):
        GOLDEN.write_text(json.dumps(outputs, indent=1, sort_keys=True) + "\n",
                          encoding="utf-8")
    recorded = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert sorted(outputs) == sorted(recorded)
    changed = sorted(k for k in outputs if outputs[k] != recorded[k])
    assert not changed, f"{len(changed)} published file(s) differ: {changed[:10]}"
