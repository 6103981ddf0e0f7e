// name: gate_namespace_vectors
// Every belief of the namespace, whatever its status, oldest first, with what the gate's
// in-process copy (vectors.py) keeps of it: its user, the keys of the entities it is about,
// its canonical name, its embedding, and whether it is live (a status that is not live is
// final: the copy never proposes it). The copy is loaded from this inside the write that
// locked the namespace, once per namespace, and then kept in step by the gate's own writes.
// $namespace: string; $live: list<string>, the live statuses.
// Returns one row per belief: id, user, about (entity keys), canonical_name, embedding (its
// embedding_f32 bytes: a quarter of the list on the wire; the list for a belief written
// before there were bytes), live.
MATCH (:Namespace {name: $namespace})<-[:IN]-(b:Belief)
RETURN b.id AS id, b.user AS user, [(b)-[:ABOUT]->(e:Entity) | e.key] AS about,
       b.canonical_name AS canonical_name, coalesce(b.embedding_f32, b.embedding) AS embedding,
       b.status IN $live AS live
ORDER BY b.created_at, b.id
