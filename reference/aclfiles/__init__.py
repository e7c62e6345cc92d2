"""ACL sets in files: the text ``kafka-acls.sh --list`` prints, and our JSON and
YAML documents, read with located errors and written back.
"""

from __future__ import annotations
