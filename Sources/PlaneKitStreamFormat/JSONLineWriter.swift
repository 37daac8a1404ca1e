/// Builds one line of JSON (an NDJSON record or event) into a reusable byte buffer, fast and
/// always valid: commas and the closing `\n` are placed for the caller, strings are escaped,
/// numbers are written in their shortest form that reads back to the same value, and NaN or
/// infinity — which JSON cannot spell — become `null`.
///
/// ```swift
/// var line = JSONLineWriter()
/// line.beginObject()
/// line.field("type", "hit")
/// line.field("distance", Float(1.25))
/// line.field("position", SIMD3<Float>(0, 1, 2))
/// line.endObject()          // closes the top level object and appends "\n"
/// try output.write(line)
/// line.reset()              // keeps the buffer for the next line
/// ```
public struct JSONLineWriter: Sendable {
    /// The text written so far, UTF-8.
    public private(set) var bytes: [UInt8] = []
    /// Nesting depth of open objects and arrays.
    private var depth = 0
    /// Bit `d` is set when the container at depth `d` already has an element.
    private var hasElement: UInt64 = 0
    /// `true` right after a key, when the value needs no comma.
    private var afterKey = false

    /// An empty line with room for `capacity` bytes.
    public init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    /// Clears the line, keeping its buffer.
    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        depth = 0
        hasElement = 0
        afterKey = false
    }

    /// The line as a `String` (for tests and messages).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    // MARK: Structure

    /// Opens an object.
    public mutating func beginObject() { open(UInt8(ascii: "{")) }

    /// Closes the innermost object; closing the top level one ends the line with `\n`.
    public mutating func endObject() { close(UInt8(ascii: "}")) }

    /// Opens an array.
    public mutating func beginArray() { open(UInt8(ascii: "[")) }

    /// Closes the innermost array.
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Writes an object key; the next value written is its value.
    public mutating func key(_ name: String) {
        separate()
        appendString(name)
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    // MARK: Values

    /// Writes a string, escaped.
    public mutating func value(_ s: String) {
        separate()
        appendString(s)
    }

    /// Writes an integer.
    public mutating func value(_ n: Int) {
        separate()
        appendInteger(n)
    }

    /// Writes an unsigned integer.
    public mutating func value(_ n: UInt64) {
        separate()
        appendMagnitude(n)
    }

    /// Writes a `Double` in its shortest round-trip form, or `null` when not finite.
    public mutating func value(_ x: Double) {
        separate()
        guard x.isFinite else { return appendLiteral("null") }
        appendFloatingPoint(x)
    }

    /// Writes a `Float` in its shortest round-trip form, or `null` when not finite.
    public mutating func value(_ x: Float) {
        separate()
        guard x.isFinite else { return appendLiteral("null") }
        appendFloatingPoint(x)
    }

    /// Writes `true` or `false`.
    public mutating func value(_ b: Bool) {
        separate()
        appendLiteral(b ? "true" : "false")
    }

    /// Writes `null`.
    public mutating func null() {
        separate()
        appendLiteral("null")
    }

    /// Writes `[x, y]`.
    public mutating func value(_ v: SIMD2<Float>) {
        beginArray(); value(v.x); value(v.y); endArray()
    }

    /// Writes `[x, y, z]`.
    public mutating func value(_ v: SIMD3<Float>) {
        beginArray(); value(v.x); value(v.y); value(v.z); endArray()
    }

    /// Writes an array of numbers.
    public mutating func value(_ numbers: [Float]) {
        beginArray()
        for x in numbers { value(x) }
        endArray()
    }

    // MARK: Fields

    /// Writes `"key": value`.
    public mutating func field(_ name: String, _ s: String) { key(name); value(s) }
    /// Writes `"key": value`.
    public mutating func field(_ name: String, _ n: Int) { key(name); value(n) }
    /// Writes `"key": value`.
    public mutating func field(_ name: String, _ n: UInt64) { key(name); value(n) }
    /// Writes `"key": value`.
    public mutating func field(_ name: String, _ x: Double) { key(name); value(x) }
    /// Writes `"key": value`.
    public mutating func field(_ name: String, _ x: Float) { key(name); value(x) }
    /// Writes `"key": value`.
    public mutating func field(_ name: String, _ b: Bool) { key(name); value(b) }
    /// Writes `"key": [x, y]`.
    public mutating func field(_ name: String, _ v: SIMD2<Float>) { key(name); value(v) }
    /// Writes `"key": [x, y, z]`.
    public mutating func field(_ name: String, _ v: SIMD3<Float>) { key(name); value(v) }
    /// Writes `"key": [numbers]`.
    public mutating func field(_ name: String, _ numbers: [Float]) { key(name); value(numbers) }

    // MARK: Internals

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        depth += 1
        if depth < 64 { hasElement &= ~(1 << UInt64(depth)) }
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        depth = max(0, depth - 1)
        afterKey = false
        if depth == 0 { bytes.append(0x0A) }
    }

    /// A comma before every element but the first of its container, none after a key.
    private mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        guard depth > 0, depth < 64 else { return }
        let bit: UInt64 = 1 << UInt64(depth)
        if hasElement & bit != 0 { bytes.append(UInt8(ascii: ",")) } else { hasElement |= bit }
    }

    private mutating func appendLiteral(_ literal: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    private mutating func appendInteger(_ n: Int) {
        if n < 0 { bytes.append(UInt8(ascii: "-")) }
        appendMagnitude(UInt64(n.magnitude))
    }

    private mutating func appendMagnitude(_ n: UInt64) {
        var magnitude = n
        // At most 20 digits; written backwards into a small stack buffer.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var k = 20
            repeat {
                k -= 1
                digits[k] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[k..<20]))
        }
    }

    /// Swift's `description` of a binary floating-point value is the shortest decimal that
    /// reads back to the same value ("0.1", "1e-05", "-3.4028235e+38"), which is valid JSON; the
    /// string is usually small enough to stay inline (15 bytes), so no allocation happens.
    private mutating func appendFloatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(_ x: T) {
        var text = x.description
        text.withUTF8 { utf8 in
            // A whole number is written without its ".0" ("2", not "2.0"), as JSONEncoder does;
            // negative zero keeps it, since readers take "-0" for the integer 0 and lose the sign.
            let n = utf8.count
            let whole = n > 2 && utf8[n - 2] == UInt8(ascii: ".") && utf8[n - 1] == UInt8(ascii: "0")
                && !(x == 0 && x.sign == .minus)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[0..<(whole ? n - 2 : n)]))
        }
    }

    private mutating func appendString(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        var copy = s
        copy.withUTF8 { utf8 in
            var runStart = 0
            for i in 0..<utf8.count {
                let b = utf8[i]
                guard b < 0x20 || b == 0x22 || b == 0x5C else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
                runStart = i + 1
                switch b {
                case 0x22: appendLiteral("\\\"")
                case 0x5C: appendLiteral("\\\\")
                case 0x0A: appendLiteral("\\n")
                case 0x0D: appendLiteral("\\r")
                case 0x09: appendLiteral("\\t")
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 15)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
