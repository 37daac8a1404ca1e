import PlaneKitGeometry

/// Little-endian bytes of a world map's body, appended one value at a time.
public struct MapByteWriter {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty writer.
    public init() {}

    /// `raw` as it is (a payload whose length was written before it).
    public mutating func raw(_ raw: [UInt8]) { bytes.append(contentsOf: raw) }
    /// One byte.
    public mutating func u8(_ v: UInt8) { bytes.append(v) }
    /// A little-endian 16-bit whole number.
    public mutating func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    /// A little-endian 32-bit whole number.
    public mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    /// A little-endian 64-bit whole number.
    public mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    /// A signed 16-bit whole number.
    public mutating func i16(_ v: Int16) { u16(UInt16(bitPattern: v)) }
    /// A signed whole number, as 64 bits.
    public mutating func i64(_ v: Int) { u64(UInt64(bitPattern: Int64(v))) }
    /// A 32-bit float.
    public mutating func f32(_ v: Float) { u32(v.bitPattern) }
    /// A 64-bit float.
    public mutating func f64(_ v: Double) { u64(v.bitPattern) }
    /// Three floats.
    public mutating func vector(_ v: SIMD3<Float>) { f32(v.x); f32(v.y); f32(v.z) }
    /// Three 64-bit floats.
    public mutating func vector(_ v: SIMD3<Double>) { f64(v.x); f64(v.y); f64(v.z) }
    /// A rigid transform: the rotation's three columns, then the translation.
    public mutating func transform(_ t: Transform) {
        vector(t.rotation.columns.0); vector(t.rotation.columns.1); vector(t.rotation.columns.2)
        vector(t.translation)
    }
    /// A count as u32 (counts are bounded far below 2³² by the writer's inputs).
    public mutating func count(_ n: Int) { u32(UInt32(clamping: n)) }
    /// A string: a 16-bit length and that many bytes of UTF-8.
    public mutating func string(_ s: String) {
        let utf8 = Array(s.utf8.prefix(Int(WorldMapCoding.maximumNameBytes)))
        u16(UInt16(utf8.count))
        bytes.append(contentsOf: utf8)
    }
}

/// Reads a world map's body defensively: every read is bounds-checked, every number must be
/// finite, every count is checked against the bytes left before anything is allocated for it.
/// A problem is one ``WorldMapError`` naming what was being read.
public struct MapByteReader {
    private let bytes: [UInt8]
    /// How many bytes have been read.
    public private(set) var offset = 0

    /// A reader of `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The bytes not read yet.
    public var remaining: Int { bytes.count - offset }

    private mutating func take(_ n: Int, _ what: @autoclosure () -> String) throws(WorldMapError) -> Int {
        guard n <= remaining else { throw .truncated(what()) }
        defer { offset += n }
        return offset
    }

    /// One byte.
    public mutating func u8(_ what: @autoclosure () -> String) throws(WorldMapError) -> UInt8 {
        bytes[try take(1, what())]
    }

