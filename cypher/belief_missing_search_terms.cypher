// name: belief_missing_search_terms
// Beliefs written before name_edits and text_words existed (the terms search finds names and
// texts by: beliefgraph/index_keys.py, beliefgraph/search/), in id order after $after, so
// that a store is walked once.
// $after: string ('' from the start); $limit: int.
// Returns up to $limit rows: id, canonical_name (or null), aliases (list<string>), text.
MATCH (b:Belief)
WHERE b.id > $after AND (b.name_edits IS NULL OR b.text_words IS NULL)
RETURN b.id AS id, b.canonical_name AS canonical_name, coalesce(b.aliases, []) AS aliases,
       coalesce(b.text, '') AS text
ORDER BY b.id
LIMIT $limit
