import PlaneKitInput
import PlaneKitCloudIO

/// What an input that is not a record stream looks like, told from its first bytes, so
/// `planekit stream < scan.pcd` says so once instead of reporting every line as a bad record.
///
/// A record stream starts with a header line, a JSON object: its first byte other than blank
/// space is `{`. Anything else is named by its magic bytes (PCD, PLY, PGM, PNG, TIFF), as binary
/// data when it holds control bytes, or as text.
public enum ForeignInput {
    /// What `bytes` (the first bytes of an input) look like, or `nil` when they may start a
    /// record stream (or are all blank space, which tells nothing).
    public static func description(of bytes: [UInt8]) -> String? {
        guard let first = bytes.firstIndex(where: { !isBlank($0) }) else { return nil }
        if bytes[first] == UInt8(ascii: "{") { return nil }
        if let format = PointCloudFormat(magic: bytes[...]) {
            switch format {
            case .pcd: return "a PCD point cloud"
            case .ply: return "a PLY point cloud"
            case .xyz: return "an x y z text cloud"
            case .pgm: return "a PGM image"
            case .png: return "a PNG image"
            case .tiff: return "a TIFF image"
            }
        }
        let control = bytes.contains { $0 < 0x20 && !isBlank($0) || $0 == 0x7F }
        return control ? "binary data" : "text that is not JSON"
    }

    /// The one line for an input that is not a record stream.
    public static func message(for description: String, source: String = "stdin") -> String {
        "\(source) is \(description), not a PlaneKit record stream (docs/stream-format.md); "
            + "turn files into one with `planekit encode FILE… | planekit stream`"
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
