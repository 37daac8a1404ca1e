import Foundation
@testable import PlaneKitInput
import PlaneKitTestSupport
import Testing
@testable import PlaneKitCloudIO

/// Replays what the input fuzzers (scripts/fuzz.sh, Fuzz/Targets/) know through the calls their
/// targets make (``FuzzDecoding``): the seeds of Fuzz/corpus/<target>/, which are all good files and
/// must decode, and every finding kept in Fuzz/regressions/<target>/, which must give one line
/// of error or a result, never a crash.
struct FuzzRegressionTests {
    @Test(arguments: FuzzDecoding.targets)
    func seedsDecode(target: String) throws {
        let seeds = FuzzFiles.seeds(target)
        #expect(seeds.count >= 2, "Fuzz/corpus/\(target) has \(seeds.count) seeds; run Fuzz/make-seeds.py")
        for url in seeds {
            let bytes = Array(try Data(contentsOf: url))
            do {
                let count = try FuzzDecoding.decode(bytes, target: target)
                #expect(count > 0, "\(url.lastPathComponent) decoded to nothing")
            } catch {
                Issue.record("seed \(url.lastPathComponent) is refused: \(error)")
            }
        }
    }

    /// Found by the ply fuzzer: an ascii `uchar` colour written as a number beyond Int's range
    /// trapped converting to Int; colours are clamped to 0…255 instead.
    @Test func asciiColoursBeyondAByteAreClamped() throws {
        let text = """
            ply
            format ascii 1.0
            element vertex 2
            property float x
            property float y
            property float z
            property uchar red
            property uchar green
            property uchar blue
            end_header
            1 2 3 1e300 -5 300
            4 5 6 17.9 -1e300 inf

            """
        let cloud = try PLYReader.decode(Array(text.utf8), source: "c.ply")
        #expect(cloud.colors.map(Array.init) == [SIMD3<UInt8>(255, 0, 255), SIMD3<UInt8>(17, 0, 0)])
        #expect(cloud.points.count == 2)
    }

    @Test(arguments: FuzzDecoding.targets)
    func findingsGiveOneLine(target: String) throws {
        for url in FuzzFiles.findings(target) {
            let bytes = Array(try Data(contentsOf: url))
            do {
                _ = try FuzzDecoding.decode(bytes, target: target)
            } catch {
                #expect(!error.problem.isEmpty && !error.description.contains("\n"),
                        "\(url.lastPathComponent): \(error.description.debugDescription)")
            }
        }
    }
}
