// name: search_similarity
// Cosine similarity between a query vector and the embeddings of the given beliefs
// (exact, no index: these are the few beliefs search already admitted).
// $ids: list<string>; $vector: list<float> (384).
// Returns: id, similarity.
UNWIND $ids AS id
MATCH (b:Belief {id: id})
RETURN b.id AS id, vector.similarity.cosine(b.embedding, $vector) AS similarity
