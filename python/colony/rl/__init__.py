"""Reinforcement learning on ``Colony-v0`` (the optional ``rl`` extra: ``pip install
'./python[gym,rl]'``, PyTorch). ``colony.rl.ppo`` is a single-file PPO baseline (docs/python.md,
"Trained baseline (PPO)"); nothing here is imported by ``colony`` itself."""
