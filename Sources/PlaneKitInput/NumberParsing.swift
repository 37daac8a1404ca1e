#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Parsing numbers straight out of a byte buffer, without building a `String` per token.
package enum NumberParsing {
    /// Longest numeric token accepted (digits, sign, exponent): longer tokens are not numbers
    /// any writer produces.
    static let maximumTokenLength = 63

    /// `true` for the bytes that separate tokens on a line: space, tab, CR, VT, FF.
    @inline(__always) package static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0B || byte == 0x0C
    }

    /// The `Double` spelled by `text[start..<end]`, or nil when those bytes are not exactly one
    /// number (C syntax, `strtod`; "nan" and "inf" parse and are left for the caller to judge).
    package static func double(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        let length = end - start
        guard length > 0, length <= maximumTokenLength, start >= 0, end <= text.count else { return nil }
        // strtod needs a NUL-terminated string: copy the token to the stack.
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer -> Double? in
            for i in 0..<length { buffer[i] = CChar(bitPattern: text[start + i]) }
            buffer[length] = 0
            let base = buffer.baseAddress!
            // strtod skips leading white space; a token never starts with it, so reject that case.
            guard !isBlank(text[start]), text[start] != 0x0A else { return nil }
            var endPointer: UnsafeMutablePointer<CChar>?
            let value = strtod(base, &endPointer)
            guard let endPointer, endPointer - base == length else { return nil }
            return value
        }
    }

    /// The `Float` spelled by `text[start..<end]` (rounded once, from the decimal text).
    package static func float(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Float? {
        let length = end - start
        guard length > 0, length <= maximumTokenLength, start >= 0, end <= text.count else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer -> Float? in
            for i in 0..<length { buffer[i] = CChar(bitPattern: text[start + i]) }
            buffer[length] = 0
            let base = buffer.baseAddress!
            guard !isBlank(text[start]), text[start] != 0x0A else { return nil }
            var endPointer: UnsafeMutablePointer<CChar>?
            let value = strtof(base, &endPointer)
            guard let endPointer, endPointer - base == length else { return nil }
            return value
        }
    }

    /// The non-negative decimal integer spelled by `text[start..<end]`, or nil (also on overflow).
    package static func unsigned(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        guard end > start, start >= 0, end <= text.count else { return nil }
        var value = 0
        for i in start..<end {
            let digit = Int(text[i]) - 48
            guard digit >= 0, digit <= 9 else { return nil }
            let (shifted, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = shifted.addingReportingOverflow(digit)
            guard !o1, !o2 else { return nil }
            value = sum
        }
        return value
    }
}
