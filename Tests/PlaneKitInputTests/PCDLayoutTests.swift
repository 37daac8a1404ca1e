import Testing
import PlaneKitGeometry
@testable import PlaneKitInput
@testable import PlaneKitCloudIO

/// One cloud written in every PCD encoding and field layout, read back point for point; and the
/// ways a binary_compressed file can lie.
struct PCDLayoutTests {
    /// A point of the test cloud: what each field holds.
    struct Record {
        var x: Float, y: Double, z: Float, rgba: UInt32, i8: Int8, u16: UInt16, normal: SIMD3<Float>, tail: UInt64
    }

    static let records: [Record] = [
        Record(x: 0.5, y: 0.1, z: 1.25, rgba: 0xFF11_2233, i8: -5, u16: 60000, normal: SIMD3(0, 0, 1), tail: 1 << 40),
        Record(x: .nan, y: .nan, z: .nan, rgba: 0, i8: 0, u16: 0, normal: SIMD3(repeating: .nan), tail: 0),
        Record(x: -3e-5, y: -2.000000001, z: 7, rgba: 0x00FE_8001, i8: 127, u16: 1, normal: SIMD3(1, 0, 0), tail: .max),
        Record(x: 1e7, y: 123456.789, z: -0.001, rgba: 0x80FF_FFFF, i8: -128, u16: 65535, normal: SIMD3(0, 1, 0), tail: 7),
    ]

    /// Field declarations: padding `_` in the middle, odd sizes so nothing is aligned, a float64
    /// coordinate and a COUNT 3 normal.
    static let fields = ["i8", "u16", "x", "normal", "y", "_", "rgba", "z", "tail"]
    static let sizes = ["1", "2", "4", "4", "8", "1", "4", "4", "8"]
    static let types = ["I", "U", "F", "F", "F", "U", "U", "F", "U"]
    static let counts = ["1", "1", "1", "3", "1", "3", "1", "1", "1"]

