"""Publishing rating lists from the warehouse: CSV and HTML per pool and period, and the
editions site (``publish_site``, see ``publishing/_site.py`` and docs/site.md)."""

from ._lists import LIST_COLUMNS, ListRow, list_rows, publish_pool
from ._site import SiteSettings, publish_site, read_optout

__all__ = [
    "LIST_COLUMNS", "ListRow", "SiteSettings", "list_rows", "publish_pool", "publish_site",
    "read_optout",
]
