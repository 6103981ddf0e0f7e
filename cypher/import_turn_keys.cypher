// name: import_turn_keys
// The statements earlier runs recorded for these turns, in the order each turn said them
// (ASSERTED's order; an edge written before order existed sorts first, then by key): a resumed
// import places them in their conversations' time instead of extracting the turns again.
// $turns: list<string> (Turn ids)
// Returns one row: rows, a list of {turn, keys (list<string>)}, for the turns that asserted
// something.
UNWIND $turns AS id
MATCH (:Turn {id: id})-[a:ASSERTED]->(:Belief)
WITH id, a ORDER BY id, coalesce(a.order, -1), a.key
WITH id, collect(a.key) AS keys
RETURN collect({turn: id, keys: keys}) AS rows
