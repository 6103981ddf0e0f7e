// name: gate_belief_total
// How many beliefs the whole store holds (from the count store: constant time), to size
// the vector index over-fetch.
// Returns: total.
MATCH (b:Belief)
RETURN count(b) AS total
