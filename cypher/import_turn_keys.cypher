// name: import_turn_keys
// The statements earlier runs recorded for these turns, in the order each turn said them
// (ASSERTED's order): a resumed import places them in their conversations' time instead of
// extracting the turns again. An edge written before order existed sorts last, by key, and
// its turn says it is not ordered (the importer orders those by extracting the turn).
// $turns: list<string> (Turn ids)
// Returns one row: rows, a list of {turn, keys (list<string>), ordered (bool)}, for the
// turns that asserted something.
UNWIND $turns AS id
MATCH (:Turn {id: id})-[a:ASSERTED]->(:Belief)
// read as a map: in a store where no edge has an order, a.order would have the server warn
WITH id, a, properties(a).order AS position
ORDER BY id, position IS NULL, position, a.key
WITH id, collect(a.key) AS keys, count(position) = count(*) AS ordered
RETURN collect({turn: id, keys: keys, ordered: ordered}) AS rows
