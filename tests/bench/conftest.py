"""Shared set-up of the bench tests."""

import pytest


@pytest.fixture(autouse=True)
def _restore_registries():
    """Test plugins register failing planners in this process too (a sweep is
    validated here): take them out again so no other test ever calls them."""
    from robomaze.bench import plugins
    from robomaze.plan import PLANNERS

    # the specs, not the functions: a bare function would lose its options,
    # flags and warm-up declaration
    before, loaded = {n: PLANNERS.spec(n) for n in PLANNERS}, dict(plugins._loaded)
    yield
    PLANNERS.clear()
    PLANNERS.update(before)
    plugins._loaded.clear()
    plugins._loaded.update(loaded)
