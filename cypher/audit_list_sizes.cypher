// name: audit_list_sizes
// What a listing of the audit would read: the events of the chains $chains (from their
// lengths) and of the whole log (from the count store). audit.list_events picks audit_list
// or audit_list_in by them.
// $chains: list<string>.
// Returns one row: held, total.
OPTIONAL MATCH (c:AuditChain)
WHERE c.name IN $chains
WITH sum(coalesce(c.length, 0)) AS held
RETURN held, COUNT { MATCH (:AuditEvent) } AS total
