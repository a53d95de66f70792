"""``python -m card_envs.replay view REPLAY.json``: see `card_envs.replay.view`."""

import sys

from card_envs.replay.view import main

sys.exit(main())
