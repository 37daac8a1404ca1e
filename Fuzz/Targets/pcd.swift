// libFuzzer target: PCD files (ascii, binary and binary_compressed; the DATA line picks).
@testable import PlaneKitInput

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // A refusal is the expected answer to most inputs; only a crash, a leak, a hang or
    // runaway memory is a finding.
    _ = try? PCDReader.decode(bytes, source: "fuzz.pcd")
    return 0
}
