"""The curation gate: every write passes it (DESIGN section 5)."""
