// name: belief_get_many
// Reads beliefs by id with everything a BeliefPublic needs, in no particular order.
// $ids: list<string>; $visible: list<string> or null (all), the namespaces the reader may
// see: the belief a supersedes/superseded_by names is named only if it is in one of them.
// Returns: belief (its properties but the embedding, as [key, value] pairs; times as ISO 8601
// text: the driver builds a DateTime ~100 us slower than datetime.fromisoformat, and a
// belief has two to six), namespaces, about, governs, supersedes, superseded_by.
UNWIND $ids AS id
MATCH (b:Belief {id: id})
// (the search index's own terms, text_words and name_edits, are not the belief's to show)
RETURN [key IN keys(b)
        WHERE NOT key IN ['embedding', 'embedding_f32', 'text_words', 'name_edits'] |
        [key, CASE WHEN valueType(b[key]) STARTS WITH 'ZONED DATETIME'
                   THEN toString(b[key]) ELSE b[key] END]] AS belief,
       [(b)-[:IN]->(n:Namespace) | n.name] AS namespaces,
       [(b)-[:ABOUT]->(e:Entity) | e.key] AS about,
       head([(b)-[:GOVERNS]->(s:Scope) |
             s {.any_terms, .all_terms, .excluded_terms, .action_types}]) AS governs,
       head([(b)-[:SUPERSEDES]->(o:Belief)
             WHERE $visible IS NULL OR EXISTS { (o)-[:IN]->(m:Namespace) WHERE m.name IN $visible }
             | o.id]) AS supersedes,
       head([(n:Belief)-[:SUPERSEDES]->(b)
             WHERE $visible IS NULL OR EXISTS { (n)-[:IN]->(m:Namespace) WHERE m.name IN $visible }
             | n.id]) AS superseded_by
