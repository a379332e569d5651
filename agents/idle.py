#!/usr/bin/env python3
"""The idle baseline: reads its turn's prompt and does nothing.

It shows what the scenario's weather and starting stores do to a colony left alone: on Normal,
which starts without water, everyone dies of thirst within about a week.
"""

import sys

if __name__ == "__main__":
    sys.stdin.read()
