import Foundation
import PlaneKitStream
@testable import PlaneKitAnchors
import PlaneKitTestSupport
import Testing
import PlaneKitStreamFormat

/// Replays the stream fuzzer's seeds (Fuzz/corpus/stream/) and findings
/// (Fuzz/regressions/stream/) as its target (Fuzz/Targets/stream.swift) does: the bytes through
/// a ``StreamRunner`` in pieces of at most 4093 bytes. A bad record must give one error event
/// and one warning line, and the run must reach the end of the input.
struct StreamFuzzRegressionTests {
    /// Runs `bytes` through a runner; the warnings and the NDJSON lines written.
    static func run(_ bytes: [UInt8]) throws -> (warnings: [String], events: [String], errors: Int) {
        var warnings: [String] = []
        var runner = StreamRunner(source: MemoryByteSource(bytes, maximumPiece: 4093), sink: MemoryByteSink(),
                                  warn: { warnings.append($0) })
        try runner.run()
        let text = String(decoding: runner.sink.bytes, as: UTF8.self)
        return (warnings, text.split(separator: "\n").map(String.init), runner.errorCount)
    }

    @Test func seeds() throws {
        let seeds = FuzzFiles.seeds("stream")
        #expect(seeds.map(\.lastPathComponent) == ["bad-records.bin", "depth16-commands.bin", "depth32f.bin", "xyz32f.bin"])
        // name: (bad records, planeAdded events); the depth frames are small but hold a plane the
        // detector finds, so the fuzzer starts from inputs that reach tracking and placement.
        let expected: [String: (errors: Int, planes: Int)] = [
            "bad-records.bin": (4, 0), "depth16-commands.bin": (0, 1), "depth32f.bin": (0, 1), "xyz32f.bin": (3, 0),
        ]
        for url in seeds {
            let result = try Self.run(Array(try Data(contentsOf: url)))
            let planes = result.events.filter { $0.contains(#""event":"planeAdded""#) }.count
            let name = url.lastPathComponent
            #expect(result.errors == expected[name]?.errors && result.warnings.count == result.errors, "\(name): \(result.warnings)")
            #expect(planes == expected[name]?.planes, "\(name)")
        }
    }

    @Test func findings() throws {
        for url in FuzzFiles.findings("stream") {
            let result = try Self.run(Array(try Data(contentsOf: url)))
            #expect(result.errors == result.warnings.count)
            for warning in result.warnings {
                #expect(!warning.contains("\n") && warning.hasPrefix("record ") || warning.hasPrefix("stream: "),
                        "\(url.lastPathComponent): \(warning.debugDescription)")
            }
        }
    }

    /// The finding that was slow (0.15 s in release, for an 80×60 frame): a wall about 53 m
    /// away, which the frame sees tens of metres wide, grew its anchor's covered-ground grid to
    /// 1025 columns of 5 cm cells, reallocated row by row as each outline was filled and walked
    /// whole to trace the outline. The grid is now bounded by its side, at most 320 × 320 cells.
    @Test func farWallKeepsTheCoveredGroundGridBounded() throws {
        let url = try #require(FuzzFiles.findings("stream").first { $0.lastPathComponent == "far-wall-53m-slow-occupancy.bin" })
        var runner = StreamRunner(source: MemoryByteSource(Array(try Data(contentsOf: url)), maximumPiece: 4093),
                                  sink: MemoryByteSink(), warn: { _ in })
        var largest = 0, coarsest = 0, anchors = 0
        while try runner.next() {
            // Candidates too: the wall is seen in too few frames to be confirmed.
            for plane in runner.processor.session.tracker.tracked {
                largest = max(largest, plane.occupancy.storedCellCount)
                coarsest = max(coarsest, plane.occupancy.coarsening)
                anchors += 1
            }
        }
        #expect(anchors > 0)
        #expect(largest <= PlaneOccupancy.maximumSide * PlaneOccupancy.maximumSide)
        // The wall is wider than 16 m, so its cells were coarsened at least once.
        #expect(coarsest >= 1)
    }
}
