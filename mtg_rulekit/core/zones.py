"""The game zones (CR 400.1), named by the events that move objects and by the state."""

from __future__ import annotations

from enum import Enum


class Zone(str, Enum):
    """The game zones (CR 400.1)."""

    LIBRARY = "library"
    HAND = "hand"
    BATTLEFIELD = "battlefield"
    GRAVEYARD = "graveyard"
    STACK = "stack"
    EXILE = "exile"
    NOWHERE = "nowhere"  # a token that ceased to exist, or an object not yet anywhere
