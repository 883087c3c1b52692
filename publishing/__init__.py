"""Publishing rating lists from the warehouse: the editions site (``publish_site``, see
``publishing/_site.py`` and docs/site.md), one page, CSV and Parquet file per pool and edition,
a page per player."""

from ._lists import LIST_COLUMNS, ListRow, list_rows, safe_cell
from ._site import SiteSettings, publish_site, read_optout, report_page

__all__ = [
    "LIST_COLUMNS", "ListRow", "SiteSettings", "list_rows", "publish_site", "read_optout",
    "report_page", "safe_cell",
]
