// name: search_candidates
// Candidates for precision-first search: beliefs whose names match $names, whose canonical
// name is one of $canonical, and whose text_words match $text, in
// $namespaces, of $user (null: any user), of $kinds (null: any kind), with a surfacing
// status, not resolved and not expired (valid_to passed). Each source keeps at most
// $per_kind beliefs per kind (best full-text score first), so one prolific kind cannot push
// the others out. Scoring and admission happen in beliefgraph/search/.
// $names: Lucene query over canonical_name, aliases_text and name_edits, '' for none.
// $text: Lucene query over text_words (groups of words a text must hold whole: search/query.py's
// coverage_groups), '' for none. Both carry +search_keys clauses, so the index
// itself keeps to the namespaces and user; the WHERE below re-checks what the graph says.
// $canonical: list<string> of exact canonical names (snake_case shingles of the query).
// $namespaces: list<string>; $user: string or null; $kinds: list<string> or null;
// $statuses: list<string>; $per_kind: int; $fetch: int (best full-text hits read per source).
// $vectors: bool, whether to return each belief's embedding (search breaks ties of lexical
// evidence by cosine similarity: reading the vectors here costs less than a second read), as
// embedding_f32 bytes (a quarter of a list of floats on the wire), as the list for a belief
// written before there were bytes.
// Returns one row: rows, a list of [belief (map without embedding), namespaces, embedding
// (bytes or list<float>, or null when not $vectors)], one per candidate (one record, not one
// per candidate: each costs the driver ~20 us).
CALL () {
  WITH 1 AS go WHERE $names <> ''
  CALL db.index.fulltext.queryNodes('belief_search', $names, {limit: $fetch}) YIELD node, score
  RETURN node AS b, score, 'names' AS source
  UNION ALL
  MATCH (node:Belief)
  WHERE node.canonical_name IN $canonical
  RETURN node AS b, 1.0 AS score, 'canonical' AS source
  UNION ALL
  WITH 1 AS go WHERE $text <> ''
  CALL db.index.fulltext.queryNodes('belief_search', $text, {limit: $fetch}) YIELD node, score
  RETURN node AS b, score, 'text' AS source
}
WITH b, score, source
WHERE b.status IN $statuses
  AND b.resolved_at IS NULL
  AND NOT coalesce(b.valid_to <= datetime(), false)  // expired: no longer so
  AND ($user IS NULL OR b.user = $user)
  AND ($kinds IS NULL OR b.kind IN $kinds)
  AND EXISTS { (b)-[:IN]->(n:Namespace) WHERE n.name IN $namespaces }
WITH source, b.kind AS kind, b, score
ORDER BY score DESC
WITH source, kind, collect(b)[..$per_kind] AS top
UNWIND top AS b
WITH DISTINCT b
RETURN collect([
  b {.id, .text, .kind, .status, .epistemic_status, .canonical_name, .aliases,
     .why_it_matters, .pinned, .confidence, .user,
     // as text: the driver builds a DateTime ~60 µs slower than fromisoformat
     last_reinforced_at: toString(b.last_reinforced_at)},
  [(b)-[:IN]->(n:Namespace) | n.name],
  CASE WHEN $vectors THEN coalesce(b.embedding_f32, b.embedding) END
]) AS rows
