import PlaneKitInput

/// Reads PLY files (ascii, binary_little_endian and binary_big_endian): the `vertex` element's x, y, z (any numeric
/// type) and, when they are `uchar`, its red/green/blue colours. Other elements, faces with
/// their list properties included, are walked over and checked for truncation.
public enum PLYReader {
    /// The cloud of vertices in the PLY file at `path` (unorganized).
    public static func read(path: String) throws(InputError) -> PointCloud {
        try decode(try FileBytes.read(path), source: path)
    }

    /// A PLY scalar type.
    enum ScalarType: Sendable {
        case int8, uint8, int16, uint16, int32, uint32, float32, float64

        init?(_ name: String) {
            switch name {
            case "char", "int8": self = .int8
            case "uchar", "uint8": self = .uint8
            case "short", "int16": self = .int16
            case "ushort", "uint16": self = .uint16
            case "int", "int32": self = .int32
            case "uint", "uint32": self = .uint32
            case "float", "float32": self = .float32
            case "double", "float64": self = .float64
            default: return nil
            }
        }

        var size: Int {
            switch self {
            case .int8, .uint8: 1
            case .int16, .uint16: 2
            case .int32, .uint32, .float32: 4
            case .float64: 8
            }
        }

        var isInteger: Bool { self != .float32 && self != .float64 }

        /// The value at `p`, stored little-endian (or big-endian when `bigEndian`), as a Double.
        @inline(__always) func load(_ p: UnsafeRawPointer, bigEndian: Bool = false) -> Double {
            @inline(__always) func bits<T: FixedWidthInteger>(_ type: T.Type) -> T {
                let raw = p.loadUnaligned(as: T.self)
                return bigEndian ? T(bigEndian: raw) : T(littleEndian: raw)
            }
            switch self {
            case .int8: return Double(p.load(as: Int8.self))
            case .uint8: return Double(p.load(as: UInt8.self))
            case .int16: return Double(bits(Int16.self))
            case .uint16: return Double(bits(UInt16.self))
            case .int32: return Double(bits(Int32.self))
            case .uint32: return Double(bits(UInt32.self))
            case .float32: return Double(Float(bitPattern: bits(UInt32.self)))
            case .float64: return Double(bitPattern: bits(UInt64.self))
            }
        }
    }

    /// A property: a scalar, or a list with a count type and an item type.
    struct Property: Sendable {
        var name: String
        var type: ScalarType
        var listCount: ScalarType?
    }

    /// An element declaration: a name, how many instances, and their properties.
    struct Element: Sendable {
        var name: String
        var count: Int
        var properties: [Property] = []
    }

    enum Format { case ascii, binaryLittleEndian, binaryBigEndian }

