# Sourced by the scripts that check the built planekit binary (check-cli.sh, check-sequences.sh),
# from the repository root, with the check's name as its argument: sets PLANEKIT (the release
# build's binary unless given), OUT (a scratch folder removed on exit), a failure count and
# fail MESSAGE, which prints "NAME: MESSAGE" on stderr and counts it.
PLANEKIT="${PLANEKIT:-$PWD/.build/release/planekit}"
OUT=$(mktemp -d "${TMPDIR:-/tmp}/planekit-$1.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
failures=0
check_name=$1
fail() { echo "$check_name: $1" >&2; failures=$((failures + 1)); }
