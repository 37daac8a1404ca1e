"""Builds libPlaneKitC with the Swift toolchain and bundles it into the package.

`pip install ./python` runs `swift build -c release --product PlaneKitC` in the repository (the
parent of this folder) and copies, into planekit/_lib/, the library, the PCL bridge it opens for
unorganized clouds, and the Swift runtime libraries they link (found with ldd under the
toolchain), so the wheel runs where no Swift toolchain is installed; libPlaneKitC's RUNPATH
includes $ORIGIN. PLANEKIT_LIBRARY_DIR names a folder with an already built libPlaneKitC.so
instead (scripts/test.sh passes the test build's).
"""
import os
import shutil
import subprocess
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
REPOSITORY = HERE.parent
LIBRARY = "libPlaneKitC.so"
PCL_BRIDGE = "libPlaneKitPCLBridge.so"


def built_library_dir() -> Path:
    """The folder holding libPlaneKitC.so: PLANEKIT_LIBRARY_DIR, or a fresh release build."""
    given = os.environ.get("PLANEKIT_LIBRARY_DIR")
    if given:
        return Path(given).resolve()
    for product in ("PlaneKitC", "PlaneKitPCLBridge"):
        subprocess.run(["swift", "build", "-c", "release", "--product", product], cwd=REPOSITORY, check=True)
    output = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=REPOSITORY, check=True,
                            capture_output=True, text=True).stdout
    return Path(output.strip())


def swift_runtime_libraries(library: Path) -> list:
    """The libraries `library` loads from the Swift toolchain (not the system's), by ldd."""
    swift = shutil.which("swift")
    if swift is None:
        return []
    toolchain = Path(swift).resolve().parent.parent
    found = []
    for line in subprocess.run(["ldd", str(library)], check=True, capture_output=True, text=True).stdout.splitlines():
        parts = line.split("=>")
        if len(parts) == 2 and parts[1].strip():
            path = Path(parts[1].split("(")[0].strip())
            if toolchain in path.parents:
                found.append(path)
    return found


class BuildWithLibrary(build_py):
    """build_py that first puts the native library and its runtime into planekit/_lib/."""

    def run(self):
        source = built_library_dir()
        target = HERE / "planekit" / "_lib"
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        shutil.copy2(source / LIBRARY, target / LIBRARY)
        if (source / PCL_BRIDGE).exists():
            shutil.copy2(source / PCL_BRIDGE, target / PCL_BRIDGE)
        for runtime in swift_runtime_libraries(source / LIBRARY):
            shutil.copy2(runtime, target / runtime.name)
        include = HERE / "planekit" / "include"
        include.mkdir(exist_ok=True)
        shutil.copy2(REPOSITORY / "Sources" / "CPlaneKit" / "include" / "planekit.h", include / "planekit.h")
        super().run()


class BinaryDistribution(Distribution):
    """The wheel carries a native library, so it is tagged for this platform."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildWithLibrary}, distclass=BinaryDistribution)
