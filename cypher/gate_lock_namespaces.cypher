// name: gate_lock_namespaces
// Takes the write lock on each namespace (creating it if missing) for the rest of the
// transaction, so that gate decisions and explicit changes in a namespace happen one at a
// time: a decision is never made on a neighbourhood another writer is changing. Callers pass
// the names sorted, so two transactions always lock in the same order.
// $names: list<string>, sorted.
// Returns: name, beliefs (how many beliefs the namespace holds).
UNWIND $names AS name
MERGE (n:Namespace {name: name})
SET n.lock_version = coalesce(n.lock_version, 0) + 1
RETURN n.name AS name, COUNT { (n)<-[:IN]-(:Belief) } AS beliefs
