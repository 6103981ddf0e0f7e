// name: compat_pmb_reset
// PrecisionMemBench's reset: deletes every belief whose namespaces are all compat namespaces
// (a belief that is also anywhere else is never touched). The one physical delete in
// beliefgraph, confined to the compat namespaces; the namespaces themselves are kept, with
// their lock_token replaced so that the gate reloads its vector copies of them (beliefgraph/gate/vectors.py),
// and the aliases given in them (NAMED_IN) deleted with the beliefs that gave them.
// $prefix: the compat namespace prefix (validated by the settings: never empty).
// Returns: deleted.
MATCH (n:Namespace)
WHERE n.name STARTS WITH $prefix
SET n.lock_version = coalesce(n.lock_version, 0) + 1, n.lock_token = randomUUID()
WITH n
CALL (n) {
  MATCH (:Entity)-[k:NAMED_IN]->(n)
  DELETE k
}
WITH n
MATCH (b:Belief)-[:IN]->(n)
WITH DISTINCT b
WHERE all(ns IN [(b)-[:IN]->(m:Namespace) | m.name] WHERE ns STARTS WITH $prefix)
DETACH DELETE b
RETURN count(*) AS deleted
