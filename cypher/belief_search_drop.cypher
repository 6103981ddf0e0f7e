// name: belief_search_drop
// Drops the full-text index belief_search, so that the schema creates it again with the
// properties it covers today (Store.init_schema does, when the index covers fewer: an index's
// properties cannot be altered). Searches find nothing by name until it is online again.
DROP INDEX belief_search IF EXISTS
