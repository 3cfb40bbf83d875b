"""Views of the checkout around the package (tests, notebooks, diagrams): not the engine."""
