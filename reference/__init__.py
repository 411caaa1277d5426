"""The cruxgate reference server: config -> index -> query -> protocol -> server."""
