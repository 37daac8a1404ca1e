// libFuzzer target: PLY files (ascii and binary_little_endian).
@testable import PlaneKitInput

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? PLYReader.decode(bytes, source: "fuzz.ply")
    return 0
}
