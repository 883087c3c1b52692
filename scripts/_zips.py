"""Zip archives (xlsx, ods) with reproducible bytes, for the scripts that write fixtures and
hostile files: every member rewritten with one fixed timestamp, ``mimetype`` stored (the
OpenDocument rule), the others deflated."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable

__all__ = ["ZIP_TIME", "rezip"]

ZIP_TIME = (2013, 1, 1, 0, 0, 0)
"""The timestamp of every member written here."""


def rezip(data: bytes, change: Callable[[str, bytes], bytes]) -> bytes:
    """The archive ``data`` written again, each member's content passed through
    ``change(name, content)``, with fixed timestamps."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            fixed = zipfile.ZipInfo(info.filename, ZIP_TIME)
            fixed.compress_type = (zipfile.ZIP_STORED if info.filename == "mimetype"
                                   else zipfile.ZIP_DEFLATED)
            target.writestr(fixed, change(info.filename, source.read(info.filename)))
    return out.getvalue()
