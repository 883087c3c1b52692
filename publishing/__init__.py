"""Publishing rating lists from the warehouse: CSV and HTML per pool and period."""

from ._lists import LIST_COLUMNS, ListRow, list_rows, publish_pool

__all__ = ["LIST_COLUMNS", "ListRow", "list_rows", "publish_pool"]