    /// A little-endian 16-bit whole number.
    public mutating func u16(_ what: @autoclosure () -> String) throws(WorldMapError) -> UInt16 {
        let at = try take(2, what())
        return UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    /// A little-endian 32-bit whole number.
    public mutating func u32(_ what: @autoclosure () -> String) throws(WorldMapError) -> UInt32 {
        let at = try take(4, what())
        /// Reads or writes one value.
        var v: UInt32 = 0
        for k in 0..<4 { v |= UInt32(bytes[at + k]) << UInt32(8 * k) }
        return v
    }

    /// A little-endian 64-bit whole number.
    public mutating func u64(_ what: @autoclosure () -> String) throws(WorldMapError) -> UInt64 {
        let at = try take(8, what())
        /// Reads or writes one value.
        var v: UInt64 = 0
        for k in 0..<8 { v |= UInt64(bytes[at + k]) << UInt64(8 * k) }
        return v
    }

    /// A signed 16-bit whole number.
    public mutating func i16(_ what: @autoclosure () -> String) throws(WorldMapError) -> Int16 {
        Int16(bitPattern: try u16(what()))
    }

    /// A signed 64-bit whole number within ±2⁵³ (frame numbers and counts).
    public mutating func i64(_ what: @autoclosure () -> String) throws(WorldMapError) -> Int {
        let v = Int64(bitPattern: try u64(what()))
        // Compared without abs(), which traps on Int64.min (found by the world-map fuzz target).
        guard v >= -(1 << 53), v <= 1 << 53 else { throw .invalid("\(what()) \(v) is out of range") }
        return Int(v)
    }

    /// A 32-bit float.
    public mutating func f32(_ what: @autoclosure () -> String) throws(WorldMapError) -> Float {
        let v = Float(bitPattern: try u32(what()))
        guard v.isFinite else { throw .invalid("\(what()) is not a finite number") }
        return v
    }

    /// A 64-bit float.
    public mutating func f64(_ what: @autoclosure () -> String) throws(WorldMapError) -> Double {
        let v = Double(bitPattern: try u64(what()))
        guard v.isFinite else { throw .invalid("\(what()) is not a finite number") }
        return v
    }

    /// Three floats.
    public mutating func vector(_ what: @autoclosure () -> String) throws(WorldMapError) -> SIMD3<Float> {
        SIMD3(try f32(what()), try f32(what()), try f32(what()))
    }

    /// Three 64-bit floats.
    public mutating func vector64(_ what: @autoclosure () -> String) throws(WorldMapError) -> SIMD3<Double> {
        SIMD3(try f64(what()), try f64(what()), try f64(what()))
    }

    /// A rigid transform; the rotation must be one (orthonormal, determinant +1, within 1e-3).
    public mutating func transform(_ what: @autoclosure () -> String) throws(WorldMapError) -> Transform {
        let c0 = try vector(what()), c1 = try vector(what()), c2 = try vector(what())
        let t = try vector(what())
        let rotation = Matrix3(c0, c1, c2)
        guard rotation.isRotation(tolerance: 1e-3) else { throw .invalid("\(what()) is not a rigid transform") }
        return Transform(rotation: rotation, translation: t)
    }

    /// A count of items of at least `itemBytes` bytes each, at most `limit`: refused before
    /// anything is allocated when the bytes left cannot hold that many.
    public mutating func count(_ what: @autoclosure () -> String, itemBytes: Int, limit: Int) throws(WorldMapError) -> Int {
        let n = Int(try u32(what()))
        guard n <= limit else { throw .invalid("\(what()) \(n) is more than the \(limit) allowed") }
        guard n * itemBytes <= remaining else {
            throw .truncated("\(n) \(what()) need at least \(n * itemBytes) bytes, \(remaining) left")
        }
        return n
    }

    /// A string: a 16-bit length and that many bytes of UTF-8.
    public mutating func string(_ what: @autoclosure () -> String) throws(WorldMapError) -> String {
        let n = Int(try u16(what()))
        guard n <= WorldMapCoding.maximumNameBytes else { throw .invalid("\(what()) is \(n) bytes, more than \(WorldMapCoding.maximumNameBytes)") }
        let at = try take(n, what())
        guard let s = String(validating: bytes[at..<at + n], as: UTF8.self) else { throw .invalid("\(what()) is not UTF-8") }
        return s
    }
}

/// Why a world map could not be read: one line.
public enum WorldMapError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a PlaneKit world map (wrong magic bytes or too short for the header).
    case notAMap
    /// A format version this build does not read.
    case unsupportedVersion(UInt16)
    /// The data ends before something it announces.
    case truncated(String)
    /// The checksum of the body does not match the header's.
    case checksumMismatch(expected: UInt32, found: UInt32)
    /// The body is larger than allowed or than its compressed size can hold.
    case tooLarge(String)
    /// The compressed body cannot be inflated.
    case corrupt(String)
    /// A value is out of range, not finite or inconsistent.
    case invalid(String)

    /// The problem in words.
    public var description: String {
        switch self {
        case .notAMap: "not a PlaneKit world map (it does not start with \"PKWMAP\")"
        case .unsupportedVersion(let v): "world map format version \(v) is not supported (this build reads version \(WorldMapCoding.version))"
        case .truncated(let what): "truncated world map: \(what)"
        case .checksumMismatch(let expected, let found):
            "world map checksum mismatch (header says \(hex(expected)), body has \(hex(found))): the file is damaged"
        case .tooLarge(let what): "world map too large: \(what)"
        case .corrupt(let what): "corrupt world map: \(what)"
        case .invalid(let what): "invalid world map: \(what)"
        }
    }

    private func hex(_ v: UInt32) -> String {
        let digits = String(v, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}
