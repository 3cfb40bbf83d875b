"""Tier 1, objects, abilities and effects as data; what the rules see of a game (`RulesContext`); the narrator."""
