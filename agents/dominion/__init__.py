"""Dominion's scripted bots: `bots` (Smithy-BM, Big Money Ultimate, BigSmithy, Witch-BM,
Catapult/Rocks-BM, Townsfolk/Forts-BM) and `batch` (their compiled `act_batch`).
"""
