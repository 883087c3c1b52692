"""Publishing rating lists from the warehouse: the editions site (``publish_site``, see
``publishing/_site.py`` and docs/site.md), one page, CSV and Parquet file per pool and edition,
a page per player. The columns of a published list are defined once, in ``COLUMNS``
(``publishing/_columns.py``)."""

from ._columns import COLUMNS, Column
from ._lists import ListRow, list_rows, safe_cell
from ._site import SiteSettings, publish_site, read_optout, report_page

__all__ = [
    "COLUMNS", "Column", "ListRow", "SiteSettings", "list_rows", "publish_site", "read_optout",
    "report_page", "safe_cell",
]
