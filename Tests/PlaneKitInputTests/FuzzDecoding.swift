import PlaneKitGeometry
@testable import PlaneKitInput
@testable import PlaneKitCloudIO

/// What each input fuzz target (Fuzz/Targets/, scripts/fuzz.sh) does with its bytes. This file
/// is compiled into the fuzz binaries as well as into the tests, so a finding kept in
/// Fuzz/regressions/ replays through exactly the calls that found it.
enum FuzzDecoding {
    /// The input targets (the stream's is in Fuzz/Targets/stream.swift).
    static let targets = ["pcd", "ply", "xyz", "pgm", "png", "tiff", "sidecar-json", "sidecar-xml"]

    /// Decodes `bytes` as fuzz target `target`: the format's decoder, then for depth images the
    /// conversion to metres and points `analyze` makes, for sidecars the intrinsics for a VGA
    /// image. Returns how many points, pixels or intrinsics columns that gave.
    static func decode(_ bytes: [UInt8], target: String) throws(InputError) -> Int {
        switch target {
        case "pcd": return try PCDReader.decode(bytes, source: "fuzz.pcd").points.count
        case "ply": return try PLYReader.decode(bytes, source: "fuzz.ply").points.count
        case "xyz": return try XYZReader.decode(bytes, source: "fuzz.xyz").points.count
        case "pgm", "png", "tiff":
            let raw = switch target {
            case "pgm": try PGMDecoder.decode(bytes, source: "fuzz.pgm")
            // Mutations nearly always break a chunk CRC: repaired, they reach zlib and filters.
            case "png": try PNGDecoder.decode(repairingChunkCRCs(bytes), source: "fuzz.png")
            default: try TIFFDecoder.decode(bytes, source: "fuzz.tiff")
            }
            let depth = DepthImage(raw, scale: 0.001, maxDepth: 8)
            guard let intrinsics = PinholeIntrinsics(fx: 525, fy: 525, cx: Float(raw.width) / 2, cy: Float(raw.height) / 2,
                                                     width: raw.width, height: raw.height) else { return 0 }
            return depth.pointCloud(intrinsics: intrinsics).points.count
        case "sidecar-json":
            return try CameraSidecar.parseJSON(bytes, path: "fuzz.json").intrinsics(width: 640, height: 480).width
        case "sidecar-xml":
            // As CameraSidecar.read: bytes decoded as UTF-8, invalid sequences replaced.
            let text = String(decoding: bytes, as: UTF8.self)
            return try CameraSidecar.parseXML(text, path: "fuzz.xml").intrinsics(width: 640, height: 480).width
        default:
            preconditionFailure("unknown fuzz target \(target)")
        }
    }

    /// `bytes` with the CRC of every whole PNG chunk after the signature set to match its type
    /// and data; the walk stops at the first chunk whose length runs past the end.
    static func repairingChunkCRCs(_ bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        var position = 8
        while out.count - position >= 12 {
            let length = Int(out[position]) << 24 | Int(out[position + 1]) << 16 | Int(out[position + 2]) << 8 | Int(out[position + 3])
            guard length <= out.count - position - 12 else { break }
            let end = position + 8 + length
            // zlib's CRC: not instrumented, so the fuzzer's time goes to the decoder.
            let crc = out.withUnsafeBytes { Zlib.crc32(UnsafeRawBufferPointer(rebasing: $0[(position + 4)..<end])) }
            for k in 0..<4 { out[end + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * k)) }
            position = end + 4
        }
        return out
    }
}
