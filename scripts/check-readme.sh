#!/usr/bin/env bash
# Runs the commands of the README (and of the docs' blocks marked runnable) against the release
# binaries, and checks that every relative link and #anchor in README.md and docs/*.md resolves,
# so what a user copies from the guide is proven by the same command as the tests.
#   scripts/check-readme.sh                                     # after a release build (.build/release)
#   PLANEKIT_BIN_DIR=/path/to/bin scripts/check-readme.sh      # other binaries
#
# Which blocks run:
#   README.md   every ```sh block, unless its fence says ```sh no-check or the line right above
#               it is an HTML comment starting with <!-- no-check (say why after it).
#   docs/*.md   only ```sh check blocks, or ```sh blocks right below <!-- check -->.
# A skipped block is listed with its reason. Each file's commands run in a scratch folder of its
# own (a copy of samples/ in it; blocks in file order, so a later block can use an earlier one's
# files), with
# `set -o pipefail` and a time limit (CHECK_README_TIMEOUT seconds, 30 by default). A command
# ending in `&` runs in the background until a `wait` line (or the end of its file's blocks).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bin_dir=$(cd "${PLANEKIT_BIN_DIR:-$root/.build/release}" 2>/dev/null && pwd) || {
    echo "check-readme: no binaries in ${PLANEKIT_BIN_DIR:-.build/release}: build with swift build -c release" >&2
    exit 1
}
[[ -x "$bin_dir/planekit" ]] || { echo "check-readme: $bin_dir/planekit is missing" >&2; exit 1; }
limit=${CHECK_README_TIMEOUT:-30}
OUT=$(mktemp -d "${TMPDIR:-/tmp}/planekit-readme.XXXXXX")
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$OUT"' EXIT
failures=0
started=$SECONDS

# 1. Links and anchors: one line per broken one.
if ! python3 - README.md docs/*.md <<'EOF'
import os, re, sys

def slug(text):
    # GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens.
    text = re.sub(r"`|\*\*|<[^>]+>", "", text.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")

def prose(path):
    """The file's lines outside fenced code blocks, with their numbers."""
    fenced = False
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line

anchors = {}
def anchors_of(path):
    if path not in anchors:
        seen, found = {}, set()
        for _, line in prose(path):
            match = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
            if match:
                base = slug(match.group(1))
                count = seen.get(base, 0)
                seen[base] = count + 1
                found.add(base if count == 0 else f"{base}-{count}")
            found.update(re.findall(r"<a\s+(?:name|id)=\"([^\"]+)\"", line))
        anchors[path] = found
    return anchors[path]

broken = 0
for path in sys.argv[1:]:
    for number, line in prose(path):
        line = re.sub(r"`[^`]*`", "", line)            # links in code spans are not links
        for target in re.findall(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", line):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):
                continue                                # https:, mailto:
            file, _, anchor = target.partition("#")
            resolved = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
            if not os.path.exists(resolved):
                print(f"check-readme: {path}:{number}: link to a missing file: {target}", file=sys.stderr)
                broken += 1
            elif anchor and resolved.endswith(".md") and anchor not in anchors_of(resolved):
                print(f"check-readme: {path}:{number}: no heading for #{anchor} in {resolved}", file=sys.stderr)
                broken += 1
sys.exit(1 if broken else 0)
EOF
then
    failures=$((failures + 1))
fi

# 2. The commands, as records "FILE:LINE<TAB>run|skip<TAB>command or reason", NUL-separated.
python3 - README.md docs/*.md > "$OUT/commands" <<'EOF'
import re, sys
for path in sys.argv[1:]:
    readme = path == "README.md"
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        fence = re.match(r"\s*```(\S*)\s*(.*)$", lines[i])
        if not fence:
            i += 1
            continue
        language, info = fence.group(1), fence.group(2)
        end = i + 1
        while end < len(lines) and not lines[end].lstrip().startswith("```"):
            end += 1
        above = lines[i - 1].strip() if i > 0 else ""
        if language in ("sh", "bash", "shell"):
            where = f"{path}:{i + 1}"
            if readme:
                note = re.match(r"<!--\s*no-check\b:?\s*(.*?)\s*-->", above)
                if "no-check" in info.split() or note:
                    reason = (note.group(1) if note else "") or "marked no-check"
                    sys.stdout.write(f"{where}\tskip\t{reason}\0")
                    i = end + 1
                    continue
            elif not ("check" in info.split() or re.match(r"<!--\s*check\s*-->", above)):
                i = end + 1
                continue
            command, first = "", None
            for number in range(i + 1, end):
                line = lines[number]
                if not command and (not line.strip() or line.lstrip().startswith("#")):
                    continue
                first = first or number + 1
                if line.endswith("\\"):
                    command += line[:-1] + " "
                    continue
                command += line
                sys.stdout.write(f"{path}:{first}\trun\t{command.strip()}\0")
                command, first = "", None
        i = end + 1
EOF

export PATH="$bin_dir:$PATH"
ran=0
skipped=0
background=()
current_file=
work=
files=0

# finish_background: waits for the commands started with `&` and reports each that failed.
finish_background() {
    local entry pid status
    for entry in "${background[@]}"; do
        pid=${entry%%$'\t'*}
        status=0
        wait "$pid" || status=$?
        if ((status != 0)); then
            report "${entry#*$'\t'}" "$status"
        fi
    done
    background=()
}

# report "WHERE<TAB>COMMAND" STATUS: the one line naming a failed command.
report() {
    local why="exit status $2"
    (($2 == 124)) && why="over the ${limit} s limit"
    echo "check-readme: ${1%%$'\t'*}: failed ($why): ${1#*$'\t'}" >&2
    failures=$((failures + 1))
}

while IFS=$'\t' read -r -d '' where kind command; do
    file=${where%%:*}
    if [[ $file != "$current_file" ]]; then
        finish_background
        current_file=$file
        files=$((files + 1))
        work="$OUT/work-$files"
        mkdir -p "$work"
        cp -R samples "$work/samples"
    fi
    if [[ $kind == skip ]]; then
        echo "check-readme: skipped the block at $where ($command)"
        skipped=$((skipped + 1))
        continue
    fi
    ran=$((ran + 1))
    if [[ $command == wait ]]; then
        finish_background
        continue
    fi
    if [[ $command =~ ^(.*[^&])\&[[:space:]]*$ ]]; then
        (cd "$work" && exec timeout "$limit" bash -o pipefail -c "${BASH_REMATCH[1]}" < /dev/null > /dev/null 2>> "$OUT/stderr") &
        background+=("$!"$'\t'"$where"$'\t'"$command")
        continue
    fi
    status=0
    (cd "$work" && exec timeout "$limit" bash -o pipefail -c "$command" < /dev/null > "$OUT/stdout" 2> "$OUT/stderr") || status=$?
    if ((status != 0)); then
        report "$where"$'\t'"$command" "$status"
        sed 's/^/    /' "$OUT/stderr" | tail -n 3 >&2
    fi
done < "$OUT/commands"
finish_background

elapsed=$((SECONDS - started))
if ((failures > 0)); then
    echo "check-readme: $failures check(s) failed ($ran commands run, $skipped blocks skipped, ${elapsed} s)" >&2
    exit 1
fi
echo "check-readme: $ran commands ran, $skipped blocks skipped, every link resolves (${elapsed} s)"
