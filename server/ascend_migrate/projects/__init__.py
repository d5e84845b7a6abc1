"""Whole projects: `migrate` (a fixed copy with the Ascend tool's analysis files), entry points, single card → multi card, third-party lists."""
