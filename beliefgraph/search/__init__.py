"""Precision-first retrieval and context assembly."""
