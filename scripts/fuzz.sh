#!/usr/bin/env bash
# Coverage-guided fuzzing of PlaneKit's input parsers with libFuzzer and AddressSanitizer.
#
#   scripts/fuzz.sh [TARGET|all] [SECONDS]     (default: all, 60 s per target)
#   scripts/fuzz.sh list                       (the targets)
#
# Targets (Fuzz/Targets/<target>.swift): pcd ply xyz pgm png tiff sidecar-json sidecar-xml stream.
# The input targets call Tests/PlaneKitInputTests/FuzzDecoding.swift, compiled into both the
# fuzz binaries and the tests, so the tests replay findings through the same calls.
# Each runs for SECONDS, one after another on one core, from the committed seeds
# (Fuzz/corpus/<target>/, written by Fuzz/make-seeds.py), plus the start of matching files in
# ../shared/data when that folder is there. The growing corpus lives in .build/fuzz/corpus/.
#
# A crash, a leak, an input taking more than 2 s or memory above 2 GiB is a failure: the script
# copies the reproducer to Fuzz/regressions/<target>/ (which the test suite replays, see
# FuzzRegressionTests), prints its path and exits 1 after the remaining targets have run.
#
# How it builds, without unsafe flags in Package.swift: SwiftPM compiles the library modules
# into their own scratch path (.build/fuzz) with `-sanitize=fuzzer,address` (coverage
# instrumentation and ASan) and `-enable-testing` (the targets call internal decoders through
# @testable import); swiftc then links each target file against those object files, with
# libFuzzer's main from the Swift toolchain's clang runtime.
set -euo pipefail
cd "$(dirname "$0")/.."

all_targets=(pcd ply xyz pgm png tiff sidecar-json sidecar-xml stream world-map)
target=${1:-all}
seconds=${2:-60}
if [[ $target == list ]]; then printf '%s\n' "${all_targets[@]}"; exit 0; fi
if [[ $target == all ]]; then
    targets=("${all_targets[@]}")
elif [[ " ${all_targets[*]} " == *" $target "* ]]; then
    targets=("$target")
else
    echo "fuzz: unknown target '$target' (one of: ${all_targets[*]}, or all)" >&2
    exit 2
fi
if ! [[ $seconds =~ ^[0-9]+$ ]] || (( seconds < 1 )); then
    echo "fuzz: SECONDS must be a whole number of seconds ≥ 1, not '$seconds'" >&2
    exit 2
fi

# The largest input each target is given (bytes): room for a small file of the format with a
# few hundred points or pixels; the stream's fits two 80 × 60 depth16 frames and commands.
max_len() {
    case $1 in
        stream) echo 24576 ;;
        world-map) echo 16384 ;;
        sidecar-json | sidecar-xml | xyz) echo 4096 ;;
        *) echo 8192 ;;
    esac
}

# The longest one input may take (s), for every target: issue 14's 2 s. The stream target is
# built with ASan and libFuzzer's comparison tracing, which make detection and tracking about
# 10 times slower than a release build; its slowest input so far,
# Fuzz/regressions/stream/far-wall-53m-slow-occupancy.bin, took 3 s instrumented (0.15 s in
# release) until the covered-ground grid was bounded by its side (PlaneOccupancy.maximumSide).
timeout_seconds=2

# Matching files in ../shared/data that seed a target's working corpus (their first max_len bytes).
shared_seeds() {
    local data=../shared/data
    [[ -d $data ]] || return 0
    case $1 in
        pcd) find "$data" -iname '*.pcd' ;;
        ply) find "$data" -iname '*.ply' ;;
        xyz) find "$data" \( -iname '*.xyz' -o -iname '*.csv' \) ;;
        pgm) find "$data" -iname '*.pgm' ;;
        png) find "$data" -iname '*.png' ;;
        tiff) find "$data" \( -iname '*.tif' -o -iname '*.tiff' \) ;;
        sidecar-json) find "$data" -iname '*.json' ;;
        sidecar-xml) find "$data" -iname '*.xml' ;;
        stream | world-map) ;;
    esac | sort | head -n 4
}

# What the build needs: zlib and libdeflate (scripts/install-deps.sh installs them with apt when missing) and libFuzzer, which ships with the Swift toolchain's clang (not in apt's clang).
scripts/install-deps.sh
swiftc_path=$(command -v swiftc)
toolchain=$(dirname "$(dirname "$(readlink -f "$swiftc_path")")")
if ! compgen -G "$toolchain/lib/clang/*/lib/linux/libclang_rt.fuzzer-$(uname -m).a" >/dev/null; then
    echo "fuzz: libFuzzer (libclang_rt.fuzzer) is not in the Swift toolchain at $toolchain; use a swift.org Linux toolchain" >&2
    exit 1
fi

scratch=.build/fuzz
release=$scratch/release
needs_stream=0
for t in "${targets[@]}"; do [[ $t == stream || $t == world-map ]] && needs_stream=1; done
modules=(PlaneKitCloudIO)
(( needs_stream )) && modules+=(PlaneKitStream)

