// libFuzzer target "ply": its bytes through FuzzDecoding (Tests/PlaneKitInputTests/FuzzDecoding.swift).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // A refusal is the expected answer to most inputs; only a crash, a leak, a hang or
    // runaway memory is a finding.
    _ = try? FuzzDecoding.decode(Array(UnsafeBufferPointer(start: data, count: size)), target: "ply")
    return 0
}