    static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }

    /// The bytes of field `f` of record `r`.
    static func value(_ f: Int, _ r: Record) -> [UInt8] {
        switch fields[f] {
        case "i8": le(r.i8)
        case "u16": le(r.u16)
        case "x": le(r.x.bitPattern)
        case "normal": le(r.normal.x.bitPattern) + le(r.normal.y.bitPattern) + le(r.normal.z.bitPattern)
        case "y": le(r.y.bitPattern)
        case "_": [0xAA, 0xBB, 0xCC]
        case "rgba": le(r.rgba)
        case "z": le(r.z.bitPattern)
        default: le(r.tail)
        }
    }

    /// The text of field `f` of record `r`, as PCL's ascii writer would put it.
    static func text(_ f: Int, _ r: Record) -> String {
        func t(_ v: Float) -> String { v.isNaN ? "nan" : "\(v)" }
        switch fields[f] {
        case "i8": return "\(r.i8)"
        case "u16": return "\(r.u16)"
        case "x": return t(r.x)
        case "normal": return "\(t(r.normal.x)) \(t(r.normal.y)) \(t(r.normal.z))"
        case "y": return r.y.isNaN ? "nan" : "\(r.y)"
        case "_": return "0 0 0"
        case "rgba": return "\(r.rgba)"
        case "z": return t(r.z)
        default: return "\(r.tail)"
        }
    }

    static func header(data: String, width: Int = 2, height: Int = 2, points: Int = 4) -> [UInt8] {
        Array("""
        # .PCD v0.7 - Point Cloud Data file format
        VERSION 0.7
        FIELDS \(fields.joined(separator: " "))
        SIZE \(sizes.joined(separator: " "))
        TYPE \(types.joined(separator: " "))
        COUNT \(counts.joined(separator: " "))
        WIDTH \(width)
        HEIGHT \(height)
        VIEWPOINT 0.5 -1 2 0 1 0 0
        POINTS \(points)
        DATA \(data)

        """.utf8)
    }

    /// Field-major records (all points' first field, then the second, …), padding optional.
    static func fieldMajor(padding: Bool) -> [UInt8] {
        fields.indices.filter { padding || fields[$0] != "_" }.flatMap { f in records.flatMap { value(f, $0) } }
    }

    static func compressedFile(_ payload: [UInt8]) -> [UInt8] {
        let stream = TestLZFEncoder.compress(payload)
        return header(data: "binary_compressed") + le(UInt32(stream.count)) + le(UInt32(payload.count)) + stream
    }

    /// The test cloud's file in `encoding`.
    static func file(_ encoding: String) -> [UInt8] {
        switch encoding {
        case "binary": header(data: "binary") + records.flatMap { r in fields.indices.flatMap { value($0, r) } }
        case "ascii": header(data: "ascii") + Array(records.map { r in
            fields.indices.map { text($0, r) }.joined(separator: " ") + "\n"
        }.joined().utf8)
        case "compressed with padding": compressedFile(fieldMajor(padding: true))
        default: compressedFile(fieldMajor(padding: false))
        }
    }

    @Test(arguments: ["binary", "ascii", "compressed without padding (PCL's writer)", "compressed with padding"])
    func everyEncodingGivesTheSameCloud(encoding: String) throws {
        let file = Self.file(encoding)
        let cloud = try PCDReader.decode(file, source: encoding)
        #expect(cloud.width == 2 && cloud.height == 2 && cloud.isOrganized)
        for (i, r) in Self.records.enumerated() {
            let expected = SIMD3(r.x, Float(r.y), r.z)
            let p = cloud.points[i]
            #expect(p.x.bitPattern == expected.x.bitPattern && p.y.bitPattern == expected.y.bitPattern
                    && p.z.bitPattern == expected.z.bitPattern, "\(encoding) point \(i): \(p) vs \(expected)")
        }
        #expect(cloud.finiteCount == 3)
        #expect(cloud.colors == [SIMD3(0x11, 0x22, 0x33), .zero, SIMD3(0xFE, 0x80, 0x01), SIMD3(0xFF, 0xFF, 0xFF)])
        #expect(cloud.sensorPose.translation == SIMD3(0.5, -1, 2))
        #expect(cloud.sensorPose.rotation.columns.0 == SIMD3(1, 0, 0) && cloud.sensorPose.rotation.columns.1 == SIMD3(0, -1, 0))
    }

    @Test func asciiColourTypes() throws {
        // PCL's `rgb` typed F holds the packed word's bits in a float; typed I, its signed value.
        let word: UInt32 = 0x00FF_8040
        let asFloat = Float(bitPattern: word)
        for (type, token) in [("F", "\(asFloat)"), ("U", "\(word)"), ("I", "\(Int32(bitPattern: word))"), ("I", "-16711936")] {
            let file = PCDReaderTests.header(fields: "x y z rgb", size: "4 4 4 4", type: "F F F \(type)", count: "1 1 1 1",
                                             width: "1", points: "1", data: "ascii") + Array("1 2 3 \(token)\n".utf8)
            let cloud = try PCDReader.decode(file, source: type)
            let expected: SIMD3<UInt8> = token.hasPrefix("-") ? SIMD3(0x00, 0xFF, 0x00) : SIMD3(0xFF, 0x80, 0x40)
            #expect(cloud.colors == [expected], "TYPE \(type) token \(token)")
        }
    }

    @Test func asciiBlankLinesExtraValuesAndCRLF() throws {
        let body = "\n1 2 3 99 extra\r\n\r\n  4\t5   6\r\n"
        let file = PCDReaderTests.header(width: "2", points: "2", data: "ascii") + Array(body.utf8)
        let cloud = try PCDReader.decode(file, source: "crlf")
        #expect(cloud.points == [SIMD3(1, 2, 3), SIMD3(4, 5, 6)])
    }

    /// The error `bytes` give, or nil.
    static func error(_ bytes: [UInt8], source: String = "bad.pcd") -> InputError? {
        do {
            _ = try PCDReader.decode(bytes, source: source)
            return nil
        } catch {
            return error
        }
    }

    @Test func badASCIIBodies() {
        func file(_ body: String) -> [UInt8] { PCDReaderTests.header(width: "2", points: "2", data: "ascii") + Array(body.utf8) }
        // The header has 11 lines, so the first data line is line 12.
        let notNumber = Self.error(file("1 2 3\n4 abc 6\n"))
        #expect(notNumber?.source == "bad.pcd line 13" && notNumber?.problem == "'abc' is not a number")
        #expect(Self.error(file("1 2 \n4 5 6\n"))?.problem == "2 values, the FIELDS declare 3")
        #expect(Self.error(file("1 2 3\n\n\n\n\n\n"))?.problem == "truncated: 1 of 2 ascii points before the end of the file")
        let colour = PCDReaderTests.header(fields: "x y z rgb", size: "4 4 4 4", type: "F F F U", count: "1 1 1 1",
                                           width: "1", points: "1", data: "ascii") + Array("1 2 3 4294967296\n".utf8)
        #expect(Self.error(colour)?.problem == "colour '4294967296' is not a 32-bit integer")
    }

    @Test func compressedSizesThatLie() {
        let payload = Self.fieldMajor(padding: false)
        let stream = TestLZFEncoder.compress(payload)
        let body = Self.header(data: "binary_compressed")
        // The stream expands to fewer bytes than the header declares (the declared size matches the fields).
        let short = TestLZFEncoder.compress(Array(payload.dropLast(10)))
        let shortError = Self.error(body + Self.le(UInt32(short.count)) + Self.le(UInt32(payload.count)) + short)
        #expect(shortError?.problem == "corrupt binary_compressed data: LZF produced \(payload.count - 10) bytes, the header declares \(payload.count)")
        // The stream expands to more.
        let long = TestLZFEncoder.compress(payload + [1, 2, 3])
        #expect(Self.error(body + Self.le(UInt32(long.count)) + Self.le(UInt32(payload.count)) + long)?.problem
                    .contains("expands past the \(payload.count) bytes") == true)
        // A compressed size shorter than the stream: the stream is cut inside an item.
        let cut = Self.error(body + Self.le(UInt32(stream.count - 1)) + Self.le(UInt32(payload.count)) + stream)
        #expect(cut?.problem.hasPrefix("corrupt binary_compressed data: LZF") == true)
        // A reference before the first byte.
        let before = Self.error(body + Self.le(UInt32(4)) + Self.le(UInt32(payload.count)) + [1 << 5, 0, 0, 0])
        #expect(before?.problem.contains("before the start of the data") == true && before?.source == "bad.pcd")
    }

    @Test func uncompressedClaimBeyondWhatLZFCanExpandTo() {
        // 10⁶ points × 12 bytes from 100 compressed bytes: no LZF stream can do that, so nothing
        // is allocated for it.
        let bytes = PCDReaderTests.header(width: "1000000", points: "1000000", data: "binary_compressed")
            + Self.le(UInt32(100)) + Self.le(UInt32(12_000_000)) + Array(repeating: 0, count: 100)
        #expect(Self.error(bytes)?.problem == "compressed size 100 cannot expand to the 12000000 bytes claimed (LZF expands at most 88×)")
    }

    @Test(arguments: ["ascii", "binary_compressed"])
    func hugeClaimInOtherEncodings(data: String) {
        let bytes = PCDReaderTests.header(width: "1000000000", points: "1000000000", data: data)
            + Self.le(UInt32(8)) + Self.le(UInt32(12)) + Array(repeating: 0, count: 100)
        #expect(Self.error(bytes)?.problem.contains("claims 1000000000 points, more than") == true)
    }

    @Test func emptyCloudKeepsItsPose() throws {
        let cloud = try PCDReader.decode(PCDReaderTests.header(width: "0", height: "0", points: "0", data: "binary"), source: "empty")
        #expect(cloud.count == 0 && cloud.sensorPose.translation == SIMD3(1, 2, 3))
    }
}
