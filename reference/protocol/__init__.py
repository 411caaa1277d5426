"""Protocol v1: metadata, the error registry, argument validation and response shaping."""
