// name: gate_namespace_vectors
// Every belief of the namespace, whatever its status, oldest first, with what the gate's
// in-process copy (beliefgraph/gate/vectors.py) keeps of it: what the classifier compares of it that does not
// change (text, kind, trust, canonical name, user, namespaces), the keys of the entities it
// is about, its embedding, and whether it is live (a status that is not live is final: the
// copy never proposes it). The copy is loaded from this inside the write that locked the
// namespace, once per namespace, and then kept in step by the gate's own writes.
// $namespace: string; $live: list<string>, the live statuses.
// Returns one row per belief: id, text, kind, trust, user, canonical_name, namespaces,
// about (entity keys), embedding (its embedding_f32 bytes: a quarter of the list on the
// wire; the list for a belief written before there were bytes), live.
MATCH (:Namespace {name: $namespace})<-[:IN]-(b:Belief)
RETURN b.id AS id, b.text AS text, b.kind AS kind, b.trust AS trust, b.user AS user,
       b.canonical_name AS canonical_name, [(b)-[:IN]->(n:Namespace) | n.name] AS namespaces,
       [(b)-[:ABOUT]->(e:Entity) | e.key] AS about,
       coalesce(b.embedding_f32, b.embedding) AS embedding, b.status IN $live AS live
ORDER BY b.created_at, b.id