build_start=$SECONDS
for module in "${modules[@]}"; do
    echo "fuzz: building $module and what it needs, instrumented (.build/fuzz)" >&2
    nice -n 10 swift build -c release --scratch-path "$scratch" -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing \
        --target "$module" >&2
done

link_flags=(-I "$release/Modules" -Xcc "-fmodule-map-file=Sources/System/CZlib/module.modulemap"
            -Xcc "-fmodule-map-file=Sources/System/CLibdeflate/module.modulemap"
            "$release"/PlaneKitGeometry.build/*.o "$release"/PlaneKitInput.build/*.o "$release"/PlaneKitCloudIO.build/*.o
            -lz -ldeflate)
mkdir -p "$release/fuzzers"
for t in "${targets[@]}"; do
    flags=("${link_flags[@]}")
    if [[ $t == stream || $t == world-map ]]; then
        # Neither PCL nor its bridge is linked: stream frames are organized, and only the
        # unorganized detector (not a dependency of the stream) reaches the bridge.
        flags+=(-Xcc "-fmodule-map-file=$release/CLinuxIO.build/module.modulemap")
        flags+=("$release"/PlaneKit{Planes,Detection,HitTesting,Anchors,CameraTracking,Maps,Evaluation,Pictures,StreamFormat,Stream}.build/*.o
                "$release"/CLinuxIO.build/*.o)
    fi
    sources=("Fuzz/Targets/$t.swift")
    # The input targets share their decoding with the tests that replay their findings.
    [[ $t != stream && $t != world-map ]] && sources+=(Tests/PlaneKitInputTests/FuzzDecoding.swift)
    binary=$release/fuzzers/fuzz-$t
    newer=$(find "${sources[@]}" -newer "$binary" 2>/dev/null || true)
    # Relinked when its sources or any object the build wrote is newer (linking takes seconds).
    if [[ ! -x $binary || -n $newer || -n $(find "$release" -name '*.o' -newer "$binary" -print -quit) ]]; then
        nice -n 10 swiftc -O -parse-as-library -sanitize=fuzzer,address -use-ld=lld -module-name "fuzz_${t//-/_}" \
            "${sources[@]}" "${flags[@]}" -o "$binary"
    fi
done
echo "fuzz: built in $((SECONDS - build_start)) s" >&2

failed=()
summary=()
for t in "${targets[@]}"; do
    corpus=$scratch/corpus/$t
    findings=$scratch/findings/$t
    mkdir -p "$corpus" "$findings"
    cp Fuzz/corpus/"$t"/* "$corpus"/
    n=0
    while IFS= read -r file; do
        [[ -n $file ]] || continue
        n=$((n + 1))
        head -c "$(max_len "$t")" "$file" >"$corpus/shared-$n-$(basename "$file")"
    done < <(shared_seeds "$t")
    log=$findings/last-run.log
    echo "fuzz: $t for $seconds s" >&2
    status=0
    # Swift's own backtracer is off so that a runtime trap (overflow, index out of range) is
    # reported by libFuzzer with its message, instead of ASan tripping over the backtracer.
    # One worker, one job: the machine is shared. ASan's leak check runs after every input
    # that leaks (libFuzzer's -detect_leaks, on by default).
    SWIFT_BACKTRACE=enable=no "$release/fuzzers/fuzz-$t" "$corpus" -max_total_time="$seconds" -timeout="$timeout_seconds" -rss_limit_mb=2048 \
        -max_len="$(max_len "$t")" -artifact_prefix="$findings/" -print_final_stats=1 >"$log" 2>&1 || status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1 || true)
    cov=$(sed -n 's/.* cov: \([0-9]*\) ft: \([0-9]*\) corp: \([0-9]*\)\/\([0-9A-Za-z]*\).*/edges \1, features \2, corpus \3 (\4)/p' <<<"$done_line")
    if (( status != 0 )); then
        reproducer=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
        kind=$(grep -m 1 -oE 'Swift runtime failure: [^/]*' "$log" \
            || grep -m 1 -oE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer): [a-z-]+' "$log" || echo "exit status $status")
        echo "fuzz: $t FAILED ($kind) — log: $log" >&2
        grep -m 1 -A 12 -E '==ERROR|Fatal error|deadly signal' "$log" >&2 || tail -n 20 "$log" >&2
        if [[ -n $reproducer && -f $reproducer ]]; then
            mkdir -p "Fuzz/regressions/$t"
            kept=Fuzz/regressions/$t/$(basename "$reproducer")
            cp "$reproducer" "$kept"
            echo "fuzz: reproducer: $reproducer (copied to $kept; replay: SWIFT_BACKTRACE=enable=no $release/fuzzers/fuzz-$t $kept)" >&2
        fi
        failed+=("$t")
        summary+=("$t: FAILED ($kind) after ${runs:-?} runs")
    else
        summary+=("$t: ${runs:-?} runs in $seconds s, $cov")
    fi
done

printf 'fuzz: %s\n' "${summary[@]}"
if (( ${#failed[@]} > 0 )); then
    echo "fuzz: failures in: ${failed[*]}" >&2
    exit 1
fi
