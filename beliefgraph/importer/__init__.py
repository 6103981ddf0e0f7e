"""Bulk import of conversation logs and belief documents (DESIGN section 6)."""
