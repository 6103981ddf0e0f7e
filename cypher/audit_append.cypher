// name: audit_append
// Appends events to their chains and moves each chain's head, inside the transaction of
// the change they record (the chains are locked by audit_chain_lock first). Each event is
// linked TOUCHED to the beliefs it names that exist.
// $events: list of {props: map of AuditEvent properties but `at`, beliefs: list<string>}
// $heads: list of {name, length, head}; $at: datetime (every event's, and the heads' update)
// Returns: appended (count).
UNWIND $heads AS h
MATCH (c:AuditChain {name: h.name})
SET c.length = h.length, c.head = h.head, c.updated_at = $at
WITH count(*) AS moved
UNWIND $events AS e
CREATE (a:AuditEvent)
SET a = e.props, a.at = $at
WITH a, e
CALL (a, e) {
  UNWIND e.beliefs AS id
  MATCH (b:Belief {id: id})
  MERGE (a)-[:TOUCHED]->(b)
}
RETURN count(a) AS appended
