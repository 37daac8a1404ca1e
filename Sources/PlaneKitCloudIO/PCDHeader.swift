import PlaneKitInput
import PlaneKitGeometry

/// A PCD file's header, parsed and checked against the file before anything trusts it.
///
/// A header can claim anything (a 200-byte file may claim 10¹⁰ points), so nothing is allocated
/// for the data until the header is validated: field declarations agree, `POINTS == WIDTH ×
/// HEIGHT`, x/y/z are floats, the count is within `InputLimits.maximumElements` and the data
/// the header promises fits in the file (for `binary_compressed`, within what LZF can expand
/// the stored bytes to).
public struct PCDHeader: Sendable, Equatable {
    /// How the point data is stored after the header.
    public enum Encoding: String, Sendable {
        /// One point per text line.
        case ascii
        /// Packed little-endian records, point after point.
        case binary
        /// Field-major records compressed with LZF, preceded by two uint32 sizes.
        case binaryCompressed = "binary_compressed"
    }

    /// One declared field (`FIELDS`, `SIZE`, `TYPE`, `COUNT` columns).
    public struct Field: Sendable, Equatable {
        /// The field's name, for example `x` or `rgba`.
        public var name: String
        /// Bytes per element: 1, 2, 4 or 8.
        public var size: Int
        /// `F` (float), `I` (signed) or `U` (unsigned).
        public var type: Character
        /// Elements per point.
        public var count: Int
    }

    /// The `VERSION` value, when the header has one.
    public var version: String?
    /// The fields, in file order.
    public var fields: [Field]
    /// Points per row.
    public var width: Int
    /// Rows (1 for an unorganized cloud).
    public var height: Int
    /// `VIEWPOINT`: translation then quaternion, `tx ty tz qw qx qy qz`.
    public var viewpoint: [Float]
    /// `POINTS`: `width × height`.
    public var points: Int
    /// The `DATA` encoding.
    public var encoding: Encoding
    /// Bytes from the start of the file to the first data byte.
    public var headerLength: Int

    /// Bytes per point: the sum of `size × count` over the fields.
    public var pointSize: Int { fields.reduce(0) { $0 + $1.size * $1.count } }

    /// Bytes per point in `binary_compressed` data when PCL's padding fields (named `_`) are left
    /// out, as PCL's writer does: it stores only real fields, one after the other.
    var pointSizeWithoutPadding: Int {
        fields.reduce(0) { $0 + ($1.name == PCDHeader.paddingName ? 0 : $1.size * $1.count) }
    }

    /// The name PCL gives fields that only pad a point to an aligned size.
    static let paddingName = "_"

    /// The byte offset of field `index` inside a point record: the sizes of the fields before it.
    func offset(ofField index: Int) -> Int {
        fields[..<index].reduce(0) { $0 + $1.size * $1.count }
    }

    /// The sensor pose the `VIEWPOINT` describes.
    public var sensorPose: Transform {
        Transform(rotation: Quaternion(x: viewpoint[4], y: viewpoint[5], z: viewpoint[6], w: viewpoint[3]),
                  translation: SIMD3(viewpoint[0], viewpoint[1], viewpoint[2]))
    }

    /// The field called `name`, if declared.
    public func field(named name: String) -> Field? { fields.first { $0.name == name } }

    /// The most header bytes read while looking for the `DATA` line.
    static let maximumHeaderBytes = 1 << 20

