import os
import signal

from hypothesis import HealthCheck, settings

# CI machines are slow and noisy: no per-example deadline there.
settings.register_profile("ci", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def log_fuzz_run(target: str, examples: int, seconds: float, failures: int) -> None:
    """Notes a long fuzz run's counts in the file ``HOLDEM_FUZZ_LOG`` names (if any)."""
    path = os.environ.get("HOLDEM_FUZZ_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as log:
            log.write(f"{target}\t{examples} examples\t{seconds:.0f} s\t{failures} failures\n")


def with_ctrl_c() -> None:
    """``preexec_fn`` of a child that must answer Ctrl-C as a user's would.

    A shell starts background jobs with SIGINT ignored, children inherit that,
    and Python then leaves it so: a test run in the background (as CI may
    run it) would otherwise send signals nobody hears.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
