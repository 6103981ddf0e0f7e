// name: gate_lock_near
// The gate's first step inside a write, in one round trip: lock the namespaces (as
// gate_lock_namespaces), say which of the incoming ids are taken (as belief_existing_ids),
// and read the live beliefs among $near, which the gate's in-process copies of the namespaces
// proposed before the lock: the nearest to the incoming beliefs and those sharing an entity
// or canonical name with them (beliefgraph/gate/vectors.py; the gate checks afterwards that the copies were
// exactly this state), each once.
// $names: list<string>, sorted (the write's namespaces, also those whose aliases of an entity
// are read); $token: string, new for every write (the gate's copies are stamped with it);
// $ids: list<string>, the incoming beliefs' ids; $near: list<string> (belief ids);
// $live: list<string>.
// A belief past its valid_to is history, never a candidate: a restated rule with a new
// window is stored, not folded into the expired one.
// Returns one row: sizes (list of {name, beliefs, replaced: the lock_token this lock
// replaced}), taken (the $ids already stored) and near, the live beliefs among $near as
// gate_candidates_near returns them (id and entities: the copies hold the rest of what the
// gate compares).
CALL () {
  UNWIND $names AS name
  MERGE (n:Namespace {name: name})
  WITH n, n.lock_token AS replaced
  SET n.lock_version = coalesce(n.lock_version, 0) + 1, n.lock_token = $token
  // only beliefs are IN a namespace: the degree is the count, in constant time
  RETURN collect({name: n.name, beliefs: COUNT { (n)<-[:IN]-() }, replaced: replaced}) AS sizes
}
CALL () {
  UNWIND $ids AS id
  MATCH (b:Belief {id: id})
  RETURN collect(b.id) AS taken
}
CALL () {
  UNWIND $near AS id
  MATCH (b:Belief {id: id})
  WHERE b.status IN $live
    AND NOT coalesce(b.valid_to <= datetime(), false)
  RETURN collect({id: b.id, about: [(b)-[:ABOUT]->(e:Entity) | e {
    .key, .name,
    // its aliases in these namespaces only: a name given elsewhere decides nothing here
    aliases: reduce(acc = [], names IN [(e)-[k:NAMED_IN]->(m:Namespace) WHERE m.name IN $names
                                      | k.aliases] | acc + names)
  }]}) AS near
}
RETURN sizes, taken, near
