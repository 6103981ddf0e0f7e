// name: belief_set_search_terms
// Sets name_edits and text_words on beliefs that lack them (see belief_missing_search_terms).
// $rows: list of {id, name_edits: string, text_words: string}.
// Returns: updated (count).
UNWIND $rows AS row
MATCH (b:Belief {id: row.id})
WHERE b.name_edits IS NULL OR b.text_words IS NULL
SET b.name_edits = row.name_edits, b.text_words = row.text_words
RETURN count(b) AS updated
