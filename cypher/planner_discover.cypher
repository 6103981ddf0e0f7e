// name: planner_discover
// Candidate discovery for the query planner, inside the requested namespaces only.
// Lanes of discovery (each row says which one found the belief):
//   vector   - cosine similarity to the query. When the namespaces hold at most
//              $exact_limit beliefs they are scored exactly with vector.similarity.cosine
//              (the 5.26 vector index has no filter, so a small namespace in a big store
//              could lose every index hit to other namespaces); otherwise the index is
//              over-fetched in proportion to how small a share of the store they are.
//   fulltext - Lucene over text, names and aliases (belief_text), same namespace filter.
//   alias    - beliefs ABOUT an entity whose key is one of $keys (the query's n-grams)
//              or whose name/alias matches the query words in entity_names.
//   scope_walk - beliefs that GOVERN a Scope that COVERS such an entity.
// $namespaces: list<string>; $embedding: list<float> (384); $k: hits per lane;
// $exact_limit: int; $max_fetch: int (cap of the index over-fetch);
// $words: string (Lucene query of the query's words, '' for none); $keys: list<string>.
// Returns one row per (belief, lane): id, via, score, and on every row the namespaces that
// exist (known) and how many beliefs they hold (size); a single row with a null id when
// nothing was found.
MATCH (n:Namespace) WHERE n.name IN $namespaces
// Only beliefs have IN edges, so the degree is the belief count (read in O(1)).
WITH collect(n) AS spaces, collect(n.name) AS known, sum(COUNT { (n)<-[:IN]-() }) AS size
OPTIONAL CALL (spaces, size) {
  WITH spaces, size WHERE size <= $exact_limit
  UNWIND spaces AS space
  MATCH (space)<-[:IN]-(b:Belief)
  WITH DISTINCT b
  WITH b, vector.similarity.cosine(b.embedding, $embedding) AS score
  ORDER BY score DESC, b.id LIMIT $k
  RETURN b, score, 'vector' AS via
UNION
  WITH spaces, size WHERE size > $exact_limit
  MATCH (every:Belief)
  WITH spaces, size, count(every) AS total
  WITH spaces, $k * ceil(toFloat(total) / size) AS wanted
  WITH spaces, toInteger(CASE WHEN wanted > $max_fetch THEN $max_fetch ELSE wanted END) AS fetch
  CALL db.index.vector.queryNodes('belief_embedding', fetch, $embedding) YIELD node, score
  WITH node AS b, score, spaces WHERE EXISTS { (b)-[:IN]->(m) WHERE m IN spaces }
  WITH b, score ORDER BY score DESC, b.id LIMIT $k
  RETURN b, score, 'vector' AS via
UNION
  WITH spaces WHERE $words <> ''
  CALL db.index.fulltext.queryNodes('belief_text', $words, {limit: $max_fetch}) YIELD node, score
  WITH node AS b, score, spaces WHERE EXISTS { (b)-[:IN]->(m) WHERE m IN spaces }
  WITH b, score ORDER BY score DESC, b.id LIMIT $k
  RETURN b, score, 'fulltext' AS via
UNION
  WITH spaces
  CALL (spaces) {
    UNWIND $keys AS key
    MATCH (e:Entity {key: key})
    RETURN e
  UNION
    WITH spaces WHERE $words <> ''
    CALL db.index.fulltext.queryNodes('entity_names', $words, {limit: $k}) YIELD node
    RETURN node AS e
  }
  CALL (e, spaces) {
    MATCH (e)<-[:ABOUT]-(b:Belief) WHERE EXISTS { (b)-[:IN]->(m) WHERE m IN spaces }
    RETURN b, 'alias' AS via LIMIT $k
  UNION
    MATCH (e)<-[:COVERS]-(:Scope)<-[:GOVERNS]-(b:Belief)
    WHERE EXISTS { (b)-[:IN]->(m) WHERE m IN spaces }
    RETURN b, 'scope_walk' AS via LIMIT $k
  }
  RETURN DISTINCT b, null AS score, via
}
RETURN b.id AS id, via, score, known, size
