// libFuzzer target: PNG depth images, decoded and then turned into metres and points as
// `analyze` does with them. Chunk CRCs are repaired first (PNGChecksumRepair, which
// scripts/fuzz.sh compiles in from Tests/PlaneKitTestSupport) so mutations reach zlib and filters.
import PlaneKitGeometry
@testable import PlaneKitInput

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = PNGChecksumRepair.repaired(Array(UnsafeBufferPointer(start: data, count: size)))
    guard let raw = try? PNGDecoder.decode(bytes, source: "fuzz.png") else { return 0 }
    let depth = DepthImage(raw, scale: 0.001, maxDepth: 8)
    if let intrinsics = PinholeIntrinsics(fx: 525, fy: 525, cx: Float(raw.width) / 2, cy: Float(raw.height) / 2,
                                          width: raw.width, height: raw.height) {
        _ = depth.pointCloud(intrinsics: intrinsics)
    }
    return 0
}
