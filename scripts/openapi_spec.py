"""Print the HTTP API's OpenAPI document, as ``memforest serve`` answers it at ``/openapi.json``.

    python scripts/openapi_spec.py > openapi.json

The app is built without a database or worker; a placeholder admin key satisfies its start-up
check (the document does not contain it). The TypeScript client generates its types from this
document (``clients/typescript``: ``npm run generate``).
"""

from __future__ import annotations

import json
import sys

from pydantic import SecretStr

from memforest.servers import create_app
from memforest.settings import Settings

PLACEHOLDER_ADMIN_KEY = "openapi-" + "placeholder-admin-key-0000"


def main() -> int:
    settings = Settings(admin_key=SecretStr(PLACEHOLDER_ADMIN_KEY))
    spec = create_app(settings, start_worker=False).openapi()
    json.dump(spec, sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
