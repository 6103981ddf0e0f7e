// name: gate_namespace_vectors
// Every belief of the namespace with its embedding, whatever its status: the gate's
// in-process copy (vectors.py) is loaded from this, inside the write that locked the
// namespace, once per namespace and then kept in step by the gate's own writes.
// $namespace: string.
// Returns one row per belief: id, user, embedding.
MATCH (:Namespace {name: $namespace})<-[:IN]-(b:Belief)
RETURN b.id AS id, b.user AS user, b.embedding AS embedding
