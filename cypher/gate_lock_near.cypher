// name: gate_lock_near
// The gate's first step inside a write, in one round trip: lock the namespaces (as
// gate_lock_namespaces), and read the live beliefs among $near, which the gate's in-process
// copies of the namespaces proposed before the lock: the nearest to the incoming beliefs and
// those sharing an entity or canonical name with them (vectors.py; gate.py checks afterwards
// that the copies were exactly this state), each once. Of the beliefs in $glance (proposed
// too, but so far from every incoming belief they are near that the classifier can only
// judge them add) only whether they are live is read, not what they say.
// $names: list<string>, sorted; $token: string, new for every write (the gate's copies are
// stamped with it); $near, $glance: list<string> (belief ids, none in both); $live:
// list<string>.
// Returns, in every row, sizes (list of {name, beliefs, replaced: the lock_token this lock
// replaced}); then one row per live belief among $near and $glance: its id, and for those of
// $near a map `belief` with the fields of gate_candidates_near (null for $glance); a single
// row with a null id if none is live.
CALL () {
  UNWIND $names AS name
  MERGE (n:Namespace {name: name})
  WITH n, n.lock_token AS replaced
  SET n.lock_version = coalesce(n.lock_version, 0) + 1, n.lock_token = $token
  // only beliefs are IN a namespace: the degree is the count, in constant time
  RETURN collect({name: n.name, beliefs: COUNT { (n)<-[:IN]-() }, replaced: replaced}) AS sizes
}
OPTIONAL CALL () {
  UNWIND $near AS id
  MATCH (b:Belief {id: id})
  WHERE b.status IN $live
  RETURN b, true AS read
  UNION ALL
  UNWIND $glance AS id
  MATCH (b:Belief {id: id})
  WHERE b.status IN $live
  RETURN b, false AS read
}
RETURN sizes, b.id AS id,
       CASE WHEN read THEN b {
         .id, .text, .kind, .status, .trust, .importance, .canonical_name, .user,
         namespaces: [(b)-[:IN]->(n:Namespace) | n.name],
         about: [(b)-[:ABOUT]->(e:Entity) | e {.key, .name, .aliases}]
       } END AS belief
