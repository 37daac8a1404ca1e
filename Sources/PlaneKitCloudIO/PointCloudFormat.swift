import PlaneKitInput

/// The file formats PlaneKit reads.
public enum PointCloudFormat: String, Sendable, CaseIterable {
    /// PCL's PCD (ascii, binary, binary_compressed).
    case pcd
    /// Stanford PLY (ascii, binary little-endian).
    case ply
    /// Plain text, one `x y z` per line.
    case xyz
    /// PGM depth image (P5, P2).
    case pgm
    /// PNG grayscale depth image.
    case png
    /// Baseline TIFF grayscale depth image.
    case tiff

    /// `true` for the depth image formats, which need intrinsics to become a cloud.
    public var isDepthImage: Bool { self == .pgm || self == .png || self == .tiff }

    /// The format a file extension names (case-insensitive), if any.
    public init?(extension ext: String) {
        switch ext.lowercased() {
        case "pcd": self = .pcd
        case "ply": self = .ply
        case "xyz", "txt", "pts", "csv": self = .xyz
        case "pgm": self = .pgm
        case "png": self = .png
        case "tif", "tiff": self = .tiff
        default: return nil
        }
    }

    /// The format the first bytes of a file identify, if they are distinctive.
    public init?(magic bytes: ArraySlice<UInt8>) {
        let b = Array(bytes.prefix(16))
        func starts(_ prefix: [UInt8]) -> Bool { b.count >= prefix.count && Array(b[0..<prefix.count]) == prefix }
        if starts(PNGDecoder.signature) {
            self = .png
        } else if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) {
            self = .tiff
        } else if starts(Array("ply\n".utf8)) || starts(Array("ply\r\n".utf8)) {
            self = .ply
        } else if b.count >= 3, b[0] == 0x50, b[1] == 0x35 || b[1] == 0x32, NumberParsing.isBlank(b[2]) || b[2] == 0x0A {
            self = .pgm
        } else if starts(Array("# .PCD".utf8)) || starts(Array("VERSION".utf8)) || starts(Array("FIELDS".utf8)) {
            self = .pcd
        } else {
            return nil
        }
    }
}
