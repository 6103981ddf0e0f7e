// name: documents_add_aliases
// Adds aliases to a belief (those it already has are not repeated), and to the entity
// named by its canonical name in the belief's namespaces, so both the belief and the entity
// answer to the new names there.
// The belief's name_edits gain the new aliases' terms (beliefgraph/index_keys.py).
// $id: belief id; $aliases: list<string>; $edits: list<string> (name_edits terms of $aliases);
// $now: datetime.
// Returns: aliases (the belief's, afterwards); no row when the id is unknown.
MATCH (b:Belief {id: $id})
WITH b, reduce(acc = coalesce(b.aliases, []), a IN $aliases |
               CASE WHEN a IN acc THEN acc ELSE acc + a END) AS aliases,
        reduce(acc = [t IN split(coalesce(b.name_edits, ''), ' ') WHERE t <> ''], t IN $edits |
               CASE WHEN t IN acc THEN acc ELSE acc + t END) AS edits
SET b.aliases = aliases,
    b.aliases_text = substring(reduce(s = '', a IN aliases | s + ' ' + a), 1),
    b.name_edits = substring(reduce(s = '', t IN edits | s + ' ' + t), 1),
    b.updated_at = $now
WITH b
CALL (b) {
  MATCH (b)-[:ABOUT]->(e:Entity), (b)-[:IN]->(n:Namespace)
  WHERE e.name = b.canonical_name AND size($aliases) > 0
  MERGE (e)-[k:NAMED_IN]->(n)
    ON CREATE SET k.aliases = []
  WITH k, reduce(acc = k.aliases, a IN $aliases |
                 CASE WHEN a IN acc THEN acc ELSE acc + a END) AS aliases
  SET k.aliases = aliases, k.aliases_text = toLower(reduce(s = '', a IN aliases | s + ' ' + a))
}
RETURN b.aliases AS aliases
