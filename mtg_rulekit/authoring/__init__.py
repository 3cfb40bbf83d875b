"""Tools for people writing lessons and scenarios: the card list, a new lesson from the template."""