    /// The cloud of vertices in a PLY file's bytes; `source` names the file in errors.
    static func decode(_ bytes: [UInt8], source: String) throws(InputError) -> PointCloud {
        func fail(_ problem: String) -> InputError { InputError(source: source, problem: problem) }
        // MARK: Header
        var position = 0
        var lineNumber = 0
        var format: Format?
        var elements: [Element] = []
        var sawEnd = false
        while !sawEnd {
            guard position < bytes.count, position < 1 << 20 else {
                throw fail("header has no end_header line (truncated or not a PLY file)")
            }
            lineNumber += 1
            var end = position
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            let line = String(decoding: bytes[position..<end], as: UTF8.self)
            position = end + 1
            let tokens = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            if lineNumber == 1 {
                guard tokens == ["ply"] else { throw fail("does not start with 'ply': not a PLY file") }
                continue
            }
            guard let keyword = tokens.first else { continue }
            switch keyword {
            case "format":
                guard tokens.count >= 2 else { throw fail("header line \(lineNumber): format line names no format") }
                switch tokens[1] {
                case "ascii": format = .ascii
                case "binary_little_endian": format = .binaryLittleEndian
                case "binary_big_endian": format = .binaryBigEndian
                default: throw fail("header line \(lineNumber): unknown format '\(tokens[1])'")
                }
            case "comment", "obj_info":
                continue
            case "element":
                guard tokens.count == 3, let count = Int(tokens[2]), count >= 0 else {
                    throw fail("header line \(lineNumber): element needs a name and a non-negative count")
                }
                elements.append(Element(name: tokens[1], count: count))
            case "property":
                guard !elements.isEmpty else { throw fail("header line \(lineNumber): property before any element") }
                if tokens.count == 5, tokens[1] == "list" {
                    guard let countType = ScalarType(tokens[2]), countType.isInteger, let itemType = ScalarType(tokens[3]) else {
                        throw fail("header line \(lineNumber): bad list property types '\(tokens[2]) \(tokens[3])'")
                    }
                    elements[elements.count - 1].properties.append(Property(name: tokens[4], type: itemType, listCount: countType))
                } else if tokens.count == 3, let type = ScalarType(tokens[1]) {
                    elements[elements.count - 1].properties.append(Property(name: tokens[2], type: type, listCount: nil))
                } else {
                    throw fail("header line \(lineNumber): cannot read property '\(line.prefix(60))'")
                }
            case "end_header":
                sawEnd = true
            default:
                throw fail("header line \(lineNumber): unexpected '\(keyword.prefix(40))'")
            }
        }
        guard let format else { throw fail("header has no format line") }
        guard let vertexIndex = elements.firstIndex(where: { $0.name == "vertex" }) else {
            throw fail("no vertex element")
        }
        let vertex = elements[vertexIndex]
        func scalar(_ name: String) -> Int? {
            vertex.properties.firstIndex { $0.name == name && $0.listCount == nil }
        }
        guard let ix = scalar("x"), let iy = scalar("y"), let iz = scalar("z") else {
            throw fail("vertex element has no scalar x, y and z properties")
        }
        var colorIndices: (Int, Int, Int)?
        if let r = scalar("red"), let g = scalar("green"), let b = scalar("blue"),
           [r, g, b].allSatisfy({ vertex.properties[$0].type == .uint8 }) {
            colorIndices = (r, g, b)
        }

        // Every instance takes at least this many bytes, so a count the file cannot hold is
        // rejected before anything is allocated.
        let remaining = bytes.count - min(position, bytes.count)
        for element in elements {
            let minimum = element.properties.reduce(0) { total, p in
                total + (format == .ascii ? 2 : (p.listCount?.size ?? p.type.size))
            }
            try InputLimits.check(elementCount: element.count, what: "\(element.name) elements", source: source)
            let (need, overflow) = element.count.multipliedReportingOverflow(by: max(minimum, 1))
            guard !overflow, need <= remaining + (format == .ascii ? 1 : 0) else {
                throw fail("truncated: \(element.count) \(element.name) elements need at least \(need) bytes, \(remaining) follow the header")
            }
        }

        var points = ContiguousArray<SIMD3<Float>>()
        points.reserveCapacity(vertex.count)
        var colors = ContiguousArray<SIMD3<UInt8>>()
        if colorIndices != nil { colors.reserveCapacity(vertex.count) }

        try bytes.withUnsafeBufferPointer { (buffer) throws(InputError) in
            var values = [Double](repeating: 0, count: vertex.properties.count)
            switch format {
            case .binaryLittleEndian, .binaryBigEndian:
                var cursor = BinaryCursor(buffer: UnsafeRawBufferPointer(buffer), position: min(position, buffer.count),
                                          bigEndian: format == .binaryBigEndian)
                for (index, element) in elements.enumerated() {
                    let isVertex = index == vertexIndex
                    for instance in 0..<element.count {
                        for (k, property) in element.properties.enumerated() {
                            guard let countType = property.listCount else {
                                guard let value = cursor.next(property.type) else {
                                    throw fail("truncated in \(element.name) \(instance)")
                                }
                                if isVertex { values[k] = value }
                                continue
                            }
                            guard let n = cursor.next(countType), n >= 0, n <= Double(Int32.max) else {
                                throw fail("truncated or negative list length in \(element.name) \(instance)")
                            }
                            guard cursor.skip(Int(n) * property.type.size) else {
                                throw fail("truncated in \(element.name) \(instance)'s \(property.name) list")
                            }
                        }
                        if isVertex {
                            try appendVertex(values, instance)
                        }
                    }
                }
            case .ascii:
                var cursor = TextCursor(buffer: buffer, position: min(position, buffer.count), line: lineNumber + 1)
                for (index, element) in elements.enumerated() {
                    let isVertex = index == vertexIndex
                    for instance in 0..<element.count {
                        for (k, property) in element.properties.enumerated() {
                            guard let countType = property.listCount else {
                                guard let value = cursor.nextNumber() else {
                                    throw fail(cursor.atEnd ? "truncated in \(element.name) \(instance)"
                                               : "line \(cursor.line): \(element.name) \(instance)'s \(property.name) is not a number")
                                }
                                if isVertex { values[k] = value }
                                continue
                            }
                            guard let n = cursor.nextNumber(), n >= 0, n <= Double(Int32.max), n == n.rounded(), countType.isInteger else {
                                throw fail("line \(cursor.line): bad list length in \(element.name) \(instance)")
                            }
                            for _ in 0..<Int(n) {
                                guard cursor.nextNumber() != nil else {
                                    throw fail("line \(cursor.line): \(element.name) \(instance)'s \(property.name) list is short or not numeric")
                                }
                            }
                        }
                        if isVertex {
                            try appendVertex(values, instance)
                        }
                    }
                }
            }
        }

        func appendVertex(_ values: [Double], _ instance: Int) throws(InputError) {
            let p = SIMD3(Float(values[ix]), Float(values[iy]), Float(values[iz]))
            guard p.x.isFinite, p.y.isFinite, p.z.isFinite else {
                throw fail("vertex \(instance) has a coordinate that is not a finite number")
            }
            points.append(p)
            if let (r, g, b) = colorIndices {
                // An ascii `uchar` can be written as any number (1e300 included): clamp it as a
                // Double first, since converting a Double beyond Int's range traps.
                func byte(_ v: Double) -> UInt8 { v.isFinite ? UInt8(min(max(v, 0), 255)) : 0 }
                colors.append(SIMD3(byte(values[r]), byte(values[g]), byte(values[b])))
            }
        }

        return PointCloud(unorganized: points, colors: colorIndices == nil ? nil : colors)
    }
}