    /// Parses the header at the start of `bytes` (the file's first bytes, or all of them) and
    /// validates it against `fileSize`. For `binary_compressed`, `bytes` must extend 8 bytes past
    /// the header (the two sizes), which it does whenever the file does. Only the first
    /// ``maximumHeaderBytes`` are searched for the `DATA` line.
    static func parse(_ bytes: [UInt8], fileSize: Int, source: String) throws(InputError) -> PCDHeader {
        func fail(_ problem: String) -> InputError { InputError(source: source, problem: problem) }

        var version: String?
        var names: [String]?, sizes: [Int]?, types: [Character]?, counts: [Int]?
        var width: Int?, height: Int?, points: Int?
        var viewpoint: [Float] = [0, 0, 0, 1, 0, 0, 0]
        var encoding: Encoding?
        var headerLength = 0
        var lineNumber = 0
        var position = 0

        let searched = min(bytes.count, maximumHeaderBytes)
        while encoding == nil {
            guard position < searched else {
                throw fail(searched >= maximumHeaderBytes
                           ? "no DATA line in the first \(maximumHeaderBytes) bytes: not a PCD header"
                           : "header ends without a DATA line (truncated or not a PCD file)")
            }
            lineNumber += 1
            var end = position
            while end < searched, end - position <= 65536, bytes[end] != 0x0A { end += 1 }
            let lineBytes = bytes[position..<end]
            position = end + 1
            guard lineBytes.count <= 65536, !lineBytes.contains(0) else {
                throw fail("header line \(lineNumber) is not text: not a PCD file")
            }
            let line = String(decoding: lineBytes, as: UTF8.self)
            let tokens = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard let keyword = tokens.first, !keyword.hasPrefix("#") else { continue }
            let values = Array(tokens.dropFirst())
            func integer(_ text: String, _ what: String) throws(InputError) -> Int {
                guard let value = Int(text), value >= 0 else {
                    throw fail("header line \(lineNumber): \(what) '\(text)' is not a non-negative integer")
                }
                return value
            }
            func single(_ what: String) throws(InputError) -> Int {
                guard values.count == 1 else { throw fail("header line \(lineNumber): \(what) needs one value") }
                return try integer(values[0], what)
            }
            switch keyword {
            case "VERSION":
                version = values.first
            case "FIELDS", "COLUMNS":
                guard !values.isEmpty else { throw fail("header line \(lineNumber): FIELDS lists no fields") }
                names = values
            case "SIZE":
                var list: [Int] = []
                for v in values {
                    let size = try integer(v, "SIZE")
                    guard [1, 2, 4, 8].contains(size) else { throw fail("header line \(lineNumber): SIZE \(size) is not 1, 2, 4 or 8") }
                    list.append(size)
                }
                sizes = list
            case "TYPE":
                var list: [Character] = []
                for v in values {
                    guard v.count == 1, let c = v.first, "FIU".contains(c) else {
                        throw fail("header line \(lineNumber): TYPE '\(v)' is not F, I or U")
                    }
                    list.append(c)
                }
                types = list
            case "COUNT":
                var list: [Int] = []
                for v in values {
                    let count = try integer(v, "COUNT")
                    guard count >= 1, count <= 1 << 20 else { throw fail("header line \(lineNumber): COUNT \(count) is out of range") }
                    list.append(count)
                }
                counts = list
            case "WIDTH": width = try single("WIDTH")
            case "HEIGHT": height = try single("HEIGHT")
            case "POINTS": points = try single("POINTS")
            case "VIEWPOINT":
                let numbers = values.compactMap(Float.init)
                guard values.count == 7, numbers.count == 7, numbers.allSatisfy(\.isFinite) else {
                    throw fail("header line \(lineNumber): VIEWPOINT needs 7 finite numbers (tx ty tz qw qx qy qz)")
                }
                viewpoint = numbers
            case "DATA":
                guard values.count == 1, let e = Encoding(rawValue: values[0].lowercased()) else {
                    throw fail("header line \(lineNumber): unknown DATA encoding '\(values.joined(separator: " "))' (expected ascii, binary or binary_compressed)")
                }
                encoding = e
                headerLength = position
            default:
                throw fail("header line \(lineNumber): unexpected '\(keyword.prefix(40))': not a PCD header")
            }
        }

        guard let names else { throw fail("header has no FIELDS line") }
        guard let sizes else { throw fail("header has no SIZE line") }
        guard let types else { throw fail("header has no TYPE line") }
        let fieldCounts = counts ?? Array(repeating: 1, count: names.count)
        guard sizes.count == names.count, types.count == names.count, fieldCounts.count == names.count else {
            throw fail("FIELDS, SIZE, TYPE and COUNT disagree on the number of fields (\(names.count), \(sizes.count), \(types.count), \(fieldCounts.count))")
        }
        var fields: [Field] = []
        for i in names.indices {
            if types[i] == "F", sizes[i] != 4, sizes[i] != 8 {
                throw fail("field \(names[i]) is a float of \(sizes[i]) bytes (only 4 and 8 exist)")
            }
            fields.append(Field(name: names[i], size: sizes[i], type: types[i], count: fieldCounts[i]))
        }
        for axis in ["x", "y", "z"] {
            guard let f = fields.first(where: { $0.name == axis }) else {
                throw fail("no \(axis) field (FIELDS \(names.joined(separator: " ")))")
            }
            guard f.type == "F", f.count == 1 else {
                throw fail("field \(axis) must be one float (F 4 or F 8), not \(f.type) \(f.size) ×\(f.count)")
            }
        }
        guard let points else { throw fail("header has no POINTS line") }
        let w = width ?? points
        let h = height ?? 1
        let (product, overflow) = w.multipliedReportingOverflow(by: h)
        guard !overflow, product == points else {
            throw fail("POINTS \(points) is not WIDTH × HEIGHT (\(w) × \(h))")
        }
        try InputLimits.check(elementCount: points, what: "points", source: source)
        guard h >= 1 || points == 0 else { throw fail("HEIGHT 0 with \(points) points") }
        let header = PCDHeader(version: version, fields: fields, width: w, height: max(h, 1), viewpoint: viewpoint,
                               points: points, encoding: encoding!, headerLength: headerLength)
        try header.validateSize(prefix: bytes, fileSize: fileSize, source: source)
        return header
    }

