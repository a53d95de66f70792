"""Entity heads (``--entity-heads``): the game's card actions scored by one network shared by
all cards, from each card's own observation entries (`card_envs.agents.neural.EntityScorer`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

import card_envs
from card_envs.agents.neural import ActorCritic, EntityScorer, entity_arrays, load_checkpoint
from card_envs.core.layout import ActionEntities, Layout, Piece
from card_envs.core.cards import RANK, SUIT
from card_envs.games.illimat.cards import CARD0, NUM_CARDS
from card_envs.vector import VectorGames
from card_envs.train.acting import StackedPolicies, make_network
from card_envs.train.ppo import Args, Trainer, start
from tests.train.test_train import assert_checkpoint_acts_as_the_trainer, tiny_args

ILLIMAT = card_envs.make_game("illimat_v0", harvest_features=True)


def test_action_entities_gather_each_entitys_entries_piece_by_piece():
    layout = Layout([Piece("a", (3,), ""), Piece("b", (2, 3), ""), Piece("c", (4,), "")])
    entities = ActionEntities(5, ("b", "a"), np.eye(3, dtype=np.float32))
    np.testing.assert_array_equal(entities.index(layout), [[3, 6, 0], [4, 7, 1], [5, 8, 2]])
    with pytest.raises(ValueError, match=r"piece 'c' has shape \(4,\): its last axis must have the 3 entities"):
        ActionEntities(0, ("c",), np.eye(3, dtype=np.float32)).index(layout)


@pytest.mark.parametrize("config", [{}, {"harvest_features": True, "num_players": 3},
                                    {"harvest_features": True, "play_features": True},
                                    {"harvest_features": True, "play_features": True, "threat_features": True}])
def test_illimat_card_entities_read_each_cards_own_entries(config):
    game = card_envs.make_game("illimat_v0", **config)
    cards = game.action_entities[0]
    assert cards.first_action == CARD0 and cards.count == NUM_CARDS
    observations, _, _ = VectorGames(game, 4, seed=0).observe()
    gathered = observations[:, cards.index(game.observation_layout)]  # [B, 65, F]
    views = game.observation_layout.views(observations)
    expected = np.concatenate([views[name].reshape(4, -1, NUM_CARDS) for name in cards.pieces], 1).transpose(0, 2, 1)
    np.testing.assert_array_equal(gathered, expected)
    assert gathered[:, :, 0].sum() == observations[:, game.observation_layout.slices["hand"]].sum() > 0
    c = 30  # rank 5 of suit 2
    assert RANK[c] == 5 and SUIT[c] == 2 and np.flatnonzero(cards.identity[c]).tolist() == [4, 13 + 2]


def test_an_entitys_score_reads_only_its_own_entries():
    torch.manual_seed(0)
    (first, index, identity), = entity_arrays(ILLIMAT)
    scorer = EntityScorer(16, first, index, identity)
    observations, hidden = torch.rand(3, ILLIMAT.observation_size), torch.rand(3, 16)
    before = scorer(observations, hidden)
    changed = observations.clone()
    changed[:, index[7]] += 1.0  # card 7's entries only
    after = scorer(changed, hidden)
    assert not torch.allclose(after[:, 7], before[:, 7])
    others = [c for c in range(NUM_CARDS) if c != 7]
    torch.testing.assert_close(after[:, others], before[:, others])


def test_entity_scores_add_to_the_card_logits_and_leave_the_other_actions_alone():
    torch.manual_seed(0)
    plain = ActorCritic(ILLIMAT.observation_size, ILLIMAT.num_actions, (32,))
    net = ActorCritic(ILLIMAT.observation_size, ILLIMAT.num_actions, (32,), None, entity_arrays(ILLIMAT))
    net.load_state_dict(plain.state_dict(), strict=False)  # same trunk and heads
    assert plain.takes_columns and not net.takes_columns  # the scorers read the observation by position
    observations = torch.rand(5, ILLIMAT.observation_size)
    logits, values = net.heads(observations)
    base, base_values = plain.heads(observations)
    torch.testing.assert_close(logits[:, NUM_CARDS:], base[:, NUM_CARDS:])
    torch.testing.assert_close(values, base_values)
    hidden = net.trunk(observations)
    torch.testing.assert_close(logits[:, :NUM_CARDS], base[:, :NUM_CARDS] + net.entity_scorers[0](observations, hidden))


def test_entity_heads_need_a_game_that_declares_entities():
    with pytest.raises(ValueError, match="--entity-heads: three_piles declares no entity actions"):
        make_network(card_envs.make_game("three_piles_v0"), Args(entity_heads=True))


def test_stacked_snapshots_with_entity_heads_run_each_networks_own_forward():
    torch.manual_seed(0)
    networks = [ActorCritic(ILLIMAT.observation_size, ILLIMAT.num_actions, (16,), None, entity_arrays(ILLIMAT))
                for _ in range(2)]
    observations, masks, _ = VectorGames(ILLIMAT, 6, seed=2).observe()
    which = np.array([1, 0, 1, 1, 0, 1])
    logits = StackedPolicies(networks).logits(which, observations, masks)
    for row, k in enumerate(which):
        with torch.no_grad():
            expected, _ = networks[k](torch.from_numpy(observations[row:row + 1]), torch.from_numpy(masks[row:row + 1]))
        torch.testing.assert_close(logits[row], expected[0])


def test_a_run_with_entity_heads_checkpoints_loads_and_resumes(tmp_path):
    # play_features: the field actions are a second run of entities, with their own scorer
    args = tiny_args(tmp_path, env_id="illimat_v0",
                     env_config={"harvest_features": True, "play_features": True, "threat_features": True},
                     entity_heads=True, total_steps=256, opponent_share=0.0)
    trainer = start(args, set())
    trainer.train()
    path = Path(tmp_path) / "t" / "checkpoints" / "latest.pt"
    checkpoint = load_checkpoint(path)
    assert checkpoint["entity_heads"] is True and "entity_scorers.1.index" in checkpoint["model"]
    assert_checkpoint_acts_as_the_trainer(path, trainer)
    resumed = start(Args(run_name="t", runs_dir=str(tmp_path), resume=True, total_steps=512, progress=False),
                    {"total_steps"})
    assert resumed.args.entity_heads and resumed.step >= 256
    with pytest.raises(ValueError, match="entity heads"):
        Trainer(tiny_args(tmp_path, env_id="illimat_v0", env_config={"harvest_features": True}), checkpoint)


@pytest.mark.parametrize("env_id", card_envs.list_envs())
def test_every_declared_entity_run_fits_the_game(env_id):
    game = card_envs.make_game(env_id)
    for entities in game.action_entities:
        index = entities.index(game.observation_layout)
        assert index.shape[0] == entities.count == len(entities.identity)
        assert 0 <= index.min() and index.max() < game.observation_size
        assert 0 <= entities.first_action and entities.first_action + entities.count <= game.num_actions


def test_scoring_the_legal_entities_alone_gives_their_logits_and_gradients():
    """`heads(..., legal=masks)` scores only the legal card actions: the legal logits and every
    gradient of a loss over the masked logits equal the dense scoring's, rows with no legal card too."""
    torch.manual_seed(1)
    game = card_envs.make_game("illimat_v0", harvest_features=True, play_features=True)
    network = ActorCritic(game.observation_size, game.num_actions, (32, 32), None, entity_arrays(game))
    observations, masks, _ = VectorGames(game, 24, seed=3).observe()
    observations, masks = torch.from_numpy(observations), torch.from_numpy(masks)
    masks[0, CARD0:CARD0 + NUM_CARDS] = False  # a row without a legal card
    masks[0, 0] = True
    assert masks[:, CARD0:CARD0 + NUM_CARDS].any()
    results = []
    for legal in (None, masks):
        network.zero_grad()
        logits, values = network.heads(observations, legal=legal)
        masked = logits.masked_fill(~masks, -1e9)
        (masked.log_softmax(1)[masks].sum() + values.sum()).backward()
        results.append((logits[masks].detach(), {n: p.grad.clone() for n, p in network.named_parameters()}))
    (dense_logits, dense_grads), (legal_logits, legal_grads) = results
    torch.testing.assert_close(legal_logits, dense_logits, rtol=1e-5, atol=1e-6)
    for name, grad in dense_grads.items():
        torch.testing.assert_close(legal_grads[name], grad, rtol=1e-4, atol=1e-5, msg=name)
