#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A parsed JSON value. Objects keep their members in order as `(key, value)` pairs: record
/// headers have a dozen keys at most, so a linear search beats hashing.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    package static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The kind of value, for messages ("a string", "an array").
    package var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A strict RFC 8259 parser for one JSON text held in a byte buffer (a stream record's header
/// line, a camera sidecar).
///
/// It rejects what JSON rejects — `NaN`, `Infinity`, leading zeros, trailing commas, unescaped
/// control characters, lone surrogates — nests at most ``maximumDepth`` deep and holds at most
/// ``maximumValues`` values, so a hostile line can neither crash it, nor run it out of stack,
/// nor make it build a tree many times the line's size (a 1 MiB line of `[0,0,0,…` would
/// otherwise become half a million values, over 10 MB).
package struct JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    package static let maximumDepth = 64
    /// The most values (numbers, strings, literals, arrays and objects, keys not counted) one
    /// text may hold: 4096. A record header holds a few dozen (a frame: 16 for its pose, 4 for
    /// its intrinsics, and a dozen fields).
    package static let maximumValues = 4096

    private let text: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// Values parsed so far.
    private var valueCount = 0

    /// Parses `text` as exactly one JSON value (white space around it allowed), or throws a
    /// message saying what is wrong and at which byte.
    package static func parse(_ text: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(text: text)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == text.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    private init(text: UnsafeBufferPointer<UInt8>) {
        self.text = text
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(message: message, offset: index)
    }

    private var current: UInt8? { index < text.count ? text[index] : nil }

    private mutating func skipWhitespace() {
        while index < text.count {
            let b = text[index]
            guard b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D else { return }
            index += 1
        }
    }

    private mutating func expect(_ literal: StaticString) throws(JSONSyntaxError) {
        let count = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        guard index + count <= text.count else { throw error("unexpected end of line") }
        for k in 0..<count where text[index + k] != start[k] { throw error("invalid literal") }
        index += count
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard let b = current else { throw error("unexpected end of line") }
        valueCount += 1
        guard valueCount <= JSONParser.maximumValues else { throw error("more than \(JSONParser.maximumValues) values") }
        switch b {
        case UInt8(ascii: "{"):
            guard depth < JSONParser.maximumDepth else { throw error("nested more than \(JSONParser.maximumDepth) deep") }
            return try object(depth: depth + 1)
        case UInt8(ascii: "["):
            guard depth < JSONParser.maximumDepth else { throw error("nested more than \(JSONParser.maximumDepth) deep") }
            return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected character '\(JSONSyntaxError.printable(b))'")
        }
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(key)\"") }
            index += 1
            skipWhitespace()
            members.append((key, try value(depth: depth)))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw error("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw error("expected ',' or ']' in an array")
            }
        }
    }

    /// A number by JSON's grammar, converted with correct rounding (`strtod` on a copy).
    private mutating func number() throws(JSONSyntaxError) -> Double {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, first >= 0x30, first <= 0x39 else { throw error("a number needs digits") }
        index += 1
        if first != 0x30 {
            while let d = current, d >= 0x30, d <= 0x39 { index += 1 }
        } else if let d = current, d >= 0x30, d <= 0x39 {
            throw error("a number cannot have leading zeros")
        }
        var isInteger = true
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let d = current, d >= 0x30, d <= 0x39 else { throw error("a number needs digits after '.'") }
            while let d = current, d >= 0x30, d <= 0x39 { index += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let d = current, d >= 0x30, d <= 0x39 else { throw error("a number needs digits in its exponent") }
            while let d = current, d >= 0x30, d <= 0x39 { index += 1 }
        }
        let length = index - start
        // Short integers are exact in a Double: no need for strtod.
        if isInteger && length <= 16 {
            var value = 0
            var k = start
            let negative = text[k] == UInt8(ascii: "-")
            if negative { k += 1 }
            while k < index {
                value = value * 10 + Int(text[k] - 0x30)
                k += 1
            }
            return negative ? -Double(value) : Double(value)
        }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer in
            for k in 0..<length { buffer[k] = CChar(bitPattern: text[start + k]) }
            buffer[length] = 0
            // The grammar was checked above, so strtod reads the whole token.
            return strtod(buffer.baseAddress!, nil)
        }
    }

    /// A string with its escapes decoded. The bytes are known to be valid UTF-8 (the reader
    /// checks each line first), so unescaped runs are copied as they are.
    private mutating func string() throws(JSONSyntaxError) -> String {
        index += 1
        var bytes: [UInt8] = []
        while true {
            guard let b = current else { throw error("unterminated string") }
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: bytes, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard let e = current else { throw error("unterminated string") }
                index += 1
                switch e {
                case UInt8(ascii: "\""): bytes.append(0x22)
                case UInt8(ascii: "\\"): bytes.append(0x5C)
                case UInt8(ascii: "/"): bytes.append(0x2F)
                case UInt8(ascii: "b"): bytes.append(0x08)
                case UInt8(ascii: "f"): bytes.append(0x0C)
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if scalar >= 0xD800 && scalar <= 0xDBFF {
                        // A high surrogate must be followed by an escaped low surrogate.
                        guard index + 1 < text.count, text[index] == UInt8(ascii: "\\"), text[index + 1] == UInt8(ascii: "u") else {
                            throw error("lone surrogate in a \\u escape")
                        }
                        index += 2
                        let low = try hex4()
                        guard low >= 0xDC00 && low <= 0xDFFF else { throw error("lone surrogate in a \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                        throw error("lone surrogate in a \\u escape")
                    }
                    // Valid by the checks above.
                    bytes.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
                default:
                    throw error("invalid escape '\\\(JSONSyntaxError.printable(e))'")
                }
            default:
                guard b >= 0x20 else { throw error("control character in a string") }
                bytes.append(b)
                index += 1
            }
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= text.count else { throw error("unterminated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = text[index]
            let digit: UInt32
            switch c {
            case 0x30...0x39: digit = UInt32(c - 0x30)
            case 0x41...0x46: digit = UInt32(c - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(c - 0x61 + 10)
            default: throw error("invalid hex digit in a \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}

/// Why a line is not JSON, and the byte offset where the parser stopped.
package struct JSONSyntaxError: Error, Sendable {
    package let message: String
    package let offset: Int

    /// A byte shown in a message: itself when printable ASCII, else `\xNN`.
    package static func printable(_ b: UInt8) -> String {
        b >= 0x20 && b < 0x7F ? String(UnicodeScalar(b)) : "\\x" + String(b, radix: 16, uppercase: true)
    }
}
