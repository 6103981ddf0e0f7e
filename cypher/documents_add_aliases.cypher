// name: documents_add_aliases
// Adds aliases to a belief (those it already has are not repeated), and to the entity
// named by its canonical name, so both the belief and the entity answer to the new names.
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
  MATCH (b)-[:ABOUT]->(e:Entity)
  WHERE e.name = b.canonical_name
  WITH e, reduce(acc = coalesce(e.aliases, []), a IN $aliases |
                 CASE WHEN a IN acc THEN acc ELSE acc + a END) AS aliases
  SET e.aliases = aliases, e.aliases_text = reduce(s = '', a IN aliases | s + ' ' + a)
}
RETURN b.aliases AS aliases
