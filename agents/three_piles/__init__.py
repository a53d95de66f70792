"""3 Piles' scripted agent: `heuristic` (`ThreePilesHeuristic`, with its compiled `act_batch`).
"""
