"""Tier 0, the vocabulary: errors, the rule texts, mana, events and their payloads, costs, decisions."""
