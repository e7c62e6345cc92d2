from __future__ import annotations

import sys
from pathlib import Path

# The independent authorizer the mutants derive from lives in examples/.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "python_authorizer"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
