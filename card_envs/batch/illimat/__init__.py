"""Batched Illimat: see `card_envs.batch.illimat.engine`."""
