// libFuzzer target: JSON camera sidecars (intrinsics, depth scale, pose, timestamp).
@testable import PlaneKitInput

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let sidecar = try? CameraSidecar.parseJSON(bytes, path: "fuzz.json") {
        _ = try? sidecar.intrinsics(width: 640, height: 480)
    }
    return 0
}
