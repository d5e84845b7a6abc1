"""kb room."""