    /// Checks that the data the header promises fits in a file of `fileSize` bytes.
    private func validateSize(prefix bytes: [UInt8], fileSize: Int, source: String) throws(InputError) {
        func fail(_ problem: String) -> InputError { InputError(source: source, problem: problem) }
        let dataBytes = fileSize - headerLength
        // pointSize ≤ fields × 8 × 2²⁰ and points ≤ 2²⁶: the product fits in Int.
        let (payload, overflow) = points.multipliedReportingOverflow(by: pointSize)
        guard !overflow else { throw fail("\(points) points of \(pointSize) bytes overflow") }
        switch encoding {
        case .binary:
            guard payload <= dataBytes else {
                throw fail("truncated: \(points) points × \(pointSize) bytes need \(payload) data bytes, the file has \(dataBytes)")
            }
        case .binaryCompressed:
            guard points > 0 else { return }
            guard dataBytes >= 8, headerLength + 8 <= bytes.count else {
                throw fail("truncated: binary_compressed data needs two 4-byte sizes after the header, the file has \(max(dataBytes, 0)) bytes")
            }
            func uint32(_ at: Int) -> Int {
                Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
            }
            let compressed = uint32(headerLength), uncompressed = uint32(headerLength + 4)
            // PCL leaves padding fields out of compressed data; accept either layout.
            guard uncompressed == payload || uncompressed == points * pointSizeWithoutPadding else {
                throw fail("uncompressed size \(uncompressed) is not \(points) points × \(pointSize) bytes = \(payload)")
            }
            guard compressed > 0, compressed <= dataBytes - 8 else {
                throw fail("truncated: compressed size \(compressed) but only \(dataBytes - 8) bytes follow the header")
            }
            guard uncompressed <= compressed * LZF.maximumExpansion else {
                throw fail("compressed size \(compressed) cannot expand to the \(uncompressed) bytes claimed (LZF expands at most \(LZF.maximumExpansion)×)")
            }
        case .ascii:
            // Every value takes at least one character and one separator.
            let values = points * fields.reduce(0) { $0 + $1.count }
            guard values <= (dataBytes + 1) / 2 else {
                throw fail("truncated: \(points) ascii points need at least \(values * 2 - 1) bytes, the file has \(dataBytes)")
            }
        }
    }
}
