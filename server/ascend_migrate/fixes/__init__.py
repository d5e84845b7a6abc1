"""fixes room."""
