"""Split the Hoard's scripted agent: `heuristic` (`SplitTheHoardHeuristic`), and its compiled
`act_batch` split by concern: `layout` (codes, tables, row state), `worth` (reading the
observation, valuing a position, the criterion cache) and `batch` (the decisions).
"""
