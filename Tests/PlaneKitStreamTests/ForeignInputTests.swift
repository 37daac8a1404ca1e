import PlaneKitInput
import Testing
@testable import PlaneKitStream
@testable import PlaneKitStreamFormat

/// Inputs that are not record streams (issue #26): named once, not reported line by line.
@Suite struct ForeignInputTests {
    @Test func namesWhatTheInputLooksLike() {
        #expect(ForeignInput.description(of: Array("# .PCD v0.7\nVERSION 0.7\n".utf8)) == "a PCD point cloud")
        #expect(ForeignInput.description(of: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) == "a PNG image")
        #expect(ForeignInput.description(of: Array("ply\nformat ascii 1.0\n".utf8)) == "a PLY point cloud")
        #expect(ForeignInput.description(of: [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0]) == "binary data")
        #expect(ForeignInput.description(of: Array("hello\n".utf8)) == "text that is not JSON")
        // A stream (blank lines first, too) and blank space tell nothing against it.
        #expect(ForeignInput.description(of: Array("\n  {\"type\":\"frame\"}".utf8)) == nil)
        #expect(ForeignInput.description(of: Array(" \n\t".utf8)) == nil)
        #expect(ForeignInput.description(of: []) == nil)
    }

    @Test func runnerStopsAtOnceOnAForeignInputWhenAsked() throws {
        var bytes = Array("# .PCD v0.7 - Point Cloud Data file format\nVERSION 0.7\nFIELDS x y z\n".utf8)
        bytes += [UInt8](repeating: 0x41, count: 200) + [0x0A] + [UInt8](repeating: 0x42, count: 200)
        var options = StreamRunner<MemoryByteSource, MemoryByteSink>.Options()
        options.refusesForeignInput = true
        let refused = try run(bytes, options: options)
        guard case .notAStream(let message)? = refused.stop else {
            Issue.record("expected a notAStream stop, got \(String(describing: refused.stop))")
            return
        }
        #expect(message.contains("a PCD point cloud") && message.contains("planekit encode"))
        #expect(refused.warnings.isEmpty && refused.events.isEmpty)
        // Without the option (the library's default), every line is a bad record as before.
        let reported = try run(bytes)
        #expect(reported.stop == nil)
        #expect(reported.runner.errorCount == 5 && reported.runner.goodRecordCount == 0)
    }

    @Test func aStreamThatGoesBadLaterIsNotForeign() throws {
        var options = StreamRunner<MemoryByteSource, MemoryByteSink>.Options()
        options.refusesForeignInput = true
        let result = try run(Array("{\"type\":\"frame\"}\nnot json\n".utf8), options: options)
        #expect(result.stop == nil)
        #expect(result.runner.errorCount == 2 && result.runner.goodRecordCount == 0)
    }

    @Test func shouldStopEndsTheInputBeforeTheNextRecord() throws {
        let synth = SyntheticStream()
        var s = StreamBuilder()
        for i in 0..<3 { try s.record(synth.record(i)) }
        var options = StreamRunner<MemoryByteSource, MemoryByteSink>.Options()
        options.shouldStop = { true }
        let stopped = try run(s.bytes, options: options)
        #expect(stopped.stop == nil && stopped.runner.goodRecordCount == 0)
        let all = try run(s.bytes)
        #expect(all.runner.goodRecordCount == 3)
    }
}
