// libFuzzer target: XML camera sidecars (MiniXML and the <depth> section), read as
// CameraSidecar.read reads them: bytes decoded as UTF-8, invalid sequences replaced.
@testable import PlaneKitInput

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let sidecar = try? CameraSidecar.parseXML(text, path: "fuzz.xml") {
        _ = try? sidecar.intrinsics(width: 640, height: 480)
    }
    return 0
}
