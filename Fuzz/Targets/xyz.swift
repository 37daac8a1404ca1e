// libFuzzer target: `x y z` text point lists.
@testable import PlaneKitInput

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? XYZReader.decode(bytes, source: "fuzz.xyz")
    return 0
}
