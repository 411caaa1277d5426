"""cruxgate pytest plugin (being built): registers nothing yet."""
