"""Print one of the README's two commands (`run` or `test`), so CI runs exactly what the README says."""

import re
import sys
from pathlib import Path

which = sys.argv[1]
readme = Path(__file__).resolve().parent.parent.joinpath("README.md").read_text(encoding="utf-8")
match = re.search(rf"<!-- {which}-command -->\s*```(?:bash|sh)?\n(.*?)```", readme, re.S)
if match is None:
    sys.exit(f"README.md has no '<!-- {which}-command -->' block")
print(" && ".join(line.strip() for line in match.group(1).strip().splitlines() if line.strip() and not line.lstrip().startswith("#")))