/// Little-endian (or big-endian) reads from a byte buffer that never pass its end.
struct BinaryCursor {
    let buffer: UnsafeRawBufferPointer
    var position: Int
    /// Whether values are stored big-endian (PLY's binary_big_endian).
    var bigEndian = false

    /// The next value of `type` as a Double, or nil when the buffer ends first.
    @inline(__always) mutating func next(_ type: PLYReader.ScalarType) -> Double? {
        let size = type.size
        guard buffer.count - position >= size else { return nil }
        let value = type.load(buffer.baseAddress! + position, bigEndian: bigEndian)
        position += size
        return value
    }

    /// Skips `count` bytes; false when fewer remain.
    @inline(__always) mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, buffer.count - position >= count else { return false }
        position += count
        return true
    }
}

/// Whitespace-separated numbers from a text buffer, counting lines for error messages.
struct TextCursor {
    let buffer: UnsafeBufferPointer<UInt8>
    var position: Int
    var line: Int

    /// `true` when only white space remains.
    var atEnd: Bool {
        var p = position
        while p < buffer.count, NumberParsing.isBlank(buffer[p]) || buffer[p] == 0x0A { p += 1 }
        return p >= buffer.count
    }

    /// The next token parsed as a number, or nil at the end or when it is not a number.
    mutating func nextNumber() -> Double? {
        while position < buffer.count, NumberParsing.isBlank(buffer[position]) || buffer[position] == 0x0A {
            if buffer[position] == 0x0A { line += 1 }
            position += 1
        }
        let start = position
        while position < buffer.count, !NumberParsing.isBlank(buffer[position]), buffer[position] != 0x0A { position += 1 }
        return NumberParsing.double(buffer, start, position)
    }
}
