"""Behaviour of the Part B cards: zones, tokens, copies, combat, exert, control."""

from __future__ import annotations

from rulekit.cards import behaviour

behaviour('Slagstone Refinery')(lambda: [])  # TODO part 2
behaviour('Thopter')(lambda: [])  # TODO part 2
behaviour('Bonesplitter')(lambda: [])  # TODO part 2
behaviour('Paradise Mantle')(lambda: [])  # TODO part 2
behaviour("Cultivator's Caravan")(lambda: [])  # TODO part 2
behaviour("Smuggler's Copter")(lambda: [])  # TODO part 2
behaviour('Metallic Mimic')(lambda: [])  # TODO part 2
behaviour("Mishra's Factory")(lambda: [])  # TODO part 2
behaviour('Arena of Glory')(lambda: [])  # TODO part 2
behaviour('Gilded Goose')(lambda: [])  # TODO part 2
behaviour('Clone')(lambda: [])  # TODO part 2
behaviour('Kiki-Jiki, Mirror Breaker')(lambda: [])  # TODO part 2
behaviour('Tolarian Terror')(lambda: [])  # TODO part 2
behaviour('Glory-Bound Initiate')(lambda: [])  # TODO part 2
behaviour('Combat Celebrant')(lambda: [])  # TODO part 2
behaviour('Tah-Crop Elite')(lambda: [])  # TODO part 2
behaviour('Sandstorm Crasher')(lambda: [])  # TODO part 2
behaviour('Dwarven Trader')(lambda: [])  # TODO part 2
behaviour("Mons's Goblin Raiders")(lambda: [])  # TODO part 2
behaviour('Always Watching')(lambda: [])  # TODO part 2
behaviour('Oblivion Ring')(lambda: [])  # TODO part 2
behaviour('Silkwrap')(lambda: [])  # TODO part 2
behaviour('Control Magic')(lambda: [])  # TODO part 2
behaviour('Cackling Counterpart')(lambda: [])  # TODO part 2
behaviour('Stolen Identity')(lambda: [])  # TODO part 2
behaviour('Double Major')(lambda: [])  # TODO part 2
behaviour('Act of Treason')(lambda: [])  # TODO part 2
behaviour('Mana Leak')(lambda: [])  # TODO part 2
behaviour('Shock')(lambda: [])  # TODO part 2
behaviour('Pyroclasm')(lambda: [])  # TODO part 2
behaviour('Naturalize')(lambda: [])  # TODO part 2
behaviour('Shatterstorm')(lambda: [])  # TODO part 2
behaviour('Boomerang')(lambda: [])  # TODO part 2
behaviour('Food')(lambda: [])  # TODO part 2
