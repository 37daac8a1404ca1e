"""Shared fixtures: the repository, the CLI the Swift build made, the sample frame and the shared data."""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
SHARED_DATA = REPOSITORY.parent / "shared" / "data"
SAMPLE = REPOSITORY / "samples" / "room-depth.png"


def cli_path():
    """The planekit executable: $PLANEKIT_CLI, else the release build's, else one on PATH."""
    given = os.environ.get("PLANEKIT_CLI")
    if given:
        return Path(given)
    built = REPOSITORY / ".build" / "release" / "planekit"
    if built.exists():
        return built
    found = shutil.which("planekit")
    return Path(found) if found else None


@pytest.fixture(scope="session")
def cli():
    path = cli_path()
    if path is None or not path.exists():
        pytest.skip("the planekit CLI is not built (swift build -c release --product planekit)")
    return path


@pytest.fixture(scope="session")
def sample():
    import planekit
    return planekit.read(SAMPLE)


def run_cli(cli, *arguments):
    """Runs the CLI and returns its standard output; fails the test on a non-zero exit."""
    return subprocess.run([str(cli), *map(str, arguments)], check=True, capture_output=True, text=True).stdout


def shared(relative):
    """A file of ../shared/data, or skip the test when it is absent."""
    path = SHARED_DATA / relative
    if not path.exists():
        pytest.skip(f"{path} absent")
    return path
