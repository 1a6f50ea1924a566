import os

from hypothesis import HealthCheck, settings

# CI machines are slow and noisy: no per-example deadline there.
settings.register_profile("ci", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
