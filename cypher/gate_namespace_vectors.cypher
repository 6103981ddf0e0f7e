// name: gate_namespace_vectors
// Every belief of the namespace, whatever its status, oldest first, with what the gate's
// in-process copy (vectors.py) keeps of it: what the classifier compares of it that does not
// change (text, kind, trust, canonical name, user, namespaces), the keys of the entities it
// is about, its embedding, and whether it is live (a status that is not live is final: the
// copy never proposes it). The copy is loaded from this inside the write that locked the
// namespace, once per namespace, and then kept in step by the gate's own writes.
// $namespace: string; $live: list<string>, the live statuses.
// Returns one row: rows, a list of {id, text, kind, trust, user, canonical_name, namespaces,
// about (entity keys), embedding (its embedding_f32 bytes: a quarter of the list on the
// wire; the list for a belief written before there were bytes), live}, one per belief.
MATCH (:Namespace {name: $namespace})<-[:IN]-(b:Belief)
WITH b
ORDER BY b.created_at, b.id
RETURN collect({
  id: b.id, text: b.text, kind: b.kind, trust: b.trust, user: b.user,
  canonical_name: b.canonical_name, namespaces: [(b)-[:IN]->(n:Namespace) | n.name],
  about: [(b)-[:ABOUT]->(e:Entity) | e.key],
  embedding: coalesce(b.embedding_f32, b.embedding), live: b.status IN $live
}) AS rows
