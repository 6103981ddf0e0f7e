// name: belief_search_drop
// Drops the full-text index belief_search, so that the schema creates it again with the
// properties it covers today (schema.init_schema does, when the index covers other ones: an
// index's properties cannot be altered). Until it is online again, a search waits for it (up
// to Neo4j's 30 s) or fails: init makes it before the service takes requests.
DROP INDEX belief_search IF EXISTS
